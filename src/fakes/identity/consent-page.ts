import { DEMO_IDENTITIES } from './identities.ts'

/**
 * HTML for the local consent page and the provider error page. Self-contained: styles are inline under
 * a CSP nonce, no scripts, no external resources (demo mode must work offline).
 */

/** Fields the consent page adds to the authorize parameters when it posts back. */
export const CONSENT_FIELDS = new Set(['email', 'name', 'decision', 'email_verified'])

export type ProviderName = 'google' | 'microsoft'

const PROVIDER_LABEL: Record<ProviderName, string> = { google: 'Google', microsoft: 'Microsoft' }

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}

function hiddenInputs(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('')
}

function styles(nonce: string, provider: ProviderName): string {
  const accent = provider === 'google' ? '#1a73e8' : '#0067b8'
  return `<style nonce="${nonce}">
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#1f2937}
main{max-width:30rem;margin:2rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1rem;margin:1.5rem 0 .5rem}
.notice{background:#fff7e6;border:1px solid #f0c36d;border-radius:8px;padding:.75rem 1rem;font-size:.9rem}
.client{color:#4b5563;font-size:.9rem;word-break:break-all}
ul{list-style:none;padding:0;margin:0}
li{margin:.5rem 0}
li form{margin:0}
.identity{display:flex;align-items:center;gap:.75rem;width:100%;padding:.6rem .75rem;border:1px solid #d1d5db;border-radius:8px;background:#fff;text-align:left;font:inherit;color:inherit;cursor:pointer}
.identity:hover{background:#f9fafb}
.avatar{flex:none;display:inline-flex;align-items:center;justify-content:center;width:2.25rem;height:2.25rem;border-radius:50%;background:${accent};color:#fff;font-weight:600}
.who{display:flex;flex-direction:column}
.who small{color:#4b5563}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=text]{width:100%;padding:.5rem .6rem;border:1px solid #9ca3af;border-radius:6px;font:inherit}
fieldset{border:1px solid #d1d5db;border-radius:6px;margin:.75rem 0 0;padding:.5rem .75rem}
legend{font-weight:600;font-size:.9rem}
label.choice{display:inline-flex;align-items:center;gap:.35rem;font-weight:400;margin:.25rem 1rem .25rem 0}
.actions{display:flex;gap:.75rem;margin-top:1rem}
.primary,.secondary{padding:.55rem 1.2rem;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
.primary{background:${accent};color:#fff;border:1px solid ${accent}}
.secondary{background:#fff;color:${accent};border:1px solid #9ca3af}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{color:#b91c1c;font-weight:600}
.scopes{font-size:.85rem;color:#4b5563;word-break:break-all}
</style>`
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p.charAt(0).toUpperCase())
    .slice(0, 2)
    .join('')
}

export interface ConsentPageInput {
  provider: ProviderName
  nonce: string
  action: string
  /** The original authorize query parameters, echoed back as hidden fields. */
  params: Record<string, string>
  clientId: string
  scope: string
  error?: string
  email?: string
  name?: string
  /** The verification choice to preselect; defaults to what the provider does (Google yes, Microsoft no). */
  emailVerified?: boolean
}

/**
 * Google vouches for a Google account's address (email_verified); Microsoft only when the app asks
 * for the optional xms_edov claim and the tenant verified the domain. The demo lets a person choose,
 * so the app's handling of unverified addresses can be seen and tested.
 */
function verificationChoice(provider: ProviderName, selected: boolean): string {
  const claim = provider === 'google' ? 'email_verified' : 'xms_edov'
  const option = (value: boolean, label: string) =>
    `<label class="choice"><input type="radio" name="email_verified" value="${value}"${value === selected ? ' checked' : ''}> ${label}</label>`
  return `<fieldset><legend>Is the address verified by ${PROVIDER_LABEL[provider]}? (<code>${claim}</code>)</legend>
${option(true, 'Verified')}
${option(false, 'Not verified')}
</fieldset>`
}

export function renderConsentPage(input: ConsentPageInput): string {
  const label = PROVIDER_LABEL[input.provider]
  const hidden = hiddenInputs(
    Object.fromEntries(Object.entries(input.params).filter(([k]) => !CONSENT_FIELDS.has(k))),
  )
  const identities = DEMO_IDENTITIES.map((identity, i) => {
    const fields = hiddenInputs({ email: identity.email, name: identity.name, decision: 'allow', email_verified: 'true' })
    // The accessible name is exactly "Continue as <email>"; the person's name is the description.
    return `<li><form method="post" action="${escapeHtml(input.action)}">${hidden}${fields}
<button type="submit" class="identity" aria-label="Continue as ${escapeHtml(identity.email)}" aria-describedby="identity-${i}-name">
<span class="avatar" aria-hidden="true">${escapeHtml(initials(identity.name))}</span>
<span class="who"><span id="identity-${i}-name">${escapeHtml(identity.name)}</span><small>${escapeHtml(identity.email)}</small></span>
</button></form></li>`
  }).join('\n')
  const error = input.error
    ? `<p class="error" role="alert" id="email-error">${escapeHtml(input.error)}</p>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in with ${label} (demo)</title>
${styles(input.nonce, input.provider)}
</head>
<body>
<main>
<h1>Sign in with ${label} (demo)</h1>
<p class="notice"><strong>This is a local demo identity provider.</strong> It runs on this computer in place of ${label}. No real ${label} account is used and no password is asked for: pick a demo identity or type any name and email.</p>
<p class="client">Application: <code>${escapeHtml(input.clientId)}</code></p>
<p class="scopes">Requested access: <code>${escapeHtml(input.scope)}</code></p>
<section aria-labelledby="pick-heading">
<h2 id="pick-heading">Choose a demo identity</h2>
<ul>
${identities}
</ul>
</section>
<section aria-labelledby="custom-heading">
<h2 id="custom-heading">Or use another identity</h2>
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${hidden}
${error}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(input.email ?? '')}"${input.error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name" value="${escapeHtml(input.name ?? '')}">
${verificationChoice(input.provider, input.emailVerified ?? input.provider === 'google')}
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Continue</button>
<button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
</div>
</form>
</section>
</main>
</body>
</html>`
}

export function renderErrorPage(input: { provider: ProviderName; nonce: string; status: number; error: string; description: string }): string {
  const label = PROVIDER_LABEL[input.provider]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with ${label} (demo): error</title>
${styles(input.nonce, input.provider)}
</head>
<body>
<main>
<h1>Access blocked: this request is invalid</h1>
<p class="notice">Local demo identity provider standing in for ${label}.</p>
<p class="error" role="alert">Error ${input.status}: ${escapeHtml(input.error)}</p>
<p>${escapeHtml(input.description)}</p>
</main>
</body>
</html>`
}
