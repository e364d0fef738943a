/** Plan definitions, fixed in the client (SPEC 3 "Plan definition", SPEC 9 "Plans"). */
export type PlanId = 'free' | 'standard' | 'team'

export interface PlanDefinition {
  id: PlanId
  name: string
  /** Price in US cents per month. */
  price: number
  /** Payment-provider price identifiers (monthly, and the second standard price). */
  priceIds: string[]
  /** Emails per month; null means unlimited. */
  emailLimit: number | null
  overageRate: number
  features: string[]
  description: string
  comingSoon?: boolean
}

export const PLANS: readonly PlanDefinition[] = [
  {
    id: 'free',
    name: 'Free',
    price: 0,
    priceIds: [],
    emailLimit: 10,
    overageRate: 0,
    features: ['10 emails per month', 'Basic filtering', 'Community support'],
    description: 'Try the filter on a handful of messages each month.',
  },
  {
    id: 'standard',
    name: 'Standard',
    price: 499,
    priceIds: ['price_standard_monthly', 'price_standard_monthly_2025'],
    emailLimit: null,
    overageRate: 0,
    features: ['Unlimited emails', 'Advanced AI filtering', 'Whitelist management', 'Email support'],
    description: 'Everything you need to keep cold outreach out of your inbox.',
  },
  {
    id: 'team',
    name: 'Team',
    price: 0,
    priceIds: [],
    emailLimit: null,
    overageRate: 0,
    features: ['Unlimited seats', 'Advanced AI filtering', 'Company-wide protection'],
    description: 'Protect every inbox in your company.',
    comingSoon: true,
  },
] as const

export const formatPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`
