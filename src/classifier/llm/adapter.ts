// Optional LLM review of uncertain messages through any OpenAI-compatible endpoint. Output is
// validated with zod; timeouts, HTTP errors and invalid output count as failures of the
// `openai_classification` circuit breaker, and every failure falls back to the local model
// (judge() resolves to null). Configuration is passed in; this module never reads the environment.

import OpenAI from 'openai'
import { z } from 'zod'
import { CATEGORIES } from '../types.ts'
import type { LlmJudge, LlmVerdict } from '../classify.ts'
import type { NormalisedMessage } from '../message.ts'
import { CircuitBreaker } from './breaker.ts'
import type { BreakerOptions } from './breaker.ts'
import { buildUserPrompt, SYSTEM_PROMPT } from './prompt.ts'

export const BREAKER_NAME = 'openai_classification'

export const LlmConfigSchema = z.object({
  baseURL: z.string().url(),
  apiKey: z.string().min(1),
  model: z.string().min(1),
  timeoutMs: z.number().int().positive().default(8000),
  /** Providers without JSON-schema support can use 'json_object' (the answer is validated by zod either way). */
  structuredOutput: z.enum(['json_schema', 'json_object']).default('json_schema'),
})
export type LlmConfig = z.input<typeof LlmConfigSchema>

export const LlmVerdictSchema = z.object({
  category: z.enum(CATEGORIES),
  confidence: z.number().min(0).max(1),
  reason: z.string().min(1).max(500),
})

const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'confidence', 'reason'],
  properties: {
    category: { type: 'string', enum: [...CATEGORIES] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    reason: { type: 'string' },
  },
} as const

export interface LlmJudgeOptions {
  config: LlmConfig
  /** Inject a client (tests, custom fetch); otherwise one is built from config. */
  client?: OpenAI
  breaker?: Partial<Omit<BreakerOptions, 'name'>>
  /** Called for every failure (logging); the classifier falls back to the local model. */
  onError?: (err: unknown) => void
}

export class InvalidLlmOutputError extends Error {
  override name = 'InvalidLlmOutputError'
}

export interface OpenAiJudge extends LlmJudge {
  breaker: CircuitBreaker
}

export function createOpenAiJudge(options: LlmJudgeOptions): OpenAiJudge {
  const config = LlmConfigSchema.parse(options.config)
  const client =
    options.client ?? new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 })
  const breaker = new CircuitBreaker({
    failureThreshold: 5,
    resetAfterMs: 60_000,
    ...options.breaker,
    name: BREAKER_NAME,
  })

  async function call(message: NormalisedMessage): Promise<LlmVerdict> {
    const completion = await client.chat.completions.create(
      {
        model: config.model,
        temperature: 0,
        max_tokens: 200,
        response_format:
          config.structuredOutput === 'json_object'
            ? { type: 'json_object' }
            : { type: 'json_schema', json_schema: { name: 'mail_classification', strict: true, schema: JSON_SCHEMA } },
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: buildUserPrompt(message) },
        ],
      },
      { timeout: config.timeoutMs, maxRetries: 0 },
    )
    const content = completion.choices[0]?.message?.content ?? ''
    let parsed: unknown
    try {
      parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''))
    } catch {
      throw new InvalidLlmOutputError('The LLM answer is not JSON')
    }
    const result = LlmVerdictSchema.safeParse(parsed)
    if (!result.success) throw new InvalidLlmOutputError('The LLM answer does not match the expected shape')
    return result.data
  }

  return {
    breaker,
    async judge(message) {
      try {
        return await breaker.run(() => call(message))
      } catch (err) {
        options.onError?.(err)
        return null
      }
    },
  }
}
