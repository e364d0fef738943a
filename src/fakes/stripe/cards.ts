/**
 * Stripe's test card numbers as the hosted Checkout page treats them
 * (https://docs.stripe.com/testing#cards and #declined-payments). Expiry and CVC are checked when given
 * and default to a valid future date otherwise, so a demo user only has to type the number.
 */

export type CardResult =
  | { ok: true; brand: string; last4: string; expMonth: number; expYear: number }
  | { ok: false; code: string; declineCode?: string; message: string }

const SUCCEEDS: Record<string, string> = {
  '4242424242424242': 'visa',
  '4000056655665556': 'visa',
  '5555555555554444': 'mastercard',
  '378282246310005': 'amex',
}

const DECLINES: Record<string, { code: string; declineCode?: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000009987': { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  '4000000000000069': { code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000000119': { code: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
}

function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

export function checkCard(input: { number: string; expiry?: string; cvc?: string }, now: Date): CardResult {
  const number = input.number.replace(/[\s-]/g, '')
  if (number === '') return { ok: false, code: 'incomplete_number', message: 'Your card number is incomplete.' }
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { ok: false, code: 'incorrect_number', message: 'Your card number is invalid.' }
  let expMonth = 12
  let expYear = now.getUTCFullYear() + 5
  const expiry = (input.expiry ?? '').replace(/\s/g, '')
  if (expiry !== '') {
    const m = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(expiry)
    if (!m) return { ok: false, code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." }
    expMonth = Number(m[1])
    expYear = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])
    if (expMonth < 1 || expMonth > 12) return { ok: false, code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." }
    if (expYear < now.getUTCFullYear()) return { ok: false, code: 'invalid_expiry_year', message: "Your card's expiration year is in the past." }
    if (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1) return { ok: false, code: 'invalid_expiry_month', message: "Your card's expiration date is in the past." }
  }
  const cvc = (input.cvc ?? '').trim()
  if (cvc !== '' && !/^\d{3,4}$/.test(cvc)) return { ok: false, code: 'incomplete_cvc', message: "Your card's security code is incomplete." }
  const decline = DECLINES[number]
  if (decline) return { ok: false, ...decline }
  const brand = SUCCEEDS[number]
  if (!brand) {
    return {
      ok: false,
      code: 'card_declined',
      declineCode: 'test_mode_live_card',
      message: 'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
    }
  }
  return { ok: true, brand, last4: number.slice(-4), expMonth, expYear }
}
