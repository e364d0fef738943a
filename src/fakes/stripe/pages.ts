import { randomBytes } from 'node:crypto'
import type { FakeResponse } from '../http/fake-server.ts'

/**
 * HTML of the fake's hosted pages (Checkout, Customer Portal, hosted invoice). Self-contained: inline
 * styles under a CSP nonce, no scripts, no external resources (demo mode must work offline). Plain forms
 * with labelled inputs and named buttons, so tests can post exactly what a browser would.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}

const e = escapeHtml

export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)
}

export function date(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

function styles(nonce: string): string {
  return `<style nonce="${nonce}">
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f9fc;color:#1a1f36}
main{max-width:32rem;margin:2rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 .5rem}
h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.notice{background:#fff7e6;border:1px solid #f0c36d;border-radius:8px;padding:.75rem 1rem;font-size:.9rem}
.amount{font-size:1.6rem;font-weight:700;margin:.25rem 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email]{width:100%;padding:.5rem .6rem;border:1px solid #8792a2;border-radius:6px;font:inherit}
.row{display:flex;gap:.75rem}.row>div{flex:1}
.hint{color:#4f566b;font-size:.85rem;margin:.25rem 0 0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem;align-items:center}
button{padding:.55rem 1.2rem;border-radius:6px;font:inherit;font-weight:600;cursor:pointer;background:#635bff;color:#fff;border:1px solid #635bff}
button.secondary{background:#fff;color:#635bff;border-color:#8792a2}
button.danger{background:#fff;color:#b42318;border-color:#b42318}
a{color:#4f46e5}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{color:#b42318;font-weight:600}
table{width:100%;border-collapse:collapse;font-size:.9rem}th,td{text-align:left;padding:.35rem .25rem;border-bottom:1px solid #e3e8ee}
.sub{border:1px solid #e3e8ee;border-radius:8px;padding:.75rem 1rem;margin:.5rem 0}
.sub form{display:inline}
</style>`
}

export function htmlPage(status: number, title: string, body: (nonce: string) => string): FakeResponse {
  const nonce = randomBytes(16).toString('base64')
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)}</title>
${styles(nonce)}
</head>
<body>
<main>
${body(nonce)}
</main>
</body>
</html>`,
  }
}

const DEMO_NOTICE = `<p class="notice"><strong>This is a local demo of Stripe.</strong> No real payment is made. Test cards: <code>4242 4242 4242 4242</code> succeeds, <code>4000 0000 0000 0002</code> is declined; any future expiry date and any CVC.</p>`

export interface CheckoutPageInput {
  action: string
  productName: string
  amount: string
  interval: string
  email: string | null
  /** The customer already has an address: it is shown, not asked for. */
  emailLocked: boolean
  cancelUrl: string | null
  error?: string
  values?: { email?: string; name?: string; cardNumber?: string; expiry?: string; cvc?: string }
}

export function checkoutPage(status: number, input: CheckoutPageInput): FakeResponse {
  const v = input.values ?? {}
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="card-error"' : ''
  return htmlPage(status, `Subscribe to ${input.productName} (demo checkout)`, () => `<h1>Subscribe to ${e(input.productName)}</h1>
<p class="amount">${e(input.amount)} <small>per ${e(input.interval)}</small></p>
${DEMO_NOTICE}
<form method="post" action="${e(input.action)}" novalidate>
${input.error ? `<p class="error" role="alert" id="card-error">${e(input.error)}</p>` : ''}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" value="${e(v.email ?? input.email ?? '')}"${input.emailLocked ? ' readonly' : ''}>
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${e(v.cardNumber ?? '')}"${invalid}>
<div class="row">
<div><label for="cardExpiry">Expiry date (MM / YY)</label>
<input id="cardExpiry" name="cardExpiry" type="text" autocomplete="cc-exp" placeholder="MM / YY" value="${e(v.expiry ?? '')}"></div>
<div><label for="cardCvc">Security code (CVC)</label>
<input id="cardCvc" name="cardCvc" type="text" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${e(v.cvc ?? '')}"></div>
</div>
<label for="billingName">Name on card</label>
<input id="billingName" name="billingName" type="text" autocomplete="cc-name" value="${e(v.name ?? '')}">
<div class="actions">
<button type="submit" name="action" value="pay">Subscribe</button>
${input.cancelUrl ? `<a href="${e(input.cancelUrl)}">Cancel and go back</a>` : ''}
</div>
</form>`)
}

