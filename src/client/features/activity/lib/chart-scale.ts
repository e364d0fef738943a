/**
 * A "nice" y axis for counts: a step of 1, 2 or 5 times a power of ten, about four steps, and a top
 * that is a whole number of steps at or above the largest value (at least one step).
 */
export function niceScale(max: number, targetSteps = 4): { top: number; ticks: number[] } {
  const safeMax = Math.max(0, max)
  const raw = Math.max(1, safeMax / targetSteps)
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? 10 * power
  const top = Math.max(step, Math.ceil(safeMax / step) * step)
  const ticks: number[] = []
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick)
  return { top, ticks }
}
