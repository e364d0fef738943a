import { parseRawMessage } from '#classifier/message.ts'
import { classify } from '#classifier/classify.ts'
import { emptyContext } from '#classifier/types.ts'
import type { Category } from '#classifier/types.ts'
import { loadModel, serialiseModel, trainModel } from '#classifier/model.ts'
import type { Model } from '#classifier/model.ts'
import { isSpam, isSpamAssassinTest, loadCorpus, loadSpamAssassin } from './lib/corpus.ts'
import type { CorpusMessage } from './lib/corpus.ts'
import { buildTrainingSet } from './lib/training-set.ts'
const cfgs = JSON.parse(process.argv[2] ?? '[{}]') as Record<string, number>[]
const doCv = process.argv.includes('--cv')
const showMiss = process.argv.includes('--miss')
const sa = loadSpamAssassin().filter(isSpamAssassinTest).map((i) => ({ m: parseRawMessage(i.text), spam: isSpam(i), hard: i.group.startsWith('hard') }))
const held = loadCorpus('heldout')
function score(model: Model, items: CorpusMessage[], tag: string) {
  let tp = 0, fp = 0, fn = 0, ok = 0, opt = 0, optN = 0
  for (const c of items) {
    const d = classify(c.message, c.context, model)
    if (d.category === c.label) ok++
    else if (showMiss && (d.category === 'unwanted' || c.label === 'unwanted')) console.log(`   ${tag} ${c.file.split('/').slice(-2).join('/')} → ${d.category} ${d.confidence}`)
    const u = d.category === 'unwanted', t = c.label === 'unwanted'
    if (u && t) tp++; else if (u) fp++; else if (t) fn++
    if (c.label === 'informational' || c.label === 'promotional') { optN++; if (u) opt++ }
  }
  return `P ${(tp / (tp + fp)).toFixed(3)} R ${(tp / (tp + fn)).toFixed(3)} acc ${(ok / items.length).toFixed(3)} optin ${opt}/${optN}`
}
for (const cfg of cfgs) {
  const { examples, corpus, corpusStart } = buildTrainingSet(() => {}, cfg.cw ?? 4, cfg.saw ?? 0.25)
  const model = loadModel(JSON.parse(serialiseModel(trainModel(examples, cfg))))
  const ctx = emptyContext()
  let tp = 0, fp = 0, fn = 0, hard = 0, hardN = 0
  for (const x of sa) {
    const u = classify(x.m, ctx, model).category === 'unwanted'
    if (u && x.spam) tp++; else if (u) fp++; else if (x.spam) fn++
    if (x.hard) { hardN++; if (u) hard++ }
  }
  const f1 = (2 * tp) / (2 * tp + fp + fn)
  let cv = ''
  if (doCv) {
    const all: CorpusMessage[] = []
    const preds: { c: CorpusMessage; cat: Category }[] = []
    for (let f = 0; f < 4; f++) {
      const ex = examples.filter((_, i) => i < corpusStart || (i - corpusStart) % 4 !== f)
      const m = loadModel(JSON.parse(serialiseModel(trainModel(ex, { ...cfg, folds: 1 }))))
      for (let i = f; i < corpus.length; i += 4) { all.push(corpus[i]!); const d = classify(corpus[i]!.message, corpus[i]!.context, m); preds.push({ c: corpus[i]!, cat: d.category }); if (showMiss && (d.category === 'unwanted') !== (corpus[i]!.label === 'unwanted')) console.log('   CV', corpus[i]!.file.split('/').slice(-2).join('/'), '→', d.category, d.confidence, d.reasons.slice(0, 2).join(' | ').slice(0, 200)) }
    }
    let a = 0, b = 0, c2 = 0, ok = 0
    for (const p of preds) { const u = p.cat === 'unwanted', t = p.c.label === 'unwanted'; if (u && t) a++; else if (u) b++; else if (t) c2++; if (p.cat === p.c.label) ok++ }
    cv = ` | CV P ${(a / (a + b)).toFixed(3)} R ${(a / (a + c2)).toFixed(3)} acc ${(ok / preds.length).toFixed(3)}`
  }
  console.log(JSON.stringify(cfg), `SA F1 ${f1.toFixed(3)} hard ${hard}/${hardN} | held ${score(model, held, 'H')}${cv}`)
}
