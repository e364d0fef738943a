/**
 * The product never deletes mail (DESIGN, issue 12). Every HTTP request an adapter sends goes through
 * `guardMailRequest` first: deny by default, with each adapter listing exactly the calls it makes
 * (method + path), and its body checks refusing the labels and folders that destroy or hide mail
 * (Gmail TRASH/SPAM; Outlook Deleted Items, Junk, Recoverable Items). A refused call never leaves the
 * process.
 */

export interface AllowedMailCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  /** Matched against the URL path relative to the API base (e.g. `/users/me/messages/abc/modify`). */
  path: RegExp
  /** Checks the request body; throws ForbiddenMailCallError when it would destroy or hide mail. */
  checkBody?: (body: unknown) => void
}

export class ForbiddenMailCallError extends Error {
  override name = 'ForbiddenMailCallError'
}

/** Gmail system labels that put a message in the bin or the spam folder. */
export const FORBIDDEN_GMAIL_LABELS: readonly string[] = ['TRASH', 'SPAM']

/** Outlook well-known folders a message must never be moved to. */
export const FORBIDDEN_OUTLOOK_FOLDERS: readonly string[] = ['deleteditems', 'junkemail', 'recoverableitemsdeletions', 'recoverableitemspurges']

export function guardMailRequest(allowed: readonly AllowedMailCall[], method: string, relativePath: string, body?: unknown): void {
  const call = allowed.find((c) => c.method === method.toUpperCase() && c.path.test(relativePath))
  if (!call) throw new ForbiddenMailCallError(`Refused mail API call ${method.toUpperCase()} ${relativePath}: not on the adapter's list of allowed calls`)
  call.checkBody?.(body)
}

/** For Gmail modify/batchModify bodies: adding TRASH or SPAM is refused. */
export function refuseForbiddenGmailLabels(body: unknown): void {
  const add = (body as { addLabelIds?: unknown } | undefined)?.addLabelIds
  if (!Array.isArray(add)) return
  const bad = add.filter((label) => typeof label === 'string' && FORBIDDEN_GMAIL_LABELS.includes(label.toUpperCase()))
  if (bad.length > 0) throw new ForbiddenMailCallError(`Refused to add the label ${bad.join(', ')}: the product never deletes or hides mail as spam`)
}

/** For Outlook move bodies: moving to Deleted Items, Junk or Recoverable Items is refused. */
export function refuseForbiddenOutlookDestination(destinationId: unknown, forbiddenIds: readonly string[] = []): void {
  if (typeof destinationId !== 'string') throw new ForbiddenMailCallError('Refused a move without a destination folder')
  const id = destinationId.toLowerCase()
  if (FORBIDDEN_OUTLOOK_FOLDERS.includes(id) || forbiddenIds.includes(destinationId)) {
    throw new ForbiddenMailCallError(`Refused to move a message to ${destinationId}: the product never deletes mail`)
  }
}
