// The local model: two linear stages over the same sparse features.
//   Stage 1: logistic regression, unwanted vs wanted (SpamAssassin + own corpus).
//   Stage 2: softmax regression over the wanted kinds (own corpus + mapped SpamAssassin ham).
// Both are trained with AdaGrad in a fixed order with a seeded shuffle, calibrated on out-of-fold
// scores (Platt scaling for stage 1, a temperature for stage 2) and serialised with rounded weights,
// so `npm run train` reproduces the artefact byte for byte. See docs/decisions/006-classifier.md.

import { WANTED_CATEGORIES } from './types.ts'
import type { Category, WantedCategory } from './types.ts'
import type { FeatureVector } from './features.ts'
import { featureHash, featureValue, isEverydayFeature } from './features.ts'

export const MODEL_FORMAT = 'inbox-guard-classifier'
/** Where the committed artefact lives; callers read it themselves and pass the JSON to loadModel. */
export const MODEL_ARTEFACT_URL = new URL('./model/model.json', import.meta.url)
/** Version 2: one row per feature (version 1 kept two large objects keyed by name, slower to load). */
export const MODEL_VERSION = 2

/** What training produces (weights by feature name); serialiseModel writes it as a ModelFile. */
export interface ModelArtefact {
  format: typeof MODEL_FORMAT
  /** Human-readable description of the training data (counts only). */
  trainedOn: Record<string, number>
  unwanted: { bias: number; platt: [number, number]; weights: Record<string, number> }
  wanted: { classes: WantedCategory[]; bias: number[]; temperature: number; weights: Record<string, number[]> }
}

/**
 * The committed file: the same numbers as a ModelArtefact, one row per feature,
 * [name, unwanted weight, ...wanted weights], sorted by name. Arrays parse about twice as fast as
 * objects with tens of thousands of keys, and need no lookups by name while loading.
 */
export interface ModelFile {
  format: typeof MODEL_FORMAT
  version: number
  trainedOn: Record<string, number>
  unwanted: { bias: number; platt: [number, number] }
  wanted: { classes: WantedCategory[]; bias: number[]; temperature: number }
  features: [string, number, ...number[]][]
}

export interface Model {
  /** What the model was trained on (counts only, from the file). */
  trainedOn: Record<string, number>
  /**
   * Open-addressing table of SLOT_WORDS 32-bit words per slot, so that a feature's hash, its row
   * and its weights share one cache line (predict is bound by memory reads, not arithmetic):
   * [hash, row (-1: empty), unwanted weight, ...wanted weights, unused], viewed as integers in
   * `table` and as float32 weights in `tableWeights` (the same memory).
   */
  table: Int32Array
  tableWeights: Float32Array
  /** (slots - 1) << SLOT_SHIFT: masks a hash shifted to its slot's first word. */
  slotMask: number
  /** 2^18-bit filter of the known hashes: most words of a message are unknown and stop here. */
  filter: Uint32Array
  /** Feature names by row, for reasons. */
  names: string[]
  unwantedBias: number
  platt: [number, number]
  wantedBias: Float64Array
  temperature: number
}

const STRIDE = 1 + WANTED_CATEGORIES.length
if (STRIDE !== 5) throw new Error('predict keeps one accumulator per wanted kind: update it with WANTED_CATEGORIES')
/** Words per table slot: hash, row and STRIDE weights, rounded up to 32 bytes (half a cache line). */
const SLOT_WORDS = 8
const SLOT_SHIFT = 3
/**
 * Contributions (in raw log-odds) smaller than this are never cited in a reason, so predict does
 * not keep them in its top lists (keeping every contribution costs half of predict's time).
 */
export const MIN_EXPLAINED = 0.15
const FILTER_MASK = (1 << 18) - 1
const FILTER_WORDS = (1 << 18) / 32

export interface Prediction {
  /** Calibrated probability that the message is unwanted. */
  pUnwanted: number
  /** Calibrated log-odds of unwanted (before any strictness offset). */
  logit: number
  /** Distribution over WANTED_CATEGORIES, given the message is wanted. */
  wanted: number[]
  /** Features that pushed most towards / away from unwanted (at least MIN_EXPLAINED), strongest first. */
  towardsUnwanted: { name: string; weight: number }[]
  awayFromUnwanted: { name: string; weight: number }[]
}

