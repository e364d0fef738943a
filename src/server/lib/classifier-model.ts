import { readFileSync } from 'node:fs'
import { loadModel, MODEL_ARTEFACT_URL, type Model } from '#classifier/model.ts'

let model: Model | undefined

/** The committed classifier model (src/classifier/model/model.json), read once, on first use (not at start-up). */
export function classifierModel(): Model {
  model ??= loadModel(JSON.parse(readFileSync(MODEL_ARTEFACT_URL, 'utf8')))
  return model
}
