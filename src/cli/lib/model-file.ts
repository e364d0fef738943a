// Where the committed model artefact lives, and reading it (the classifier itself does no I/O).

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadModel, MODEL_ARTEFACT_URL } from '#classifier/model.ts'
import type { Model } from '#classifier/model.ts'

export const MODEL_PATH = fileURLToPath(MODEL_ARTEFACT_URL)

export function readModel(path = MODEL_PATH): Model {
  return loadModel(JSON.parse(readFileSync(path, 'utf8')))
}
