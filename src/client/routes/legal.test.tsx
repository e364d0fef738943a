import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

describe('/terms', () => {
  it('has every section in its table of contents, and the figures the spec requires', async () => {
    mockApi()
    renderApp('/terms')
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument()
    expect(screen.getByText('Last updated September 16, 2025')).toBeInTheDocument()

    const toc = screen.getByRole('navigation', { name: 'Contents' })
    for (const section of [
      'Service Description', 'Eligibility', 'API Scopes', 'Limitations', 'Prohibited Uses', 'Subscription and Billing',
      'Intellectual Property', 'Data-Use License', 'Warranty Disclaimer', 'Limitation of Liability', 'Indemnification',
      'Arbitration and Class Action Waiver', 'Termination Rights', 'Force Majeure', 'General Provisions', 'Contact',
    ]) {
      const link = within(toc).getByRole('link', { name: new RegExp(section) })
      expect(document.querySelector(link.getAttribute('href')!)).not.toBeNull()
    }

    const text = screen.getByRole('article').textContent ?? ''
    for (const figure of [
      '18 years of age or older', 'one account per email address', 'greater of $100', '12 months', '30 days’ notice',
      '30-day cure period', 'within 15 days', 'US dollars (USD)', 'charged in advance', 'renew automatically',
      'end of the current billing period', 'No partial refunds', 'Mail.Read', 'Mail.ReadWrite', 'MailboxSettings.Read',
      'gmail.modify', 'gmail.labels', 'pubsub', 'never deletes mail', 'never used to train models',
    ]) {
      expect(text, figure).toContain(figure)
    }
  })
})

describe('/privacy', () => {
  it('covers collection, rights and compliance with every retention figure', async () => {
    mockApi()
    renderApp('/privacy')
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument()
    expect(screen.getByText('Last updated September 16, 2025')).toBeInTheDocument()

    const toc = screen.getByRole('navigation', { name: 'Contents' })
    for (const entry of ['Data Collection and Use', 'Your Rights and Controls', 'Legal Compliance', 'GDPR', 'CCPA', 'COPPA', 'Automated decisions', 'Cookies', 'Policy updates']) {
      expect(within(toc).getByRole('link', { name: new RegExp(entry) })).toBeInTheDocument()
    }

    const text = screen.getByRole('article').textContent ?? ''
    for (const figure of [
      'never stored', 'never used to train models', '90 days', '30 days, anonymized after 7 days', '14 days', '7 years',
      'Support tickets', 'Security audit logs', '45 days', 'scrubbed after processing', 'within 72 hours', 'AES-256-GCM',
      'PBKDF2 at 100,000 rounds', 'maximum of 3', 'under 13', '30 days’ notice', 'never deletes mail',
    ]) {
      expect(text, figure).toContain(figure)
    }
  })
})
