import { hydrateRoot, type Root } from 'react-dom/client'
import { prerender } from 'react-dom/static'
import { act, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionUser } from '#shared/api/auth.ts'
import { preloadPage } from '#client/app/app-routes.tsx'
import { ClientApp } from '#client/app/boot.tsx'
import { appInfoQueryOptions } from '#client/features/app-info/api/get-app-info.ts'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { createTestQueryClient } from '#client/test/render.tsx'
import { PRERENDERED_PAGES, renderPage } from './prerender.tsx'

// docs/decisions/020-prerendered-public-pages.md: the HTML built for each public page is what the
// browser's first render produces, so React adopts it without a mismatch, whoever visits.
const appInfo = (demoMode: boolean) => ({ demoMode, productName: 'Inbox Guard', supportEmail: 'support@inboxguard.app' })

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.head.innerHTML = ''
  document.body.innerHTML = ''
  window.history.replaceState(null, '', '/')
})

/** Puts the prerendered page into the document at `path` and hydrates it as main.tsx does. */
async function hydratePage(path: string, { demoMode = false, user = null as SessionUser | null } = {}) {
  mockApi({ 'GET /_api/app/info': { body: appInfo(demoMode) } }, { user })
  const page = await renderPage(path, { demoMode })
  // React's server renderer leaves its last context values in place until its next render, and
  // here it shares the contexts with the client: an empty render puts them back.
  await prerender(<></>)
  document.head.innerHTML = page.head
  const container = document.createElement('div')
  container.id = 'root'
  container.innerHTML = page.body
  document.body.append(container)
  const prerenderedText = container.textContent
  window.history.replaceState(null, '', path)

  await preloadPage(new URL(path, 'http://localhost').pathname)
  const queryClient = createTestQueryClient()
  queryClient.setQueryData(appInfoQueryOptions().queryKey, appInfo(demoMode))
  const recoverableErrors: unknown[] = []
  // React reports a mismatch both ways; the console also gets a warning that the server and client
  // renderers share contexts here, which they never do in a browser.
  const consoleError = vi.spyOn(console, 'error')
  const hydrationWarnings = () =>
    consoleError.mock.calls.map((call) => call.map(String).join(' ')).filter((message) => /hydrat|did not match|mismatch/i.test(message))
  await act(async () => {
    root = hydrateRoot(container, <ClientApp queryClient={queryClient} />, { onRecoverableError: (error) => recoverableErrors.push(error) })
  })
  return { prerenderedText, recoverableErrors, hydrationWarnings }
}

describe('prerendered public pages', () => {
  const cases = PRERENDERED_PAGES.flatMap(({ path }) => [
    { path, demoMode: false },
    { path: path === '/_not-found' ? '/no-such-page' : path, demoMode: true },
  ])

  it.each(cases)('$path (demo mode: $demoMode) hydrates without a mismatch', async ({ path, demoMode }) => {
    const { prerenderedText, recoverableErrors, hydrationWarnings } = await hydratePage(path, { demoMode })
    // The session check answers (signed out) and the page settles on the client.
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Log In' }).length).toBeGreaterThan(0))
    expect(recoverableErrors).toEqual([])
    expect(hydrationWarnings()).toEqual([])
    expect(prerenderedText).toContain('Skip to content')
    expect(document.querySelectorAll('title')).toHaveLength(1)
    expect(Boolean(screen.queryByRole('region', { name: 'Demo mode' }))).toBe(demoMode)
  })

  it.each([
    ['/', 'Finally, total control over your inbox.'],
    ['/login', 'Sign in to your account'],
    ['/pricing', 'Find the perfect plan'],
    ['/terms', 'September 16, 2025'],
    ['/privacy', 'September 16, 2025'],
  ])('%s carries its spec text and its own title in the HTML, before any JavaScript runs', async (path, text) => {
    const page = await renderPage(path, { demoMode: false })
    expect(page.body).toContain(text)
    expect(page.head).toMatch(/^<title>[^<]+<\/title><meta name="description" content="[^"]+"\/>/)
  })

  it('a signed-in visitor gets Go to Dashboard on / once the session check answers', async () => {
    const { recoverableErrors } = await hydratePage('/', { user: testUser })
    expect((await screen.findAllByRole('link', { name: 'Go to Dashboard' }))[0]).toHaveAttribute('href', '/dashboard')
    expect(recoverableErrors).toEqual([])
  })

  it('a signed-in visitor on /login is sent to /dashboard', async () => {
    const { recoverableErrors } = await hydratePage('/login', { user: testUser })
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'))
    expect(recoverableErrors).toEqual([])
  })

  it('back from a canceled checkout, /pricing says so once hydrated (the prerendered page has no query)', async () => {
    const { recoverableErrors } = await hydratePage('/pricing?checkout=canceled')
    expect(await screen.findByText('Checkout canceled: your plan has not changed.')).toBeInTheDocument()
    expect(recoverableErrors).toEqual([])
  })
})
