// Test fixtures: a hand-weighted model (so tests pin the decision rules, not a training run)
// and a builder for raw RFC 822 messages.

import { loadModel, MODEL_FORMAT, serialiseModel } from '../model.ts'
import type { Model, ModelArtefact } from '../model.ts'
import { parseRawMessage } from '../message.ts'
import type { NormalisedMessage } from '../message.ts'

/**
 * Word weights towards unwanted (logit units; word features are scaled by 3/sqrt(#words)).
 * Wanted weights: [genuine, informational, promotional, transactional].
 */
export function handModel(): Model {
  const artefact: ModelArtefact = {
    format: MODEL_FORMAT,
    trainedOn: { fixture: 1 },
    unwanted: {
      bias: -1,
      platt: [1, 0],
      weights: {
        seo: 4,
        rankings: 4,
        guaranteed: 4,
        backlinks: 4,
        lunch: -4,
        'h:list-unsubscribe': -2,
        'reply:fake': 1.5,
        mild: 0.6,
        'h:outreach-tool': 2,
      },
    },
    wanted: {
      classes: ['genuine', 'informational', 'promotional', 'transactional'],
      bias: [0.5, 0, 0, 0],
      temperature: 1,
      weights: {
        lunch: [3, 0, 0, 0],
        digest: [0, 4, 0, 0],
        sale: [0, 0, 4, 0],
        receipt: [0, 0, 0, 4],
        's:receipt': [0, 0, 0, 3],
        'h:list-unsubscribe': [0, 1, 1, 0],
      },
    },
  }
  return loadModel(JSON.parse(serialiseModel(artefact)))
}

export interface RawSpec {
  from?: string
  to?: string
  subject?: string
  body?: string
  headers?: Record<string, string>
  date?: string
}

export function raw(spec: RawSpec = {}): string {
  const headers: Record<string, string> = {
    From: spec.from ?? 'Sam Seller <sam@growthco.example>',
    To: spec.to ?? 'dana@northwind.example',
    Subject: spec.subject ?? 'Hello',
    Date: spec.date ?? 'Tue, 05 Mar 2024 10:00:00 +0000',
    'Message-ID': `<${Math.abs(hash((spec.subject ?? '') + (spec.body ?? '') + (spec.from ?? '')))}@fixture.example>`,
    'Content-Type': 'text/plain; charset=utf-8',
    ...spec.headers,
  }
  return Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n') + '\r\n\r\n' + (spec.body ?? 'Hi there.') + '\r\n'
}

export function msg(spec: RawSpec = {}): NormalisedMessage {
  return parseRawMessage(raw(spec))
}

function hash(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0
  return h
}
