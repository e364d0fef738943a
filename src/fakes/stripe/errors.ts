import { FakeHttpError } from '../http/fake-server.ts'

/**
 * Stripe's error shape (providers.md C): `{error:{type, code?, message, param?, doc_url?}}` with 400
 * (invalid_request_error), 401 (bad or missing API key), 402 (card_error), 404 (resource_missing) and
 * 429/5xx (api_error). Every error the fake answers, injected faults included, uses it, so stripe-node
 * raises the same typed errors (StripeInvalidRequestError, StripeCardError, ...) it raises against Stripe.
 */

export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error' | 'rate_limit_error'

export interface StripeErrorBody {
  error: {
    type: StripeErrorType
    message: string
    code?: string
    param?: string
    decline_code?: string
    doc_url?: string
  }
}

export function stripeErrorBody(type: StripeErrorType, message: string, options: { code?: string; param?: string; declineCode?: string } = {}): StripeErrorBody {
  return {
    error: {
      type,
      message,
      ...(options.code ? { code: options.code, doc_url: `https://stripe.com/docs/error-codes/${options.code.replace(/_/g, '-')}` } : {}),
      ...(options.param ? { param: options.param } : {}),
      ...(options.declineCode ? { decline_code: options.declineCode } : {}),
    },
  }
}

export function stripeError(status: number, type: StripeErrorType, message: string, options: { code?: string; param?: string; declineCode?: string; headers?: Record<string, string> } = {}): FakeHttpError {
  return new FakeHttpError(status, stripeErrorBody(type, message, options), options.headers ?? {}, options.code ?? type)
}

/** 404 for an id of the right kind that does not exist: "No such customer: 'cus_x'". */
export const noSuch = (kind: string, id: string, param = 'id') =>
  stripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', param })

/** 400 when a parameter names an object that does not exist (Stripe answers 400, not 404, here). */
export const noSuchParam = (kind: string, id: string, param: string) =>
  stripeError(400, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', param })

export const missingParam = (param: string) => stripeError(400, 'invalid_request_error', `Missing required param: ${param}.`, { code: 'parameter_missing', param })

export const unknownParam = (param: string) =>
  stripeError(400, 'invalid_request_error', `Received unknown parameter: ${param}`, { code: 'parameter_unknown', param })

export const invalidParam = (param: string, message: string, code = 'parameter_invalid_string') => stripeError(400, 'invalid_request_error', message, { code, param })

/** Keeps the last 4 characters only, as Stripe does in "Invalid API Key provided: sk_test_****abcd". */
export function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? ''
  const rest = key.slice(prefix.length)
  return `${prefix}${'*'.repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`
}

export function stripeFaultBody(status: number): StripeErrorBody {
  if (status === 401) return stripeErrorBody('invalid_request_error', 'Invalid API Key provided.')
  if (status === 402) return stripeErrorBody('card_error', 'Your card was declined.', { code: 'card_declined', declineCode: 'generic_decline' })
  if (status === 404) return stripeErrorBody('invalid_request_error', 'No such object.', { code: 'resource_missing' })
  if (status === 409) return stripeErrorBody('invalid_request_error', 'There is currently another in-progress request using this Stripe object.', { code: 'lock_timeout' })
  if (status === 429) return stripeErrorBody('rate_limit_error', 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', { code: 'rate_limit' })
  if (status >= 500) return stripeErrorBody('api_error', 'An unknown error occurred')
  return stripeErrorBody('invalid_request_error', `Injected fault ${status}`)
}
