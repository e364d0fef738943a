// Shared vocabulary of the classifier: categories, the caller's context and the decision it gets back.
// Exact semantics of every field are documented in docs/classifier.md.

export const CATEGORIES = ['genuine', 'informational', 'promotional', 'transactional', 'unwanted'] as const
export type Category = (typeof CATEGORIES)[number]

/** The wanted kinds, in the order the second-stage model scores them. */
export const WANTED_CATEGORIES = ['genuine', 'informational', 'promotional', 'transactional'] as const
export type WantedCategory = (typeof WANTED_CATEGORIES)[number]

export type Strictness = 'relaxed' | 'balanced' | 'strict'
export type Action = 'keep' | 'filter'
export type DecisionSource = 'rule' | 'model' | 'llm'

export interface ClassifierSettings {
  allowInformational: boolean
  allowPromotional: boolean
  allowTransactional: boolean
  /** 0.1–1: a message is filtered only when its confidence reaches this value. */
  confidenceThreshold: number
  strictness: Strictness
}

export const DEFAULT_SETTINGS: ClassifierSettings = {
  allowInformational: true,
  allowPromotional: true,
  allowTransactional: true,
  confidenceThreshold: 0.7,
  strictness: 'balanced',
}

export interface ClassifierContext {
  /** The mailbox owner's own address (optional; messages from it are never filtered). */
  me?: string
  /** The owner's organisation domain, or null for a personal mailbox on a public provider. */
  orgDomain?: string | null
  whitelistDomains: readonly string[]
  blacklistDomains: readonly string[]
  /** Addresses the person has written to (prior correspondence), lower-case. A Set is fastest for many. */
  knownAddresses: readonly string[] | ReadonlySet<string>
  /**
   * Non-public domains the person has written to. Public mail providers are ignored if passed. An
   * array is matched by organisation domain; a Set is looked up directly and should hold
   * organisation domains (orgDomainOf) — the fast form for people with many contacts.
   */
  knownDomains: readonly string[] | ReadonlySet<string>
  settings: ClassifierSettings
}

export interface Decision {
  category: Category
  /** Probability-like score in [0, 1] that the category is right. */
  confidence: number
  action: Action
  reasons: string[]
  source: DecisionSource
}

export function emptyContext(settings: Partial<ClassifierSettings> = {}): ClassifierContext {
  return {
    whitelistDomains: [],
    blacklistDomains: [],
    knownAddresses: [],
    knownDomains: [],
    settings: { ...DEFAULT_SETTINGS, ...settings },
  }
}