export class ModelFormatError extends Error {
  override name = 'ModelFormatError'
}

/** Builds a ready-to-use model from an already-parsed model file (the caller does the file I/O). */
export function loadModel(json: unknown): Model {
  const a = json as Partial<ModelFile> | null
  if (!a || a.format !== MODEL_FORMAT) throw new ModelFormatError('Not an Inbox Guard classifier model.')
  if (a.version !== MODEL_VERSION) {
    throw new ModelFormatError(`Model version ${String(a.version)} is not supported (expected ${MODEL_VERSION}); run npm run train.`)
  }
  if (!a.unwanted || !a.wanted || !Array.isArray(a.features)) throw new ModelFormatError('The model file is incomplete.')
  const rows = a.features
  const names = new Array<string>(rows.length)
  let size = 1024
  while (size < rows.length * 2) size *= 2
  const table = new Int32Array(size * SLOT_WORDS)
  const tableWeights = new Float32Array(table.buffer)
  for (let i = 1; i < table.length; i += SLOT_WORDS) table[i] = -1
  const slotMask = (size - 1) << SLOT_SHIFT
  const filter = new Uint32Array(FILTER_WORDS)
  for (let row = 0; row < rows.length; row++) {
    const r = rows[row] as [string, ...number[]]
    const name = r[0]
    names[row] = name
    const h = featureHash(name)
    const bit = h & FILTER_MASK
    filter[bit >>> 5] = (filter[bit >>> 5] as number) | (1 << (bit & 31))
    let b = (h << SLOT_SHIFT) & slotMask
    while (table[b + 1] !== -1 && table[b] !== h) b = (b + SLOT_WORDS) & slotMask
    if (table[b + 1] !== -1) continue // 32-bit hash collision between two names: the first one wins
    table[b] = h
    table[b + 1] = row
    for (let c = 0; c < STRIDE; c++) tableWeights[b + 2 + c] = (r[c + 1] as number | undefined) ?? 0
  }
  return {
    trainedOn: a.trainedOn ?? {},
    table,
    tableWeights,
    slotMask,
    filter,
    names,
    unwantedBias: a.unwanted.bias,
    platt: a.unwanted.platt,
    wantedBias: Float64Array.from(a.wanted.bias),
    temperature: a.wanted.temperature,
  }
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z))
  const e = Math.exp(z)
  return e / (1 + e)
}

