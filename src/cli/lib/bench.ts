// Shared by the classifier benchmarks (npm run bench:classifier, npm run bench:compare).

import { parseRawMessage } from '#classifier/message.ts'
import type { NormalisedMessage } from '#classifier/message.ts'

/** CPU time of this process in ms: the benchmarks report work per core, not what other processes leave over. */
export function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** The messages that parse (a malformed one is skipped, as every benchmark skips it). */
export function parseAll(items: readonly { text: string }[]): NormalisedMessage[] {
  const parsed: NormalisedMessage[] = []
  for (const item of items) {
    try {
      parsed.push(parseRawMessage(item.text))
    } catch {
      // skipped
    }
  }
  return parsed
}
