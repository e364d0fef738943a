import { Link } from 'react-router'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'
import { LegalPage, type LegalSection } from '#client/components/legal-page.tsx'

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>

const RETENTION: { data: string; period: string }[] = [
  { data: 'Email content (bodies, attachments)', period: 'Never stored: processed in memory and scrubbed after processing' },
  { data: 'Minimal classification data (category, confidence, reasons)', period: '45 days' },
  { data: 'Email metadata (sender domain, subject, dates, message IDs)', period: '90 days' },
  { data: 'Application logs', period: '30 days, anonymized after 7 days' },
  { data: 'Error logs', period: '14 days' },
  { data: 'Billing records', period: '7 years (tax and accounting law)' },
  { data: 'Support tickets', period: '7 years' },
  { data: 'Security audit logs', period: '7 years' },
]

const sections: LegalSection[] = [
  {
    id: 'data-collection-and-use',
    title: 'Data Collection and Use',
    subsections: [
      { id: 'what-we-collect', title: 'What we collect' },
      { id: 'how-we-use-data', title: 'How we use it' },
      { id: 'email-content', title: 'Email content' },
      { id: 'retention', title: 'How long we keep data' },
      { id: 'security', title: 'Security' },
      { id: 'sharing', title: 'Who we share data with' },
    ],
    content: (
      <>
        <h3 id="what-we-collect">What we collect</h3>
        <ul>
          <li>
            <strong>Account information</strong> from Google or Microsoft when you sign in: your name, email address and
            a provider account identifier.
          </li>
          <li>
            <strong>Mailbox access tokens</strong> issued by your email provider when you connect a mailbox, so the
            service can act on your behalf.
          </li>
          <li>
            <strong>Email metadata</strong> needed to filter and to show you what happened: sender address and domain,
            subject line, dates, message and thread identifiers, and the category assigned.
          </li>
          <li>
            <strong>Your preferences</strong>: category switches, filtering on or off, whitelisted and blacklisted
            domains.
          </li>
          <li>
            <strong>Billing information</strong>: plan, subscription status, invoices and usage counts. Card details are
            collected and held by our payment provider, Stripe, never by us.
          </li>
          <li>
            <strong>Technical and security data</strong>: sessions (device type, browser, operating system, approximate
            location and IP address), application and error logs, and security audit events.
          </li>
        </ul>

        <h3 id="how-we-use-data">How we use it</h3>
        <p>
          We use this data only to provide, secure and improve the service: to classify your mail and apply your
          preferences, show you why each message was filtered, count usage against your plan, bill you, answer support
          requests, and detect abuse. We do not sell personal data, we do not use it for advertising, and we do not
          build profiles of you beyond what filtering requires.
        </p>

        <h3 id="email-content">Email content</h3>
        <p>
          <strong>Email content is processed in memory, never stored, and never used to train models.</strong> To
          classify a message we read its headers and text, decide its category, and then discard the content: email data
          is scrubbed after processing. If a message is uncertain and sent to an AI classification provider, only the
          text needed for that decision is sent, under terms that forbid the provider from storing it or training on it.
          No person at {PRODUCT_NAME} reads your mail.
        </p>
        <p>
          {PRODUCT_NAME} <strong>never deletes mail</strong>. It only labels messages or moves them out of your inbox,
          and you can restore any of them.
        </p>

        <h3 id="retention">How long we keep data</h3>
        <div className="mt-4 overflow-x-auto rounded-xl border border-line">
          <table className="w-full min-w-[28rem] text-left text-sm">
            <caption className="sr-only">Data retention periods</caption>
            <thead className="bg-canvas text-ink">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Data
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Kept for
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {RETENTION.map((row) => (
                <tr key={row.data}>
                  <td className="px-4 py-3">{row.data}</td>
                  <td className="px-4 py-3">{row.period}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          When you delete your account, we delete your account data, tokens, preferences and classification history
          promptly, except the records we must keep by law (billing records) or for security (audit logs), which are
          kept for the periods above and then deleted.
        </p>

        <h3 id="security">Security</h3>
        <ul>
          <li>
            Mailbox access tokens are encrypted at rest with <strong>AES-256-GCM</strong>, using a key derived with{' '}
            <strong>PBKDF2 at 100,000 rounds</strong>.
          </li>
          <li>
            Sessions use random tokens of which we store only a hash, in secure, HTTP-only cookies that expire after one
            week.
          </li>
          <li>All traffic is encrypted in transit with TLS. Logs redact tokens, secrets, card data and email addresses.</li>
          <li>
            Access to the database is tightly bounded: each application process holds a small connection pool with a{' '}
            <strong>maximum of 3</strong> connections, and only the service itself can reach it.
          </li>
          <li>Security-relevant actions are written to an immutable audit log.</li>
          <li>
            If a data breach affects your personal data, we will notify you and the relevant authorities{' '}
            <strong>within 72 hours</strong> of becoming aware of it.
          </li>
        </ul>

        <h3 id="sharing">Who we share data with</h3>
        <p>We share data only with the service providers we need to run {PRODUCT_NAME}, each bound by contract:</p>
        <ul>
          <li>Google and Microsoft, to sign you in and to read and organise your mail at your request;</li>
          <li>Stripe, to process payments;</li>
          <li>an AI classification provider, for uncertain messages, without storage or training;</li>
          <li>our hosting and email-delivery providers.</li>
        </ul>
        <p>We may also disclose data when the law requires it, and will tell you unless we are legally prevented.</p>
      </>
    ),
  },
  {
    id: 'your-rights-and-controls',
    title: 'Your Rights and Controls',
    content: (
      <>
        <ul>
          <li>
            <strong>Access and export.</strong> Ask us for a copy of the personal data we hold about you.
          </li>
          <li>
            <strong>Correction.</strong> Ask us to correct data that is inaccurate.
          </li>
          <li>
            <strong>Deletion.</strong> Delete your account at any time from the dashboard’s Danger Zone by confirming
            your email address and typing <code>DELETE MY ACCOUNT</code>, or ask us to do it for you.
          </li>
          <li>
            <strong>Disconnect.</strong> Disconnect your mailbox from the dashboard, which clears its stored tokens. You
            can also revoke access in your Google or Microsoft account security settings.
          </li>
          <li>
            <strong>Control filtering.</strong> Switch filtering off, choose which categories stay in your inbox, and
            manage your whitelist and blacklist.
          </li>
          <li>
            <strong>Sessions.</strong> See where you are signed in and log out other devices.
          </li>
          <li>
            <strong>Object or restrict.</strong> Ask us to stop or limit a particular processing of your data.
          </li>
        </ul>
        <p>
          To exercise any of these rights, write to {mail}. We answer within 30 days and will not discriminate against you
          for using them.
        </p>
      </>
    ),
  },
  {
    id: 'legal-compliance',
    title: 'Legal Compliance',
    subsections: [
      { id: 'gdpr', title: 'GDPR' },
      { id: 'ccpa', title: 'CCPA' },
      { id: 'coppa', title: 'COPPA' },
      { id: 'automated-decisions', title: 'Automated decisions' },
      { id: 'cookies', title: 'Cookies' },
      { id: 'policy-updates', title: 'Policy updates' },
    ],
    content: (
      <>
        <h3 id="gdpr">GDPR (European Economic Area and United Kingdom)</h3>
        <p>
          We process your data to perform our contract with you (providing the service), on the basis of our legitimate
          interests (security and abuse prevention), to meet legal obligations (billing records), and with your consent
          where required (mailbox access, which you can withdraw at any time). You have the rights of access,
          rectification, erasure, restriction, portability and objection, and the right to lodge a complaint with your
          data-protection authority. Transfers outside your region use Standard Contractual Clauses.
        </p>

        <h3 id="ccpa">CCPA (California)</h3>
        <p>
          California residents have the right to know what personal information we collect and why, to request its
          deletion or correction, and to opt out of its sale or sharing. We do not sell or share personal information
          for cross-context behavioural advertising, and we will not discriminate against you for exercising your
          rights.
        </p>

        <h3 id="coppa">COPPA (children)</h3>
        <p>
          The service is for adults aged 18 or older. We do not knowingly collect personal information from children
          under 13. If you believe a child under 13 has given us personal information, contact {mail} and we will delete
          it.
        </p>

        <h3 id="automated-decisions">Automated decisions</h3>
        <p>
          Classifying your mail is an automated decision made at your request. It decides only where a message is
          filed, never deletes it, and has no legal or similarly significant effect on you. Every decision shows its
          reasons; you can override it by restoring a message or adjusting your whitelist, blacklist and category
          settings, and you may ask for human review by writing to {mail}.
        </p>

        <h3 id="cookies">Cookies</h3>
        <p>
          We use only strictly necessary cookies: a secure, HTTP-only session cookie that keeps you signed in and
          protects against request forgery. We do not use advertising or cross-site tracking cookies. Our payment
          provider may set its own cookies on its checkout pages.
        </p>

        <h3 id="policy-updates">Policy updates</h3>
        <p>
          If we make material changes to this policy we will give you at least 30 days’ notice by email or in the
          service before they take effect. The date at the top of this page shows when it last changed.
        </p>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions or requests about your privacy? Write to {mail}. See also our <Link to="/terms">Terms of Service</Link>.
      </p>
    ),
  },
]

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      description={`How ${PRODUCT_NAME} handles your data: email content processed in memory and never stored, clear retention periods, encryption and your rights.`}
      intro={
        <p>
          {PRODUCT_NAME} needs access to your mailbox to work, so we hold ourselves to a simple rule: collect as little
          as possible, keep it as briefly as possible, and never store or train on the content of your email.
        </p>
      }
      sections={sections}
    />
  )
}