function softmax(z: Float64Array | number[], temperature = 1): number[] {
  let max = -Infinity
  for (const v of z) if (v > max) max = v
  const out = new Array<number>(z.length)
  let sum = 0
  for (let i = 0; i < z.length; i++) {
    const e = Math.exp(((z[i] as number) - max) / temperature)
    out[i] = e
    sum += e
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum
  return out
}

/** How many contributions each direction of a Prediction lists. */
const TOP_CONTRIBUTIONS = 8

/**
 * The strongest contributions of one direction, as a small list sorted by weight (descending; equal
 * weights in the order they came), in preallocated arrays: predict offers a score for every
 * contribution that could be cited, so this must not allocate.
 */
class TopList {
  rows = new Int32Array(TOP_CONTRIBUTIONS)
  weights = new Float64Array(TOP_CONTRIBUTIONS)
  length = 0
  offer(row: number, weight: number): void {
    const max = TOP_CONTRIBUTIONS
    if (this.length === max && weight <= (this.weights[max - 1] as number)) return
    let i = this.length < max ? this.length : max - 1
    while (i > 0 && (this.weights[i - 1] as number) < weight) {
      this.rows[i] = this.rows[i - 1] as number
      this.weights[i] = this.weights[i - 1] as number
      i--
    }
    this.rows[i] = row
    this.weights[i] = weight
    if (this.length < max) this.length++
  }
  toList(names: string[], sign: number): { name: string; weight: number }[] {
    const out = new Array<{ name: string; weight: number }>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = { name: names[this.rows[i] as number] as string, weight: sign * (this.weights[i] as number) }
    return out
  }
}
const TOP = new TopList()
const BOTTOM = new TopList()

export function predict(model: Model, fv: FeatureVector, explain = false): Prediction {
  let raw = model.unwantedBias
  // One accumulator per wanted kind (there are four: WANTED_CATEGORIES), kept in registers.
  let z0 = model.wantedBias[0] as number
  let z1 = model.wantedBias[1] as number
  let z2 = model.wantedBias[2] as number
  let z3 = model.wantedBias[3] as number
  const { hashes, wordCount, wordValue } = fv
  const { table, tableWeights: weights, slotMask, filter } = model
  const top = TOP
  const bottom = BOTTOM
  top.length = 0
  bottom.length = 0
  for (let i = 0; i < hashes.length; i++) {
    const h = hashes[i] as number
    const bit = h & FILTER_MASK
    if ((((filter[bit >>> 5] as number) >>> (bit & 31)) & 1) === 0) continue
    let b = (h << SLOT_SHIFT) & slotMask
    let row = table[b + 1] as number
    while (row !== -1 && table[b] !== h) {
      b = (b + SLOT_WORDS) & slotMask
      row = table[b + 1] as number
    }
    if (row === -1) continue
    const v = i < wordCount ? wordValue : 1
    const wu = (weights[b + 2] as number) * v
    raw += wu
    z0 += (weights[b + 3] as number) * v
    z1 += (weights[b + 4] as number) * v
    z2 += (weights[b + 5] as number) * v
    z3 += (weights[b + 6] as number) * v
    if (explain) {
      if (wu >= MIN_EXPLAINED) top.offer(row, wu)
      else if (wu <= -MIN_EXPLAINED) bottom.offer(row, -wu)
    }
  }
  const logit = model.platt[0] * raw + model.platt[1]
  return {
    pUnwanted: sigmoid(logit),
    logit,
    wanted: softmax([z0, z1, z2, z3], model.temperature),
    towardsUnwanted: top.toList(model.names, 1),
    awayFromUnwanted: bottom.toList(model.names, -1),
  }
}

// ---------------------------------------------------------------------------------------------
// Training

export interface TrainingExample {
  features: FeatureVector
  label: Category
  /** Importance of this example (own corpus counts more than 2002 mail). */
  weight: number
  /** Importance in the second stage; 0 leaves the example out of it. Defaults to weight. */
  wantedWeight?: number
}

export interface TrainOptions {
  epochs: number
  /** The unwanted stage is the average of this many models trained in different seeded orders. */
  restarts: number
  learningRate: number
  l2: number
  /** L2 for word features, which are many and sparse (header/structure features use l2). */
  l2Words: number
  minDocFreq: number
  seed: number
  folds: number
  /** Weights below this magnitude are dropped from the artefact. */
  pruneBelow: number
  /** At most this many features per stage are kept (strongest first), to keep the artefact small. */
  maxFeatures: number
  /**
   * Upper bound on the unwanted-stage weight of everyday word features (isEverydayFeature:
   * greetings, sign-offs, politeness and the commonest verbs of the corpus languages, alone or with
   * function words and numbers): they may argue for wanted mail but not for unwanted. Infinity
   * disables the cap.
   */
  everydayCap: number
  trainedOn: Record<string, number>
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 12,
  restarts: 4,
  learningRate: 0.2,
  l2: 3e-4,
  l2Words: 1e-3,
  minDocFreq: 4,
  seed: 20021,
  folds: 5,
  pruneBelow: 0.01,
  maxFeatures: 24_000,
  everydayCap: 0,
  trainedOn: {},
}

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function shuffled(n: number, random: () => number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = idx[i] as number
    idx[i] = idx[j] as number
    idx[j] = t
  }
  return idx
}

interface Encoded {
  idx: Int32Array
  val: Float64Array
}

function encode(examples: TrainingExample[], vocab: Map<string, number>): Encoded[] {
  return examples.map((e) => {
    const idx: number[] = []
    const val: number[] = []
    const seen = new Set<number>()
    const names = e.features.names ?? []
    for (let i = 0; i < names.length; i++) {
      const j = vocab.get(names[i] as string)
      if (j === undefined || seen.has(j)) continue
      seen.add(j)
      idx.push(j)
      val.push(featureValue(e.features, i))
    }
    return { idx: Int32Array.from(idx), val: Float64Array.from(val) }
  })
}

