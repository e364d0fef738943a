import { describe, expect, it } from 'vitest'
import { foldsByMailbox, spamAssassinFold, SPAM_ASSASSIN_VALIDATION_FOLDS } from './folds.ts'

describe('foldsByMailbox', () => {
  it('keeps all mail of one mailbox in one fold and spreads the mailboxes over every fold', () => {
    const mailboxes = ['b@x', 'a@x', 'c@x', 'b@x', 'd@x', 'a@x', 'e@x', 'c@x']
    const folds = foldsByMailbox(mailboxes, 4)
    const foldOf = new Map<string, number>()
    mailboxes.forEach((m, i) => {
      expect(foldOf.get(m) ?? folds[i]).toBe(folds[i])
      foldOf.set(m, folds[i] as number)
    })
    expect(new Set(folds)).toEqual(new Set([0, 1, 2, 3]))
  })

  it('does not depend on the order of the messages', () => {
    const a = ['a@x', 'b@x', 'c@x', 'a@x']
    const b = ['c@x', 'a@x', 'a@x', 'b@x']
    const byMailbox = (list: string[], folds: number[]) => Object.fromEntries(list.map((m, i) => [m, folds[i]]))
    expect(byMailbox(a, foldsByMailbox(a, 2))).toEqual(byMailbox(b, foldsByMailbox(b, 2)))
  })
})

describe('SpamAssassin validation folds', () => {
  it('never include the test split (index % 5 == 0)', () => {
    for (let index = 0; index < 50; index++) {
      const inValidation = (SPAM_ASSASSIN_VALIDATION_FOLDS as readonly number[]).includes(spamAssassinFold(index))
      expect(inValidation).toBe(index % 5 !== 0)
    }
  })
})
