import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { DomainEntry, DomainListKind } from '#shared/api/domain-lists.ts'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { DomainListCard } from './domain-list-card.tsx'

type Reply = { status?: number; body?: unknown }

/** A list endpoint that keeps its entries like the server; `addReply`/`removeReply` override the answers. */
function mockList(kind: DomainListKind, initial: string[] = [], overrides: { add?: Reply; remove?: Reply; list?: Reply } = {}) {
  let nextId = 1
  let entries: DomainEntry[] = initial.map((domain) => ({ id: nextId++, domain }))
  const api = mockApi({
    [`GET /_api/${kind}`]: () => overrides.list ?? { body: entries },
    [`POST /_api/${kind}`]: (body) => {
      if (overrides.add) return overrides.add
      const entry = { id: nextId++, domain: (body as { domain: string }).domain }
      entries = [...entries, entry]
      return { body: entry }
    },
    [`POST /_api/${kind}/domain`]: (body) => {
      if (overrides.remove) return overrides.remove
      const { domain } = body as { domain: string }
      entries = entries.filter((entry) => entry.domain !== domain)
      return { body: { success: true, domain } }
    },
  })
  return api
}

const adds = (calls: RecordedCall[], kind: DomainListKind) => calls.filter((call) => call.method === 'POST' && call.path === `/_api/${kind}`)

function renderCard(kind: DomainListKind = 'whitelist', { fakeTimers = false } = {}) {
  if (fakeTimers) vi.useFakeTimers({ shouldAdvanceTime: true })
  return renderPage(<DomainListCard kind={kind} />, { userOptions: fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {} })
}

const input = (kind: DomainListKind = 'whitelist') => screen.getByRole('textbox', { name: `Domain to ${kind}` })
const addButton = () => screen.getByRole('button', { name: 'Add' })
/** The success message (role status; the test page's location outputs are statuses too, so find it by text). */
async function findSuccess(text: string) {
  const element = await screen.findByText(text)
  expect(element.closest('[role="status"]')).not.toBeNull()
  return element
}

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms)
  })

