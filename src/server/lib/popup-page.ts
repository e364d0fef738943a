import { PRODUCT_NAME } from '#shared/product.ts'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** JSON that is safe inside a <script> element (no `</script>`, no line separators). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')

/**
 * The page the OAuth popup lands on (SPEC 4 "OAuth login"). It posts exactly one message to its
 * opener, targeted at the app origin only, then closes. Opened without an opener (popup blocked and
 * the flow run in a tab, or the opener lost) it stays readable and links back to /login.
 */
export type PopupMessage = { type: 'OAUTH_TOKEN_SUCCESS' } | { type: 'OAUTH_ERROR'; error: { message: string } }

export interface PopupPageTexts {
  success: string
  failure: string
  back: { href: string; text: string }
}

export const SIGN_IN_POPUP_TEXTS: PopupPageTexts = { success: 'Sign-in complete', failure: 'Sign-in failed', back: { href: '/login', text: 'Back to sign in' } }

/** The page the OAuth popup lands on (sign-in and mailbox connect share it). */
export function renderPopupPage(message: PopupMessage, appOrigin: string, nonce: string, texts: PopupPageTexts = SIGN_IN_POPUP_TEXTS): string {
  const success = message.type === 'OAUTH_TOKEN_SUCCESS'
  const heading = success ? texts.success : texts.failure
  const text = success ? 'You can close this window and return to the app.' : message.error.message
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${heading} · ${escapeHtml(PRODUCT_NAME)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#111}a{color:#2563eb}</style>
</head>
<body>
<main>
<h1>${heading}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(texts.back.href)}">${escapeHtml(texts.back.text)}</a></p>
</main>
<script nonce="${nonce}">
(function () {
  var message = ${scriptJson(message)};
  var origin = ${scriptJson(appOrigin)};
  if (window.opener && !window.opener.closed) {
    window.opener.postMessage(message, origin);
    window.close();
  }
})();
</script>
</body>
</html>
`
}
