import { describe, expect, it } from 'vitest'
import { loadModel, ModelFormatError, predict, serialiseModel, trainModel } from './model.ts'
import type { TrainingExample } from './model.ts'
import { computeSignals } from './signals.ts'
import { extractFeatures, featureHash } from './features.ts'
import { emptyContext } from './types.ts'
import type { Category } from './types.ts'
import { msg } from './testing/fixtures.ts'

function example(body: string, label: Category, headers: Record<string, string> = {}): TrainingExample {
  const m = msg({ body, headers })
  return { features: extractFeatures(m, computeSignals(m, emptyContext()), true), label, weight: 1 }
}

const words = (seed: number, list: string[]) => Array.from({ length: 12 }, (_, i) => list[(seed * 7 + i * 3) % list.length]).join(' ')
const SPAM = ['seo', 'rankings', 'guaranteed', 'backlinks', 'offer', 'traffic', 'cheap', 'leads']
const HAM = ['lunch', 'thanks', 'meeting', 'notes', 'kids', 'weekend', 'project', 'draft']
const NEWS = ['digest', 'weekly', 'issue', 'articles', 'read', 'community']

function tinySet(): TrainingExample[] {
  const out: TrainingExample[] = []
  for (let i = 0; i < 30; i++) {
    out.push(example(words(i, SPAM), 'unwanted'))
    out.push(example(words(i, HAM), 'genuine'))
    out.push(example(words(i, NEWS), 'informational', { 'List-Unsubscribe': '<mailto:x@y.example>' }))
  }
  return out
}

describe('local model', () => {
  it('training is deterministic: the same data gives the same bytes', () => {
    const opts = { epochs: 4, folds: 2, minDocFreq: 2 }
    expect(serialiseModel(trainModel(tinySet(), opts))).toBe(serialiseModel(trainModel(tinySet(), opts)))
  })

  it('learns to separate unwanted from wanted and the wanted kinds', () => {
    const model = loadModel(JSON.parse(serialiseModel(trainModel(tinySet(), { epochs: 6, folds: 2, minDocFreq: 2 }))))
    const score = (e: TrainingExample) => predict(model, e.features)
    expect(score(example('cheap seo traffic guaranteed', 'unwanted')).pUnwanted).toBeGreaterThan(0.7)
    expect(score(example('thanks for lunch this weekend', 'genuine')).pUnwanted).toBeLessThan(0.3)
    const news = score(example('weekly digest issue', 'informational', { 'List-Unsubscribe': '<mailto:x@y.example>' }))
    expect(news.wanted[1]).toBeGreaterThan(0.5)
  })

  it('scores the same features it was trained on: every name hashes to the hash the scanner computed', () => {
    const m = msg({
      subject: 'Re: 15-minute call about SEO?',
      body: 'Hi Dana, quick question: would you be open to a 15 minute call? Grüße aus Köln, 2024 Bestellung #A12 – il nostro preventivo.',
      headers: { 'List-Unsubscribe': '<mailto:x@y.example>' },
    })
    const fv = extractFeatures(m, computeSignals(m, emptyContext()), true)
    expect(fv.names?.length).toBe(fv.hashes.length)
    expect(fv.names).toContain('s:#n2_minute')
    fv.names?.forEach((name, i) => expect([name, featureHash(name)]).toEqual([name, fv.hashes[i]]))
  })

  it("leaves the recipient's own name and company out of the word features", () => {
    const m = msg({ to: 'Dana Whitfield <dana@northwind-analytics.example>', body: 'Hi Dana, Northwind Analytics looks great. Pricing please.' })
    const names = extractFeatures(m, computeSignals(m, emptyContext()), true).names ?? []
    expect(names).toContain('pricing')
    expect(names.filter((n) => /dana|northwind|analytics|whitfield/.test(n))).toEqual([])
  })

  it('refuses artefacts of another format or version', () => {
    expect(() => loadModel({ format: 'something-else' })).toThrow(ModelFormatError)
    expect(() => loadModel({ format: 'inbox-guard-classifier', version: 999 })).toThrow(/version 999/)
  })
})