export function messagePage(status: number, title: string, message: string, link?: { href: string; text: string }): FakeResponse {
  return htmlPage(status, title, () => `<h1>${e(title)}</h1>
<p${status >= 400 ? ' role="alert"' : ''}>${e(message)}</p>
${link ? `<p><a href="${e(link.href)}">${e(link.text)}</a></p>` : ''}`)
}

export interface PortalSubscriptionView {
  id: string
  productName: string
  amount: string
  interval: string
  status: string
  periodEnd: number
  cancelAtPeriodEnd: boolean
}

export interface PortalInvoiceView {
  number: string
  created: number
  amount: string
  status: string
  url: string
}

export function portalPage(input: { action: string; email: string | null; returnUrl: string | null; subscriptions: PortalSubscriptionView[]; invoices: PortalInvoiceView[]; message?: string }): FakeResponse {
  const subs = input.subscriptions
    .map((s) => {
      const when = s.cancelAtPeriodEnd ? `Cancels on ${date(s.periodEnd)}` : s.status === 'canceled' ? 'Canceled' : `Renews on ${date(s.periodEnd)}`
      const form = (action: string, label: string, cls = '') =>
        `<form method="post" action="${e(input.action)}"><input type="hidden" name="subscription" value="${e(s.id)}"><button type="submit" name="action" value="${action}"${cls ? ` class="${cls}"` : ''}>${label}</button></form>`
      const buttons =
        s.status === 'canceled'
          ? ''
          : s.cancelAtPeriodEnd
            ? `${form('resume', 'Renew subscription')} ${form('cancel_now', 'Cancel now', 'danger')}`
            : `${form('cancel_at_period_end', 'Cancel at period end', 'secondary')} ${form('cancel_now', 'Cancel now', 'danger')}`
      return `<section class="sub" aria-label="${e(s.productName)} subscription">
<p><strong>${e(s.productName)}</strong>: ${e(s.amount)} per ${e(s.interval)}</p>
<p>Status: ${e(s.status)}. ${e(when)}.</p>
<div class="actions">${buttons}</div>
</section>`
    })
    .join('\n')
  const invoices = input.invoices.length
    ? `<table><caption>Invoice history</caption><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Invoice</th></tr></thead><tbody>
${input.invoices.map((i) => `<tr><td>${e(date(i.created))}</td><td>${e(i.amount)}</td><td>${e(i.status)}</td><td><a href="${e(i.url)}">${e(i.number)}</a></td></tr>`).join('\n')}
</tbody></table>`
    : '<p>No invoices yet.</p>'
  return htmlPage(200, 'Manage your subscription (demo billing portal)', () => `<h1>Manage your subscription</h1>
<p class="notice"><strong>This is a local demo of the Stripe customer portal.</strong>${input.email ? ` Signed in as ${e(input.email)}.` : ''}</p>
${input.message ? `<p role="status">${e(input.message)}</p>` : ''}
<h2>Current plan</h2>
${subs || '<p>No subscriptions.</p>'}
<h2>Billing history</h2>
${invoices}
${input.returnUrl ? `<p><a href="${e(input.returnUrl)}">Return to Inbox Guard</a></p>` : ''}`)
}

export function invoicePage(input: { number: string; amount: string; status: string; created: number; periodStart: number; periodEnd: number; description: string }): FakeResponse {
  return htmlPage(200, `Invoice ${input.number} (demo)`, () => `<h1>Invoice ${e(input.number)}</h1>
<p class="notice"><strong>Local demo of a Stripe hosted invoice.</strong></p>
<p class="amount">${e(input.amount)}</p>
<p>Status: ${e(input.status)}</p>
<p>Issued ${e(date(input.created))}; service from ${e(date(input.periodStart))} to ${e(date(input.periodEnd))}.</p>
<p>${e(input.description)}</p>`)
}