function trainBinary(
  data: Encoded[],
  y: number[],
  weights: number[],
  dim: number,
  o: TrainOptions,
  l2: Float64Array,
  upper: Float64Array,
  seed = o.seed,
): { w: Float64Array; b: number } {
  const w = new Float64Array(dim)
  const g2 = new Float64Array(dim).fill(1e-8)
  let b = 0
  let gb2 = 1e-8
  const random = rng(seed)
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const n of shuffled(data.length, random)) {
      const d = data[n] as Encoded
      const sw = weights[n] as number
      if (sw <= 0) continue
      let z = b
      for (let i = 0; i < d.idx.length; i++) z += (w[d.idx[i] as number] as number) * (d.val[i] as number)
      const g = (sigmoid(z) - (y[n] as number)) * sw
      for (let i = 0; i < d.idx.length; i++) {
        const j = d.idx[i] as number
        const gj = g * (d.val[i] as number) + (l2[j] as number) * (w[j] as number)
        g2[j] = (g2[j] as number) + gj * gj
        w[j] = Math.min(upper[j] as number, (w[j] as number) - (o.learningRate * gj) / Math.sqrt(g2[j] as number))
      }
      gb2 += g * g
      b -= (o.learningRate * g) / Math.sqrt(gb2)
    }
  }
  return { w, b }
}

function trainSoftmax(
  data: Encoded[],
  y: number[],
  weights: number[],
  dim: number,
  k: number,
  o: TrainOptions,
  l2: Float64Array,
): { w: Float64Array; b: Float64Array } {
  const w = new Float64Array(dim * k)
  const g2 = new Float64Array(dim * k).fill(1e-8)
  const b = new Float64Array(k)
  const gb2 = new Float64Array(k).fill(1e-8)
  const random = rng(o.seed + 1)
  const z = new Float64Array(k)
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const n of shuffled(data.length, random)) {
      const d = data[n] as Encoded
      const sw = weights[n] as number
      if (sw <= 0) continue
      z.set(b)
      for (let i = 0; i < d.idx.length; i++) {
        const base = (d.idx[i] as number) * k
        const v = d.val[i] as number
        for (let c = 0; c < k; c++) z[c] = (z[c] as number) + (w[base + c] as number) * v
      }
      const p = softmax(z)
      for (let c = 0; c < k; c++) {
        const g = ((p[c] as number) - (c === y[n] ? 1 : 0)) * sw
        for (let i = 0; i < d.idx.length; i++) {
          const j = (d.idx[i] as number) * k + c
          const gj = g * (d.val[i] as number) + (l2[d.idx[i] as number] as number) * (w[j] as number)
          g2[j] = (g2[j] as number) + gj * gj
          w[j] = (w[j] as number) - (o.learningRate * gj) / Math.sqrt(g2[j] as number)
        }
        gb2[c] = (gb2[c] as number) + g * g
        b[c] = (b[c] as number) - (o.learningRate * g) / Math.sqrt(gb2[c] as number)
      }
    }
  }
  return { w, b }
}

/**
 * The average of `o.restarts` unwanted-stage models trained in different (seeded) orders: with a
 * few hundred hard modern examples the result of one pass order swings by several borderline
 * messages; the average (still one linear model) does not.
 */
function trainBinaryAveraged(data: Encoded[], y: number[], weights: number[], dim: number, o: TrainOptions, l2: Float64Array, upper: Float64Array): { w: Float64Array; b: number } {
  const n = Math.max(1, o.restarts)
  const w = new Float64Array(dim)
  let b = 0
  for (let r = 0; r < n; r++) {
    const m = trainBinary(data, y, weights, dim, o, l2, upper, o.seed + 7919 * r)
    for (let j = 0; j < dim; j++) w[j] = (w[j] as number) + (m.w[j] as number) / n
    b += m.b / n
  }
  return { w, b }
}

