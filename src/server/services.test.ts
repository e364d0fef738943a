import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRawMessage } from '#classifier/message.ts'
import { startLlmFake, type LlmFake } from '#fakes/llm/server.ts'
import { loadConfig } from '#server/config.ts'
import { createCircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import { createTestDatabase, type TestDatabase } from '#server/test/databases.ts'
import { llmJudge } from './services.ts'

describe('the optional LLM behind the persisted openai_classification breaker', () => {
  let fake: LlmFake
  let database: TestDatabase
  beforeAll(async () => {
    fake = await startLlmFake({ apiKey: 'test-key' })
    database = await createTestDatabase('pglite')
  })
  afterAll(async () => {
    await fake?.close()
    await database?.destroy()
  })

  const message = parseRawMessage('From: Sam <sam@vendor.example>\r\nTo: me@example.com\r\nSubject: Partnership\r\n\r\nCould we book a quick call about a partnership?')

  it('answers while healthy, opens after failures that affect everyone (the model decides alone), and closes on a good answer', async () => {
    const config = loadConfig({ LLM_BASE_URL: fake.baseURL, LLM_API_KEY: 'test-key', LLM_MODEL: 'fake-model' })
    const breakers = createCircuitBreakers(database.handle.db, { threshold: 2, coolDownMs: 200 })
    const judge = llmJudge(config, breakers, { info: () => {}, warn: () => {} })!
    expect(await judge.judge(message)).toMatchObject({ category: expect.any(String) })

    fake.injectFault({ kind: 'status', status: 500, times: 2 })
    expect(await judge.judge(message)).toBeNull()
    expect(await judge.judge(message)).toBeNull()
    expect((await breakers.state('openai_classification')).open).toBe(true)
    const calls = fake.journal.length
    // While open, no call goes out.
    expect(await judge.judge(message)).toBeNull()
    expect(fake.journal.length).toBe(calls)
    expect((await breakers.list()).find((b) => b.serviceName === 'openai_classification')).toMatchObject({ isHealthy: false, failureCount: 2 })

    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(await judge.judge(message)).toMatchObject({ category: expect.any(String) })
    expect((await breakers.list()).find((b) => b.serviceName === 'openai_classification')).toMatchObject({ isHealthy: true, failureCount: 0, circuitOpenUntil: null })
  })

  it('is not used when no LLM is configured', () => {
    const breakers = createCircuitBreakers(database.handle.db)
    expect(llmJudge(loadConfig({}), breakers, { info: () => {}, warn: () => {} })).toBeUndefined()
  })
})