describe('Whitelisted Domains card', () => {
  it('lists the entries as the server returns them, each with a remove button', async () => {
    mockList('whitelist', ['example.com', 'fernhill.example'])
    renderCard()
    expect(screen.getByRole('heading', { name: 'Whitelisted Domains' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading your whitelist' })).toBeInTheDocument()
    const list = await screen.findByRole('list', { name: 'Whitelisted domains' })
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['example.com', 'fernhill.example'])
    expect(screen.getByRole('button', { name: 'Remove example.com' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Remove fernhill.example' })).toBeInTheDocument()
  })

  it('says so when the list is empty', async () => {
    mockList('whitelist')
    renderCard()
    expect(await screen.findByText(/^No whitelisted domains yet\./)).toBeInTheDocument()
  })

  it("shows 'Error loading whitelist: {message}' when the list cannot be loaded", async () => {
    mockList('whitelist', [], { list: { status: 401, body: { error: 'Authentication required' } } })
    renderCard()
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading whitelist: Authentication required')
  })

  it('disables Add while the trimmed input is blank', async () => {
    mockList('whitelist')
    const { user } = renderCard()
    await screen.findByText(/^No whitelisted domains yet\./)
    expect(addButton()).toBeDisabled()
    await user.type(input(), '   ')
    expect(addButton()).toBeDisabled()
    await user.type(input(), 'a')
    expect(addButton()).toBeEnabled()
  })

  it.each([
    ['ab', 'Domain must be at least 3 characters long.'],
    ['a.b', 'Invalid domain format.'],
    ['not a domain', 'Invalid domain format.'],
    ['example', 'Invalid domain format.'],
    ['under_score.com', 'Invalid domain format.'],
  ])('rejects "%s" with "%s" before sending anything', async (value, message) => {
    const { calls } = mockList('whitelist')
    const { user } = renderCard()
    await screen.findByText(/^No whitelisted domains yet\./)
    await user.type(input(), value)
    await user.click(addButton())
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(input()).toHaveAttribute('aria-invalid', 'true')
    expect(input()).toHaveValue(value)
    expect(adds(calls, 'whitelist')).toHaveLength(0)
  })

  it('adds a domain lowercased (secure call), clears the input, lists it, and the success message vanishes after 3 s', async () => {
    const { calls } = mockList('whitelist')
    const { user } = renderCard('whitelist', { fakeTimers: true })
    await screen.findByText(/^No whitelisted domains yet\./)
    await user.type(input(), '  Example.COM {enter}')

    await findSuccess('Domain "example.com" added to your whitelist.')
    expect(adds(calls, 'whitelist')[0]).toMatchObject({ body: { domain: 'example.com' } })
    expect(adds(calls, 'whitelist')[0]?.headers['X-Requested-With']).toBe('XMLHttpRequest')
    expect(input()).toHaveValue('')
    expect(await screen.findByRole('button', { name: 'Remove example.com' })).toBeInTheDocument()

    advance(2_800)
    expect(screen.getByText('Domain "example.com" added to your whitelist.')).toBeInTheDocument()
    advance(200)
    await waitFor(() => expect(screen.queryByText('Domain "example.com" added to your whitelist.')).not.toBeInTheDocument())
  })

  it('409: \'Domain "{domain}" is already in your whitelist.\', the input cleared; errors vanish after 5 s', async () => {
    mockList('whitelist', ['example.com'], { add: { status: 409, body: { error: 'Conflict', code: 'conflict' } } })
    const { user } = renderCard('whitelist', { fakeTimers: true })
    await screen.findByRole('button', { name: 'Remove example.com' })
    await user.type(input(), 'EXAMPLE.com')
    await user.click(addButton())

    expect(await screen.findByRole('alert')).toHaveTextContent('Domain "example.com" is already in your whitelist.')
    expect(input()).toHaveValue('')

    advance(4_800)
    expect(screen.getByText('Domain "example.com" is already in your whitelist.')).toBeInTheDocument()
    advance(200)
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
  })

  it("other failures: 'Failed to add domain: {message}', the input kept, gone after 5 s", async () => {
    mockList('whitelist', [], { add: { status: 500, body: { error: 'Database unavailable' } } })
    const { user } = renderCard('whitelist', { fakeTimers: true })
    await screen.findByText(/^No whitelisted domains yet\./)
    await user.type(input(), 'example.com')
    await user.click(addButton())

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to add domain: Database unavailable')
    expect(input()).toHaveValue('example.com')
    expect(input()).not.toHaveAttribute('aria-invalid')
    advance(4_800)
    expect(screen.getByRole('alert')).toBeInTheDocument()
    advance(200)
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
  })

  it('removes a domain, says so for 3 s, and the entry is gone', async () => {
    const { calls } = mockList('whitelist', ['example.com', 'fernhill.example'])
    const { user } = renderCard('whitelist', { fakeTimers: true })
    await user.click(await screen.findByRole('button', { name: 'Remove example.com' }))

    await findSuccess('Domain "example.com" removed from your whitelist.')
    const remove = calls.find((call) => call.path === '/_api/whitelist/domain')
    expect(remove).toMatchObject({ method: 'POST', body: { domain: 'example.com' } })
    expect(remove?.headers['X-Requested-With']).toBe('XMLHttpRequest')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove example.com' })).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Remove fernhill.example' })).toBeInTheDocument()

    advance(2_800)
    expect(screen.getByText('Domain "example.com" removed from your whitelist.')).toBeInTheDocument()
    advance(200)
    await waitFor(() => expect(screen.queryByText('Domain "example.com" removed from your whitelist.')).not.toBeInTheDocument())
  })

  it("a failed removal: 'Failed to remove domain: {message}' for 5 s", async () => {
    mockList('whitelist', ['example.com'], { remove: { status: 404, body: { error: 'example.com is not in your whitelist' } } })
    const { user } = renderCard('whitelist', { fakeTimers: true })
    await user.click(await screen.findByRole('button', { name: 'Remove example.com' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to remove domain: example.com is not in your whitelist')
    advance(4_800)
    expect(screen.getByRole('alert')).toBeInTheDocument()
    advance(200)
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
  })
})

describe('Blacklisted Domains card', () => {
  it('uses the blacklist endpoints and texts', async () => {
    const { calls } = mockList('blacklist', ['pipelinepeak.example'])
    const { user } = renderCard('blacklist')
    expect(screen.getByRole('heading', { name: 'Blacklisted Domains' })).toBeInTheDocument()
    await screen.findByRole('button', { name: 'Remove pipelinepeak.example' })
    await user.type(input('blacklist'), 'growthlane.example')
    await user.click(addButton())
    await findSuccess('Domain "growthlane.example" added to your blacklist.')
    expect(adds(calls, 'blacklist')).toHaveLength(1)
  })

  it("a message saying 'already blacklisted' counts as a duplicate whatever the status", async () => {
    mockList('blacklist', [], { add: { status: 400, body: { error: 'growthlane.example is already blacklisted' } } })
    const { user } = renderCard('blacklist')
    await screen.findByText(/^No blacklisted domains yet\./)
    await user.type(input('blacklist'), 'growthlane.example')
    await user.click(addButton())
    expect(await screen.findByRole('alert')).toHaveTextContent('Domain "growthlane.example" is already in your blacklist.')
    expect(input('blacklist')).toHaveValue('')
  })

  it("shows 'Error loading blacklist: {message}'", async () => {
    mockList('blacklist', [], { list: { status: 401, body: { error: 'Authentication required' } } })
    renderCard('blacklist')
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading blacklist: Authentication required')
  })
})
