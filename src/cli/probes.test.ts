import { describe, expect, it } from 'vitest'
import { readModel } from './lib/model-file.ts'
import { loadProbes, runProbes } from './lib/probes.ts'

// The committed model on hand-written mail it never saw, from unknown senders (empty context).
describe('probes: inbound requests versus cold outreach', () => {
  const summary = runProbes(readModel())

  it('has at least 40 wanted probes and as many cold-outreach counterparts', () => {
    const probes = loadProbes()
    expect(probes.filter((p) => p.label !== 'unwanted').length).toBeGreaterThanOrEqual(40)
    expect(probes.filter((p) => p.label === 'unwanted').length).toBeGreaterThanOrEqual(40)
  })

  it('moves no wanted probe with default settings (buyers, applicants, journalists, customers, family, short replies)', () => {
    expect(summary.wantedMoved.map((r) => `${r.probe.file}: ${r.decision.confidence} ${r.decision.reasons.join(' | ')}`)).toEqual([])
  })

  it('moves most cold-outreach probes with default settings', () => {
    expect(summary.outreachMoved / summary.outreach).toBeGreaterThanOrEqual(0.85)
  })

  it('never cites a single everyday word as the evidence for cold outreach', () => {
    for (const r of summary.results) {
      for (const reason of r.decision.reasons) {
        const m = /^Wording common in cold outreach and bulk spam: (.*)$/.exec(reason)
        if (!m) continue
        expect((m[1] as string).split('”, “').length, `${r.probe.file}: ${reason}`).toBeGreaterThanOrEqual(2)
        expect(reason, r.probe.file).not.toMatch(/“(see|team|offer|hi|best|would|thanks|please)”/)
      }
    }
  })
})
