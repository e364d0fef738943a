/** Account texts (SPEC 2 "/dashboard" Account Settings, SPEC 8 "Sessions and account"). */
export const ACCOUNT_MESSAGES = {
  cardTitle: 'Account Settings',
  cardDescription: 'Where you are signed in, what we keep and for how long, and deleting your account.',
  retentionTitle: 'Data Retention Policy',
  dangerTitle: 'Danger Zone',
  deleteButton: 'Delete Account',
  deleteSuccess: 'Account deleted successfully. You will be logged out.',
  deleteFailure: 'An unexpected error occurred during account deletion.',
} as const

/** What is kept and for how long: the legal text's own figures (SPEC 1, SPEC 9 "Retention"). */
export const RETENTION_ROWS = [
  { what: 'E-mail content', kept: 'Never stored', detail: 'Processed in memory to classify each message, never written to disk and never used to train models.' },
  { what: 'Classification data', kept: '45 days', detail: 'The decision for each message, its reason and the sender, shown in your filtered-mail list.' },
  { what: 'Mail metadata', kept: '90 days', detail: 'Delivery and sync records that keep filtering reliable.' },
  { what: 'Application logs', kept: '30 days', detail: 'Anonymized after 7 days. Error logs are kept 14 days.' },
  { what: 'Billing records, support tickets and audit logs', kept: '7 years', detail: 'Kept as the law requires, also after your account is deleted, without your name or address.' },
  { what: 'Access tokens', kept: 'Until you disconnect', detail: 'Encrypted with AES-256-GCM (key derived with PBKDF2, 100,000 rounds).' },
] as const
