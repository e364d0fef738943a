// Where the committed model artefact lives, and reading it (the classifier itself does no I/O).

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadModel } from '#classifier/model.ts'
import type { Model } from '#classifier/model.ts'

export const MODEL_PATH = fileURLToPath(new URL('../../classifier/model/model.json', import.meta.url))

export function readModel(path = MODEL_PATH): Model {
  return loadModel(JSON.parse(readFileSync(path, 'utf8')))
}