function dot(d: Encoded, w: Float64Array, b: number): number {
  let z = b
  for (let i = 0; i < d.idx.length; i++) z += (w[d.idx[i] as number] as number) * (d.val[i] as number)
  return z
}

/** Fits p = sigmoid(a·s + c) to out-of-fold scores by weighted gradient descent (Platt scaling). */
function fitPlatt(scores: number[], y: number[], weights: number[]): [number, number] {
  let a = 1
  let c = 0
  for (let it = 0; it < 3000; it++) {
    let ga = 0
    let gc = 0
    let wsum = 0
    for (let i = 0; i < scores.length; i++) {
      const sw = weights[i] as number
      if (sw <= 0) continue
      const s = scores[i] as number
      const g = (sigmoid(a * s + c) - (y[i] as number)) * sw
      ga += g * s
      gc += g
      wsum += sw
    }
    a -= (0.5 * ga) / wsum
    c -= (0.5 * gc) / wsum
  }
  return [a, c]
}

function fitTemperature(logits: Float64Array[], y: number[], weights: number[]): number {
  let best = 1
  let bestLoss = Infinity
  for (let t = 0.5; t <= 4.0001; t += 0.05) {
    let loss = 0
    for (let i = 0; i < logits.length; i++) {
      const sw = weights[i] as number
      if (sw <= 0) continue
      const p = softmax(logits[i] as Float64Array, t)
      loss -= sw * Math.log(Math.max(1e-12, p[y[i] as number] as number))
    }
    if (loss < bestLoss - 1e-9) {
      bestLoss = loss
      best = t
    }
  }
  return Math.round(best * 100) / 100
}

const round = (x: number, digits = 4) => {
  const f = 10 ** digits
  const r = Math.round(x * f) / f
  return r === 0 ? 0 : r
}

export function buildVocabulary(examples: TrainingExample[], minDocFreq: number): Map<string, number> {
  const df = new Map<string, number>()
  for (const e of examples) {
    const seen = new Set(e.features.names ?? [])
    for (const n of seen) df.set(n, (df.get(n) ?? 0) + 1)
  }
  const names = [...df.entries()].filter(([, c]) => c >= minDocFreq).map(([n]) => n)
  names.sort()
  return new Map(names.map((n, i) => [n, i]))
}

