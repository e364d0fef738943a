// Precision/recall/F1 and confusion matrices for the evaluation report.

export interface Confusion {
  labels: string[]
  predicted: string[]
  counts: number[][]
}

export function confusion(labels: string[], predicted: string[], pairs: [string, string][]): Confusion {
  const counts = labels.map(() => predicted.map(() => 0))
  for (const [t, p] of pairs) {
    const i = labels.indexOf(t)
    const j = predicted.indexOf(p)
    if (i >= 0 && j >= 0) (counts[i] as number[])[j] = ((counts[i] as number[])[j] as number) + 1
  }
  return { labels, predicted, counts }
}

export interface Prf {
  precision: number
  recall: number
  f1: number
  support: number
  /** Predicted positive but not (for unwanted: wanted mail called unwanted). */
  falsePositives: number
  /** Positive but not predicted (for unwanted: outreach let through). */
  falseNegatives: number
}

export function prf(pairs: [string, string][], positive: (label: string) => boolean, positivePred: (p: string) => boolean): Prf {
  let tp = 0
  let fp = 0
  let fn = 0
  let support = 0
  for (const [t, p] of pairs) {
    const a = positive(t)
    const b = positivePred(p)
    if (a) support++
    if (a && b) tp++
    else if (!a && b) fp++
    else if (a && !b) fn++
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp)
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f1, support, falsePositives: fp, falseNegatives: fn }
}

export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => String(c)))]
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)))
  return cells.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ')).join('\n')
}

export function formatConfusion(c: Confusion): string {
  return formatTable(
    ['true \\ predicted', ...c.predicted],
    c.labels.map((l, i) => [l, ...(c.counts[i] as number[])]),
  )
}

export const pct = (x: number, digits = 1) => (x * 100).toFixed(digits) + ' %'
export const f3 = (x: number) => x.toFixed(3)

/** Expected calibration error of probabilities against 0/1 outcomes, in equal-width bins. */
export function calibrationError(points: { p: number; y: number }[], bins = 10): number {
  const sum = Array.from({ length: bins }, () => ({ n: 0, p: 0, y: 0 }))
  for (const { p, y } of points) {
    const b = sum[Math.min(bins - 1, Math.floor(p * bins))] as { n: number; p: number; y: number }
    b.n++
    b.p += p
    b.y += y
  }
  let ece = 0
  for (const b of sum) if (b.n > 0) ece += (b.n / points.length) * Math.abs(b.p / b.n - b.y / b.n)
  return ece
}
