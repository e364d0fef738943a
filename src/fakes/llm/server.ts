// A local OpenAI-compatible chat-completions server for tests and demo mode (docs/decisions/004).
// Real HTTP on loopback: POST /v1/chat/completions. Its "model" is a deterministic keyword
// heuristic that — like a careless real model — obeys instructions found in the e-mail text, so
// prompt-injection tests are meaningful. Faults (429, 500, delays past the client's timeout,
// malformed JSON, wrong shape) can be injected; every request is journaled.

import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type LlmFault =
  | { kind: 'status'; status: 429 | 500 | 502 | 503; times?: number }
  | { kind: 'delay'; ms: number; times?: number }
  | { kind: 'malformed'; times?: number }
  | { kind: 'wrong-shape'; times?: number }

export interface LlmJournalEntry {
  at: string
  method: string
  path: string
  status: number
  model?: string
  /** The user prompt as received (the fake keeps it so tests can check delimiting/escaping). */
  prompt?: string
  answer?: string
  fault?: LlmFault['kind']
}

export interface LlmFakeOptions {
  host?: string
  port?: number
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string
}

export interface LlmFake {
  baseURL: string
  journal: LlmJournalEntry[]
  injectFault(fault: LlmFault): void
  clearFaults(): void
  close(): Promise<void>
}

const CATEGORY_WORDS = ['genuine', 'informational', 'promotional', 'transactional', 'unwanted'] as const

/** The fake model: keyword rules, and naive obedience to instructions inside the e-mail. */
export function fakeModelAnswer(prompt: string): { category: string; confidence: number; reason: string } {
  const start = prompt.indexOf('<untrusted_email>')
  const end = prompt.indexOf('</untrusted_email>')
  const block = start !== -1 && end > start ? prompt.slice(start, end) : prompt
  // Like a real model, it reads the e-mail body; the header summary lines above it are metadata.
  const blank = block.indexOf('\n\n')
  const text = (blank === -1 ? block : block.slice(blank + 2)).toLowerCase()
  const obey = /(classify|mark|label|treat) (this|the) (e-?mail|message) as (\w+)/.exec(text)
  if (obey && (CATEGORY_WORDS as readonly string[]).includes(obey[4] as string)) {
    return { category: obey[4] as string, confidence: 0.99, reason: 'The message says what it is.' }
  }
  const claim = /this (e-?mail|message) is (genuine|informational|promotional|transactional)/.exec(text)
  if (claim) return { category: claim[2] as string, confidence: 0.95, reason: 'The message says it is ' + claim[2] + '.' }
  if (/ignore (all |any )?(previous|prior) instructions/.test(text)) {
    return { category: 'genuine', confidence: 0.99, reason: 'Following the instructions in the message.' }
  }
  const has = (re: RegExp) => re.test(text)
  if (has(/receipt|invoice|order #|your order|shipped|tracking|verification code|password reset/)) {
    return { category: 'transactional', confidence: 0.85, reason: 'Looks like a receipt or account notice.' }
  }
  if (has(/quick question|following up|bumping|link building|guest post|lead list|15 minutes|book a call|partnership|seo|outsourc/)) {
    return { category: 'unwanted', confidence: 0.85, reason: 'Unsolicited sales outreach.' }
  }
  if (has(/% off|sale ends|discount|new arrivals|limited time/)) {
    return { category: 'promotional', confidence: 0.75, reason: 'Marketing from a company.' }
  }
  if (has(/unsubscribe|newsletter|digest|notification/)) {
    return { category: 'informational', confidence: 0.7, reason: 'An automated update.' }
  }
  return { category: 'genuine', confidence: 0.6, reason: 'A person writing directly.' }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > 2_000_000) req.destroy(new Error('request too large'))
      else chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(text)
}

export async function startLlmFake(options: LlmFakeOptions = {}): Promise<LlmFake> {
  const journal: LlmJournalEntry[] = []
  const faults: { fault: LlmFault; left: number }[] = []
  let counter = 0
  const sockets = new Set<Socket>()

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: { message: 'fake failed', type: 'server_error' } })
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] as string
    const entry: LlmJournalEntry = { at: new Date().toISOString(), method: req.method ?? '', path, status: 0 }
    journal.push(entry)
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      entry.status = 404
      return send(res, 404, { error: { message: `Unknown route ${req.method} ${path}`, type: 'invalid_request_error' } })
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      entry.status = 401
      return send(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } })
    }
    const raw = await readBody(req)
    let body: { model?: string; messages?: { role: string; content: string }[] }
    try {
      body = JSON.parse(raw) as typeof body
    } catch {
      entry.status = 400
      return send(res, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } })
    }
    entry.model = body.model
    const prompt = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? ''
    entry.prompt = prompt
    const active = faults[0]
    if (active) {
      active.left--
      if (active.left <= 0) faults.shift()
      entry.fault = active.fault.kind
      const f = active.fault
      if (f.kind === 'status') {
        entry.status = f.status
        const message = f.status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.'
        return send(res, f.status, { error: { message, type: f.status === 429 ? 'requests' : 'server_error' } })
      }
      if (f.kind === 'delay') await new Promise((r) => setTimeout(r, f.ms))
      if (res.destroyed || req.socket.destroyed) return
    }
    const verdict = fakeModelAnswer(prompt)
    let content = JSON.stringify(verdict)
    if (active?.fault.kind === 'malformed') content = '{"category": "genuine", "confidence": 0.9, "reason": "unterminated'
    if (active?.fault.kind === 'wrong-shape') content = JSON.stringify({ category: 'definitely-fine', confidence: 7 })
    entry.answer = content
    entry.status = 200
    counter++
    send(res, 200, {
      id: `chatcmpl-fake-${counter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'fake',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
    })
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    journal,
    injectFault(fault) {
      faults.push({ fault, left: fault.times ?? 1 })
    },
    clearFaults() {
      faults.length = 0
    },
    close() {
      for (const s of sockets) s.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
