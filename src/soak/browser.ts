/**
 * One simulated person's browser for the soak: a cookie jar, its own client address (X-Forwarded-For,
 * honoured because the app trusts the soak's proxy: TRUST_PROXY=127.0.0.1), and the calls the web
 * client makes, including the two OAuth popups (sign-in, mailbox connect) answered on the identity
 * fakes' consent form, as scripts/bench-pipeline.ts does.
 */

export interface CallRecord {
  method: string
  path: string
  status: number
  ms: number
  /** Answered by the soak's load balancer (no app process reachable), not by the app. */
  byBalancer: boolean
}

export interface Browser {
  address: string
  get(path: string): Promise<Response>
  post(path: string, body: unknown): Promise<Response>
  /** Every call this browser made to the app, for the web-traffic figures. */
  calls: CallRecord[]
}

export function browser(appUrl: string, clientAddress: string, record: (call: CallRecord) => void): Browser {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1)
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.set(name, value)
      else jar.delete(name)
    }
    return response
  }
  const calls: CallRecord[] = []
  async function call(method: 'GET' | 'POST', target: string, body?: unknown): Promise<Response> {
    const url = new URL(target, appUrl)
    const headers: Record<string, string> = { cookie: cookie(), 'x-forwarded-for': clientAddress, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) soak' }
    if (method === 'POST') {
      headers['content-type'] = 'application/json'
      headers['x-requested-with'] = 'XMLHttpRequest'
    }
    const started = Date.now()
    const response = await fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined, redirect: 'manual', signal: AbortSignal.timeout(30_000) })
    const entry = { method, path: url.pathname, status: response.status, ms: Date.now() - started, byBalancer: response.headers.has('x-soak-proxy') }
    calls.push(entry)
    record(entry)
    return keep(response)
  }
  return { address: clientAddress, get: (path) => call('GET', path), post: (path, body) => call('POST', path, body), calls }
}

/** Authorize on the app → the fake's consent form → back to the app's callback; returns the popup page. */
async function popup(b: Browser, path: string, email: string): Promise<string> {
  const authorize = await b.get(path)
  const location = authorize.headers.get('location')
  await authorize.arrayBuffer()
  if (authorize.status !== 302 || !location) throw new Error(`${path} answered ${authorize.status}`)
  const consentUrl = new URL(location)
  const form = new URLSearchParams(consentUrl.searchParams)
  form.set('email', email)
  form.set('name', email.split('@')[0]!)
  form.set('decision', 'allow')
  const consent = await fetch(`${consentUrl.origin}${consentUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  await consent.arrayBuffer()
  const back = consent.headers.get('location')
  if (!back) throw new Error(`the consent form answered ${consent.status} without a redirect`)
  const callback = await b.get(back)
  return callback.text()
}

/** Sign-in with Google or Microsoft, as the login page's popup does. */
export async function signIn(b: Browser, provider: 'google' | 'microsoft', email: string): Promise<void> {
  const page = await popup(b, `/_api/auth/oauth_authorize?provider=${provider}`, email)
  const tempToken = /"token":"([^"]+)"/.exec(page)?.[1]
  if (!tempToken) throw new Error(`sign-in of ${email} failed: ${/"code":"([^"]+)"/.exec(page)?.[1] ?? 'no token'}`)
  const established = await b.post('/_api/auth/establish_session', { tempToken })
  await established.arrayBuffer()
  if (established.status !== 200) throw new Error(`establish_session for ${email} answered ${established.status}`)
}

/** The dashboard's Connect Gmail / Connect Outlook popup. */
export async function connectMailbox(b: Browser, provider: 'gmail' | 'outlook', email: string): Promise<void> {
  const page = await popup(b, `/_api/${provider}/authorize?mode=popup`, email)
  if (!page.includes('OAUTH_TOKEN_SUCCESS')) throw new Error(`connecting ${provider} ${email} failed: ${/"code":"([^"]+)"/.exec(page)?.[1] ?? page.slice(0, 200)}`)
}

/** Starts Checkout for the standard plan; returns the Checkout Session id from the hosted page's URL. */
export async function startCheckout(b: Browser): Promise<string> {
  const response = await b.post('/_api/billing/create-checkout', { planId: 'standard' })
  const body = (await response.json()) as { url?: string; error?: string }
  const id = body.url ? /\/(cs_[A-Za-z0-9_]+)/.exec(body.url)?.[1] : undefined
  if (response.status !== 200 || !id) throw new Error(`create-checkout answered ${response.status}: ${body.error ?? body.url ?? ''}`)
  return id
}

/** The plan and usage the Billing card shows. */
export async function subscriptionOf(b: Browser): Promise<{ planId: string; emailsProcessed: number; emailsLeftAlone: number }> {
  const response = await b.get('/_api/billing/subscription')
  const body = (await response.json()) as { subscription: { planId: string }; usage: { emailsProcessed: number; emailsLeftAlone: number } }
  if (response.status !== 200) throw new Error(`billing/subscription answered ${response.status}`)
  return { planId: body.subscription.planId, emailsProcessed: body.usage.emailsProcessed, emailsLeftAlone: body.usage.emailsLeftAlone }
}

/** Decisions the person's activity shows: all of them, and those filed away. */
export async function decisionCounts(b: Browser): Promise<{ total: number; filed: number }> {
  const [all, filed] = await Promise.all([b.get('/_api/activity?limit=1'), b.get('/_api/activity?limit=1&filed=true')])
  const read = async (r: Response) => {
    const body = (await r.json()) as { pagination?: { totalRecords: number } }
    if (r.status !== 200 || !body.pagination) throw new Error(`activity answered ${r.status}`)
    return body.pagination.totalRecords
  }
  return { total: await read(all), filed: await read(filed) }
}
