// @vitest-environment jsdom
import { createHash, randomBytes } from 'node:crypto'
import { within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startIdentityFakes, type IdentityFakes } from './server.ts'

/**
 * The consent page as a person (or a browser test) meets it: found by accessible names, submitted the
 * way a browser submits the form. Complements the protocol tests in server.test.ts. Runs under jsdom
 * for DOMParser and accessible-name queries; HTTP still goes to the real fake server.
 */

function parse(html: string) {
  // Into the window's own document: role queries need a document with a window (styles, visibility).
  document.body.innerHTML = new DOMParser().parseFromString(html, 'text/html').body.innerHTML
  return within(document.body)
}

const GOOGLE = { clientId: 'google-client', clientSecret: 'google-secret' }
const MICROSOFT = { clientId: 'microsoft-client', clientSecret: 'microsoft-secret' }
const REDIRECT_URI = 'http://127.0.0.1:5173/_api/auth/callback'

let fakes: IdentityFakes

beforeAll(async () => {
  fakes = await startIdentityFakes({ google: GOOGLE, microsoft: MICROSOFT })
})
afterAll(async () => {
  await fakes.close()
})

function authorizeUrl(provider: 'google' | 'microsoft'): string {
  const verifier = randomBytes(32).toString('base64url')
  const params = new URLSearchParams({
    client_id: provider === 'google' ? GOOGLE.clientId : MICROSOFT.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email profile',
    state: 'state-123',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })
  return `${provider === 'google' ? fakes.google.authorizeUrl : fakes.microsoft.authorizeUrl}?${params}`
}

async function openPage(url: string) {
  const res = await fetch(url)
  return { res, screen: parse(await res.text()) }
}

/** Submits the button's form as a browser would: successful controls plus the submitter's name=value. */
async function submit(button: HTMLElement, pageUrl: string) {
  const form = button.closest('form')
  if (!form) throw new Error('button is not inside a form')
  const body = new URLSearchParams()
  for (const el of Array.from(form.querySelectorAll('input'))) {
    // A browser sends only the checked radio button of a group.
    if (el.name && (el.type !== 'radio' || el.checked)) body.append(el.name, el.value)
  }
  const submitter = button as HTMLButtonElement
  if (submitter.name) body.append(submitter.name, submitter.value)
  const action = new URL(form.getAttribute('action') ?? '', pageUrl).toString()
  expect(form.getAttribute('method')).toBe('post')
  // Sent as a string: under jsdom, URLSearchParams is jsdom's class, which Node's fetch does not know.
  return fetch(action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    redirect: 'manual',
  })
}

describe.each(['google', 'microsoft'] as const)('%s consent page', (provider) => {
  const label = provider === 'google' ? 'Google' : 'Microsoft'

  it('has a heading, a demo notice and one button per demo identity, named "Continue as <email>"', async () => {
    const { screen } = await openPage(authorizeUrl(provider))
    expect(screen.getByRole('heading', { level: 1, name: `Sign in with ${label} (demo)` })).toBeTruthy()
    expect(screen.getByText(/local demo identity provider/)).toBeTruthy()
    for (const email of ['alex.morgan@example.com', 'priya@example.org', 'sam.okafor@example.net']) {
      expect(screen.getByRole('button', { name: `Continue as ${email}` })).toBeTruthy()
    }
    expect(screen.getByRole('button', { name: 'Continue as alex.morgan@example.com', description: 'Alex Morgan' })).toBeTruthy()
  })

  it('picking a demo identity redirects to the app with a code and the state', async () => {
    const url = authorizeUrl(provider)
    const { screen } = await openPage(url)
    const res = await submit(screen.getByRole('button', { name: 'Continue as priya@example.org' }), url)
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.searchParams.get('code')).toBeTruthy()
    expect(location.searchParams.get('state')).toBe('state-123')
  })

  it('typing an email and pressing Continue signs in as that email', async () => {
    const url = authorizeUrl(provider)
    const { screen } = await openPage(url)
    const email = screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement
    const name = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement
    email.value = 'new.person@example.com'
    name.value = 'New Person'
    const res = await submit(screen.getByRole('button', { name: 'Continue' }), url)
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy()
  })

  it('Continue with a malformed email shows an alert next to the Email field', async () => {
    const url = authorizeUrl(provider)
    const { screen } = await openPage(url)
    ;(screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value = 'nobody@'
    const res = await submit(screen.getByRole('button', { name: 'Continue' }), url)
    expect(res.status).toBe(400)
    const again = parse(await res.text())
    expect(again.getByRole('alert').textContent).toContain('not a valid email address')
    const field = again.getByRole('textbox', { name: 'Email' }) as HTMLInputElement
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(field.value).toBe('nobody@')
  })

  it('Cancel returns access_denied to the app even with the form empty', async () => {
    const url = authorizeUrl(provider)
    const { screen } = await openPage(url)
    const res = await submit(screen.getByRole('button', { name: 'Cancel' }), url)
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied')
  })
})
