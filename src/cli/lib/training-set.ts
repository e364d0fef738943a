// Builds the training examples from SpamAssassin (train split only) and corpus/train.
// Mapping of SpamAssassin ham to wanted kinds for the second stage is documented in
// docs/decisions/006-classifier.md.

import { parseRawMessage } from '#classifier/message.ts'
import { computeSignals } from '#classifier/signals.ts'
import { extractFeatures } from '#classifier/features.ts'
import type { TrainingExample } from '#classifier/model.ts'
import type { Category } from '#classifier/types.ts'
import { emptyContext } from '#classifier/types.ts'
import { isSpam, isSpamAssassinTest, loadCorpus, loadSpamAssassin } from './corpus.ts'
import type { CorpusMessage } from './corpus.ts'

/** Own modern corpus counts more than 2002 mail: it is what users' mailboxes look like today. */
export const CORPUS_WEIGHT = 8
/** SpamAssassin ham only hints at the wanted kinds (labels are ham/spam), so it weighs little in stage 2. */
export const SA_WANTED_WEIGHT = 0.25

export function buildTrainingSet(log: (s: string) => void = () => {}, corpusWeight = CORPUS_WEIGHT, saWantedWeight = SA_WANTED_WEIGHT): { examples: TrainingExample[]; counts: Record<string, number>; corpus: CorpusMessage[]; corpusStart: number } {
  const examples: TrainingExample[] = []
  const counts: Record<string, number> = {}
  const bump = (k: string) => (counts[k] = (counts[k] ?? 0) + 1)
  const ctx = emptyContext()
  const sa = loadSpamAssassin()
  for (const item of sa) {
    if (isSpamAssassinTest(item)) continue
    let message
    try {
      message = parseRawMessage(item.text)
    } catch {
      continue
    }
    const s = computeSignals(message, ctx)
    const features = extractFeatures(message, s, true)
    if (isSpam(item)) {
      examples.push({ features, label: 'unwanted', weight: 1 })
      bump('spamassassin:unwanted')
      continue
    }
    let label: Category
    if (s.transactional) label = 'transactional'
    else if (item.group === 'hard-ham-1') label = s.listId ? 'informational' : 'promotional'
    else label = s.listId || s.precedence || s.listUnsubscribe ? 'informational' : 'genuine'
    examples.push({ features, label, weight: 1, wantedWeight: saWantedWeight })
    bump('spamassassin:ham')
  }
  log(`SpamAssassin: ${counts['spamassassin:ham'] ?? 0} ham, ${counts['spamassassin:unwanted'] ?? 0} spam (train split)`)
  const corpus = loadCorpus('train')
  const corpusStart = examples.length
  for (const c of corpus) {
    const s = computeSignals(c.message, c.context)
    examples.push({ features: extractFeatures(c.message, s, true), label: c.label, weight: corpusWeight })
    bump('corpus:' + c.label)
  }
  log(`Own corpus (train): ${corpus.length} messages`)
  return { examples, counts, corpus, corpusStart }
}
