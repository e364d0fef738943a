// A small circuit breaker (closed → open → half-open) for the LLM provider. State changes are
// reported through onStateChange so the server can persist provider health.

export type BreakerState = 'closed' | 'open' | 'half_open'

export interface BreakerOptions {
  name: string
  /** Consecutive failures that open the circuit. */
  failureThreshold: number
  /** How long the circuit stays open before one trial call is let through. */
  resetAfterMs: number
  now?: () => number
  onStateChange?: (change: { name: string; from: BreakerState; to: BreakerState; at: number; lastError?: string }) => void
}

export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError'
}

export class CircuitBreaker {
  readonly name: string
  private state: BreakerState = 'closed'
  private failures = 0
  private openedAt = 0
  private trialInFlight = false
  private readonly options: BreakerOptions
  private readonly now: () => number

  constructor(options: BreakerOptions) {
    this.options = options
    this.name = options.name
    this.now = options.now ?? Date.now
  }

  get currentState(): BreakerState {
    if (this.state === 'open' && this.now() - this.openedAt >= this.options.resetAfterMs) return 'half_open'
    return this.state
  }

  private transition(to: BreakerState, lastError?: string): void {
    if (this.state === to) return
    const from = this.state
    this.state = to
    this.options.onStateChange?.({ name: this.name, from, to, at: this.now(), lastError })
  }

  /** Runs fn through the breaker; throws CircuitOpenError without calling fn while open. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.state === 'open') {
      if (this.now() - this.openedAt < this.options.resetAfterMs || this.trialInFlight) {
        throw new CircuitOpenError(`Circuit ${this.name} is open`)
      }
      this.transition('half_open')
    } else if (this.state === 'half_open' && this.trialInFlight) {
      throw new CircuitOpenError(`Circuit ${this.name} is half-open and already testing the provider`)
    }
    const trial = this.state === 'half_open'
    if (trial) this.trialInFlight = true
    try {
      const result = await fn()
      this.failures = 0
      this.transition('closed')
      return result
    } catch (err) {
      this.failures++
      const message = err instanceof Error ? err.message : String(err)
      if (trial || this.failures >= this.options.failureThreshold) {
        this.openedAt = this.now()
        this.transition('open', message)
      }
      throw err
    } finally {
      if (trial) this.trialInFlight = false
    }
  }
}
