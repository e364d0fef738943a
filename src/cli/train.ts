// npm run train: rebuilds src/classifier/model/model.json from SpamAssassin (train split) and
// corpus/train. Deterministic: the same inputs give the same bytes.

import { writeFileSync } from 'node:fs'
import { serialiseModel, trainModel } from '#classifier/model.ts'
import { buildTrainingSet } from './lib/training-set.ts'
import { MODEL_PATH } from './lib/model-file.ts'

const started = performance.now()
const log = (s: string) => process.stderr.write(s + '\n')
const { examples, counts } = buildTrainingSet(log)
log(`Training on ${examples.length} examples…`)
const artefact = trainModel(examples, { trainedOn: counts })
const text = serialiseModel(artefact)
writeFileSync(MODEL_PATH, text)
log(
  `Wrote ${MODEL_PATH} (${(text.length / 1024).toFixed(0)} KiB, ${Object.keys(artefact.unwanted.weights).length} + ${
    Object.keys(artefact.wanted.weights).length
  } weights, Platt ${artefact.unwanted.platt.join('/')}, T=${artefact.wanted.temperature}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
