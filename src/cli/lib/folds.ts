// Folds for choosing training settings without looking at corpus/heldout or the SpamAssassin test
// split (docs/classifier.md, "Evaluation").

/**
 * The fold (0 … k-1) of each message when whole mailboxes are dealt out: every mailbox's mail lands
 * in one fold, so a model trained on the other folds has never seen that mailbox (what a new user's
 * mailbox is). Mailboxes are dealt in sorted order, so the folds do not depend on file order.
 */
export function foldsByMailbox(mailboxOfMessage: readonly string[], k: number): number[] {
  const mailboxes = [...new Set(mailboxOfMessage)].sort()
  const fold = new Map(mailboxes.map((m, i) => [m, i % k]))
  return mailboxOfMessage.map((m) => fold.get(m) as number)
}

/** SpamAssassin training-split items (index % 5 != 0) form validation folds 1…4 by index % 5. */
export const SPAM_ASSASSIN_VALIDATION_FOLDS = [1, 2, 3, 4] as const
export const spamAssassinFold = (index: number) => index % 5
