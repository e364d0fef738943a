import type { Settings } from '#shared/api/settings.ts'

/** The three kinds a person may keep or file away (SPEC 3 "Settings": the only user toggles). */
export type ToggleCategory = 'informational' | 'promotional' | 'transactional'

/** The settings field behind each toggle. */
export const TOGGLE_FIELD = {
  informational: 'allowInformational',
  promotional: 'allowPromotional',
  transactional: 'allowTransactional',
} as const satisfies Record<ToggleCategory, keyof Settings>

/**
 * Every user-facing text of the settings feature (Filter Settings, the filtering on/off card and
 * polling), in one place. The SPEC 8 "Other loading" texts are word for word; the rest is ours.
 */
export const SETTINGS_MESSAGES = {
  // Filter Settings card (SPEC 2 "/dashboard")
  filterSettingsTitle: 'Filter Settings',
  filterSettingsDescription:
    'Choose which kinds of mail stay in your inbox and how sure Inbox Guard must be before it files a message away. Nothing is ever deleted.',
  /** SPEC 8 "Other loading", word for word. */
  loadFailed: (message: string) => `Error loading category settings: ${message}`,
  retry: 'Try again',
  loading: 'Loading your filter settings',

  masterSwitch: 'Filter my incoming mail',
  masterSwitchOn: 'On: the kinds you do not keep are filed out of your inbox as they arrive.',
  masterSwitchOff: 'Off: new mail is left alone. These settings apply again when you turn filtering back on.',

  categoriesLegend: 'Keep in my inbox',
  categoriesHint: 'Kinds you untick are filed out of your inbox to the Inbox Guard label or folder, never deleted.',
  categories: {
    informational: { label: 'Informational', hint: 'Newsletters, updates, digests and notifications you signed up for.' },
    promotional: { label: 'Promotional', hint: 'Sales, offers and marketing from companies you know.' },
    transactional: { label: 'Transactional', hint: 'Receipts, invoices, deliveries, bookings and password resets.' },
  } satisfies Record<ToggleCategory, { label: string; hint: string }>,
  fixedGenuine: { label: 'Genuine', state: 'Always kept', hint: 'Mail people write to you. Inbox Guard never files it away.' },
  fixedUnwanted: {
    label: 'Unwanted (cold outreach)',
    state: 'Always filed away',
    hint: 'Unsolicited pitches from strangers: filing them away is what Inbox Guard is for. Whitelist a domain to keep its mail.',
  },

  thresholdLabel: 'Confidence threshold',
  thresholdHint:
    'A message is filed away only when Inbox Guard is at least this sure of its kind. A higher threshold keeps more mail in your inbox.',
  thresholdValue: (value: number) => `${Math.round(value * 100)} %`,

  strictnessLegend: 'Strictness',
  strictness: {
    balanced: { label: 'Balanced', hint: "Uses the model's own judgement of what is cold outreach. Recommended." },
    relaxed: { label: 'Relaxed', hint: 'Gives senders the benefit of the doubt: only clear cold outreach is filed away.' },
    strict: { label: 'Strict', hint: 'Also files borderline mail that reads like outreach; look at Filtered Mail now and then.' },
  } satisfies Record<Settings['strictnessLevel'], { label: string; hint: string }>,

  saving: 'Saving…',
  saved: 'All changes saved.',
  saveFailed: (message: string) => `Your change was not saved: ${message}`,

  // The filtering on/off card (SPEC 2 lists it apart from Filter Settings)
  statusTitle: 'Filtering',
  statusOn: 'Filtering is on',
  statusOff: 'Filtering is off',
  statusOnText:
    'New mail is checked as it arrives, and the kinds you do not want are filed out of your inbox with a reason. Nothing is deleted.',
  statusOffText:
    'New mail is left alone in your inbox, and mail that arrives while filtering is off is not processed later.',
  statusSwitch: 'Filtering',
  statusLoading: 'Loading the filtering status',
  performanceHeading: 'Mail checks today',
  webhookEventsToday: 'Webhook events today',
  pollingEventsToday: 'Polling events today',
  /** SPEC 8 "Other loading", word for word. */
  performanceUnavailable: 'Unable to load performance data',
} as const
