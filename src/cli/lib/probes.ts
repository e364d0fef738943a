// Hand-written probe messages (src/classifier/testing/probes/<category>/*.eml) that no model was
// trained on: inbound buyers, applicants, journalists, customers, neighbours, family and short
// replies, each with a cold-outreach counterpart in similar words but the opposite direction.
// Classified with an empty context (an unknown sender), the hardest case.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseRawMessage } from '#classifier/message.ts'
import type { NormalisedMessage } from '#classifier/message.ts'
import { classify } from '#classifier/classify.ts'
import type { Model } from '#classifier/model.ts'
import { CATEGORIES, emptyContext } from '#classifier/types.ts'
import type { Category, Decision } from '#classifier/types.ts'

export const PROBES_DIR = fileURLToPath(new URL('../../classifier/testing/probes/', import.meta.url))

export interface Probe {
  file: string
  label: Category
  message: NormalisedMessage
}

export function loadProbes(dir = PROBES_DIR): Probe[] {
  const out: Probe[] = []
  for (const label of CATEGORIES) {
    let files: string[]
    try {
      files = readdirSync(join(dir, label)).filter((f) => f.endsWith('.eml')).sort()
    } catch {
      continue
    }
    for (const f of files) out.push({ file: `${label}/${f}`, label, message: parseRawMessage(readFileSync(join(dir, label, f), 'latin1')) })
  }
  return out
}

export interface ProbeResult {
  probe: Probe
  decision: Decision
}

export interface ProbeSummary {
  results: ProbeResult[]
  wanted: number
  /** Wanted probes moved with default settings (the worst failure). */
  wantedMoved: ProbeResult[]
  /** Wanted probes called unwanted at all (even if kept by the threshold). */
  wantedCalledUnwanted: ProbeResult[]
  outreach: number
  outreachMoved: number
  outreachCalledUnwanted: number
}

export function runProbes(model: Model, probes = loadProbes()): ProbeSummary {
  const ctx = emptyContext()
  const results = probes.map((probe) => ({ probe, decision: classify(probe.message, ctx, model) }))
  const wanted = results.filter((r) => r.probe.label !== 'unwanted')
  const outreach = results.filter((r) => r.probe.label === 'unwanted')
  return {
    results,
    wanted: wanted.length,
    wantedMoved: wanted.filter((r) => r.decision.action === 'filter'),
    wantedCalledUnwanted: wanted.filter((r) => r.decision.category === 'unwanted'),
    outreach: outreach.length,
    outreachMoved: outreach.filter((r) => r.decision.action === 'filter').length,
    outreachCalledUnwanted: outreach.filter((r) => r.decision.category === 'unwanted').length,
  }
}