export function trainModel(examples: TrainingExample[], options: Partial<TrainOptions> = {}): ModelArtefact {
  const o: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...options }
  const vocab = buildVocabulary(examples, o.minDocFreq)
  const dim = vocab.size
  const data = encode(examples, vocab)
  const l2 = new Float64Array(dim)
  for (const [name, j] of vocab) l2[j] = STRUCTURAL.test(name) ? o.l2 : o.l2Words
  // Everyday words learnt as "spam" from 2002 mail (team, see, offer, would, …) cannot push towards unwanted.
  const upper = new Float64Array(dim).fill(Infinity)
  for (const [name, j] of vocab) if (!STRUCTURAL.test(name) && isEverydayFeature(name)) upper[j] = o.everydayCap
  const yU = examples.map((e) => (e.label === 'unwanted' ? 1 : 0))
  const wU = examples.map((e) => e.weight)
  const k = WANTED_CATEGORIES.length
  const yW = examples.map((e) => (e.label === 'unwanted' ? -1 : WANTED_CATEGORIES.indexOf(e.label as WantedCategory)))
  const wW = examples.map((e, i) => (yW[i] === -1 ? 0 : (e.wantedWeight ?? e.weight)))

  // Out-of-fold scores for calibration: each example is scored by a model that never saw it.
  const oofScores = new Array<number>(examples.length).fill(0)
  const oofLogits: Float64Array[] = examples.map(() => new Float64Array(k))
  if (o.folds > 1) {
    for (let f = 0; f < o.folds; f++) {
      const trainW = wU.map((w, i) => (i % o.folds === f ? 0 : w))
      const m = trainBinaryAveraged(data, yU, trainW, dim, o, l2, upper)
      const trainWW = wW.map((w, i) => (i % o.folds === f ? 0 : w))
      const s = trainSoftmax(data, yW, trainWW, dim, k, o, l2)
      for (let i = f; i < examples.length; i += o.folds) {
        const d = data[i] as Encoded
        oofScores[i] = dot(d, m.w, m.b)
        const z = Float64Array.from(s.b)
        for (let t = 0; t < d.idx.length; t++) {
          const base = (d.idx[t] as number) * k
          for (let c = 0; c < k; c++) z[c] = (z[c] as number) + (s.w[base + c] as number) * (d.val[t] as number)
        }
        oofLogits[i] = z
      }
    }
  }
  const platt = o.folds > 1 ? fitPlatt(oofScores, yU, wU) : ([1, 0] as [number, number])
  const temperature = o.folds > 1 ? fitTemperature(oofLogits, yW, wW) : 1

  const m = trainBinaryAveraged(data, yU, wU, dim, o, l2, upper)
  const s = trainSoftmax(data, yW, wW, dim, k, o, l2)
  const names = [...vocab.keys()]
  const unwantedWeights: Record<string, number> = {}
  const wantedWeights: Record<string, number[]> = {}
  for (let j = 0; j < dim; j++) {
    const name = names[j] as string
    const w = round(m.w[j] as number)
    if (Math.abs(w) >= o.pruneBelow) unwantedWeights[name] = w
    const ws: number[] = []
    let keep = false
    for (let c = 0; c < k; c++) {
      const v = round(s.w[j * k + c] as number)
      ws.push(v)
      if (Math.abs(v) >= o.pruneBelow) keep = true
    }
    if (keep) wantedWeights[name] = ws
  }
  capFeatures(unwantedWeights, (w) => Math.abs(w), o.maxFeatures)
  capFeatures(wantedWeights, (ws) => Math.max(...ws.map(Math.abs)), o.maxFeatures)
  return {
    format: MODEL_FORMAT,
    trainedOn: o.trainedOn,
    unwanted: { bias: round(m.b), platt: [round(platt[0]), round(platt[1])], weights: unwantedWeights },
    wanted: { classes: [...WANTED_CATEGORIES], bias: Array.from(s.b, (v) => round(v)), temperature, weights: wantedWeights },
  }
}

/** Header/structure features (value 1) are always kept; the cap only trims word features. */
const STRUCTURAL = /^(h|from|reply|subj|body|tx|out|in|to|cc|links|len):/

function capFeatures<T>(weights: Record<string, T>, size: (w: T) => number, max: number): void {
  const keys = Object.keys(weights).filter((k) => !STRUCTURAL.test(k))
  if (keys.length <= max) return
  keys.sort((a, b) => size(weights[b] as T) - size(weights[a] as T) || (a < b ? -1 : 1))
  for (const k of keys.slice(max)) delete weights[k]
}

/**
 * Writes a trained model as a ModelFile: one line per feature, sorted by name, so the diff after a
 * retraining shows every weight that moved. Deterministic: the same artefact gives the same bytes.
 */
export function serialiseModel(a: ModelArtefact): string {
  const names = [...new Set([...Object.keys(a.unwanted.weights), ...Object.keys(a.wanted.weights)])].sort()
  const zeros = a.wanted.classes.map(() => 0)
  const lines: string[] = []
  lines.push('{')
  lines.push(`"format": ${JSON.stringify(a.format)},`)
  lines.push(`"version": ${MODEL_VERSION},`)
  lines.push(`"trainedOn": ${JSON.stringify(sortKeys(a.trainedOn))},`)
  lines.push(`"unwanted": {"bias": ${a.unwanted.bias}, "platt": ${JSON.stringify(a.unwanted.platt)}},`)
  lines.push(`"wanted": {"classes": ${JSON.stringify(a.wanted.classes)}, "bias": ${JSON.stringify(a.wanted.bias)}, "temperature": ${a.wanted.temperature}},`)
  lines.push('"features": [')
  names.forEach((name, i) => {
    const row = [name, a.unwanted.weights[name] ?? 0, ...(a.wanted.weights[name] ?? zeros)]
    lines.push(JSON.stringify(row) + (i < names.length - 1 ? ',' : ''))
  })
  lines.push(']')
  lines.push('}')
  return lines.join('\n') + '\n'
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const k of Object.keys(o).sort()) out[k] = o[k] as number
  return out
}
