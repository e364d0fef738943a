import { Link } from 'react-router'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'
import { LegalPage, type LegalSection } from '#client/components/legal-page.tsx'

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>

const sections: LegalSection[] = [
  {
    id: 'service-description',
    title: 'Service Description',
    content: (
      <>
        <p>
          {PRODUCT_NAME} (“{PRODUCT_NAME}”, “we”, “us”) is a web service that connects to one Gmail or Microsoft Outlook
          mailbox you own, classifies each incoming message as genuine, informational, promotional, transactional or
          unwanted (cold outreach), and, according to the preferences you set, labels the message or moves it out of
          your inbox into a dedicated label (Gmail) or folder (Outlook).
        </p>
        <p>
          <strong>{PRODUCT_NAME} never deletes mail.</strong> Filtered messages stay in your mailbox, where you can find
          and restore them at any time. The service also offers a domain whitelist and blacklist, category switches,
          usage and billing information, and system status, all reached through your dashboard after signing in with
          Google or Microsoft.
        </p>
        <p>
          These Terms of Service (“Terms”) form a binding agreement between you and {PRODUCT_NAME}. By creating an
          account or using the service you accept these Terms and our <Link to="/privacy">Privacy Policy</Link>. If you
          do not agree, do not use the service.
        </p>
      </>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    content: (
      <>
        <p>To use {PRODUCT_NAME} you must:</p>
        <ul>
          <li>
            be <strong>18 years of age or older</strong> and able to form a binding contract;
          </li>
          <li>
            hold <strong>one account per email address</strong>: an email address may be linked to a single{' '}
            {PRODUCT_NAME} account, whichever provider you sign in with;
          </li>
          <li>own the mailbox you connect, or be authorised by its owner (for example your employer) to connect it;</li>
          <li>not be barred from receiving the service under the laws of your country or of the United States.</li>
        </ul>
        <p>
          You are responsible for keeping your Google or Microsoft account secure and for all activity under your{' '}
          {PRODUCT_NAME} account.
        </p>
      </>
    ),
  },
  {
    id: 'api-scopes',
    title: 'API Scopes and Mailbox Access',
    subsections: [
      { id: 'scopes-gmail', title: 'Gmail (Google)' },
      { id: 'scopes-microsoft', title: 'Outlook (Microsoft)' },
    ],
    content: (
      <>
        <p>
          To filter your mail, {PRODUCT_NAME} asks your email provider for the following permissions, and uses them
          only to provide the features you turn on:
        </p>
        <h3 id="scopes-gmail">Gmail (Google)</h3>
        <ul>
          <li>
            <strong>Read</strong> (<code>gmail.readonly</code>): to read the headers and text of new messages so they
            can be classified.
          </li>
          <li>
            <strong>Modify</strong> (<code>gmail.modify</code>): to apply labels and remove messages from the inbox.
            This permission cannot permanently delete mail, and we never move mail to the trash.
          </li>
          <li>
            <strong>Labels</strong> (<code>gmail.labels</code>): to create and manage the labels that filtered mail is
            filed under.
          </li>
          <li>
            <strong>Pub/Sub</strong> (<code>pubsub</code>): to receive push notifications when new mail arrives, so
            filtering happens within moments.
          </li>
        </ul>
        <h3 id="scopes-microsoft">Outlook (Microsoft)</h3>
        <ul>
          <li>
            <strong>Mail.Read</strong>: to read new messages so they can be classified.
          </li>
          <li>
            <strong>Mail.ReadWrite</strong>: to move filtered messages into a folder and mark their category. We never
            delete messages.
          </li>
          <li>
            <strong>MailboxSettings.Read</strong>: to read mailbox settings such as time zone and locale.
          </li>
        </ul>
        <p>
          Our use of information received from Google APIs adheres to the Google API Services User Data Policy,
          including its Limited Use requirements. You can revoke these permissions at any time in your Google or
          Microsoft account settings, or by disconnecting your mailbox on the dashboard.
        </p>
      </>
    ),
  },
  {
    id: 'limitations',
    title: 'Service Limitations',
    content: (
      <>
        <ul>
          <li>
            Classification is automated and is not perfect. A wanted message may occasionally be filtered, and an
            unwanted one may reach your inbox. Review filtered mail from time to time and use the whitelist for senders
            you always want to see.
          </li>
          <li>You may connect exactly one mailbox (Gmail or Outlook) per account.</li>
          <li>
            The free plan filters up to 10 emails per month; once the limit is reached, filtering pauses until the next
            month and your mail arrives as it normally would.
          </li>
          <li>
            The service depends on Google, Microsoft and other third parties. Their outages, rate limits or policy
            changes may delay or interrupt filtering.
          </li>
          <li>
            Features described as “coming soon”, “beta” or “testing”, including the Team plan, may change or be
            withdrawn.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'prohibited-uses',
    title: 'Prohibited Uses',
    content: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>connect a mailbox you do not own or are not authorised to manage;</li>
          <li>use the service to send, relay or facilitate spam, phishing or any unlawful communication;</li>
          <li>
            probe, scan or test the vulnerability of the service, or bypass its authentication, rate limits or usage
            limits;
          </li>
          <li>reverse engineer, decompile or copy the service or its classification models, except as law permits;</li>
          <li>resell, sublicense or offer the service to third parties without our written consent;</li>
          <li>create more than one account for the same email address, or share an account between people;</li>
          <li>use automated means to access the service other than through interfaces we provide;</li>
          <li>use the service in violation of any law or of Google’s or Microsoft’s terms.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'subscription-billing',
    title: 'Subscription and Billing Terms',
    content: (
      <>
        <ul>
          <li>
            <strong>Plans.</strong> The Free plan costs nothing. The Standard plan costs $4.99 per month. The Team plan is
            not yet available; joining its waitlist creates no obligation.
          </li>
          <li>
            <strong>Currency and timing.</strong> All fees are stated and charged in US dollars (USD), charged in
            advance at the start of each billing period, and exclusive of any applicable taxes.
          </li>
          <li>
            <strong>Automatic renewal.</strong> Paid subscriptions renew automatically for successive periods of the same
            length until you cancel.
          </li>
          <li>
            <strong>Cancellation.</strong> You may cancel at any time from the billing portal. Cancellation takes
            effect at the end of the current billing period; you keep paid features until then.
          </li>
          <li>
            <strong>No partial refunds.</strong> Fees already paid are not refunded, in whole or in part, for unused
            time or unused emails, except where the law requires.
          </li>
          <li>
            <strong>Price changes.</strong> We will give you at least 30 days’ notice by email before any price change
            applies to your subscription. If you do not agree, you may cancel before the new price takes effect.
          </li>
          <li>
            <strong>Non-payment.</strong> If a payment fails, you have a 30-day cure period to update your payment
            method. If it is not resolved by then, we may downgrade your account to the Free plan or suspend it.
          </li>
          <li>
            Payments are processed by our payment provider, Stripe. We never see or store your full card number.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual Property',
    content: (
      <p>
        The service, including its software, classification models, design, text and trademarks, belongs to{' '}
        {PRODUCT_NAME} and its licensors and is protected by intellectual-property laws. We grant you a personal,
        revocable, non-exclusive, non-transferable licence to use the service under these Terms. Your mail remains
        yours: we claim no ownership of your messages or your data. If you send us feedback, we may use it without
        obligation to you.
      </p>
    ),
  },
  {
    id: 'data-use-license',
    title: 'Data-Use License',
    content: (
      <>
        <p>
          You grant {PRODUCT_NAME} a limited, non-exclusive licence to access and process the content and metadata of
          the messages in your connected mailbox <strong>solely to provide the service to you</strong>: to classify
          messages, apply your preferences, show you why a message was filtered, and keep the service secure.
        </p>
        <ul>
          <li>
            Email content is processed in memory, is <strong>never stored</strong>, and is{' '}
            <strong>never used to train models</strong>, ours or anyone else’s.
          </li>
          <li>We do not sell your data, use it for advertising, or let humans read your mail.</li>
          <li>
            This licence ends when you disconnect your mailbox or delete your account, subject to the retention periods
            in our <Link to="/privacy">Privacy Policy</Link>.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'warranty-disclaimer',
    title: 'Warranty Disclaimer',
    content: (
      <p>
        THE SERVICE IS PROVIDED “AS IS” AND “AS AVAILABLE”, WITHOUT WARRANTIES OF ANY KIND, WHETHER EXPRESS, IMPLIED OR
        STATUTORY, INCLUDING ANY WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE, TITLE AND
        NON-INFRINGEMENT. WE DO NOT WARRANT THAT THE SERVICE WILL BE UNINTERRUPTED OR ERROR-FREE, OR THAT EVERY MESSAGE
        WILL BE CLASSIFIED CORRECTLY. Some jurisdictions do not allow the exclusion of implied warranties, so some of
        these exclusions may not apply to you.
      </p>
    ),
  },
  {
    id: 'liability-cap',
    title: 'Limitation of Liability',
    content: (
      <>
        <p>
          TO THE FULLEST EXTENT PERMITTED BY LAW, {PRODUCT_NAME.toUpperCase()} WILL NOT BE LIABLE FOR ANY INDIRECT,
          INCIDENTAL, SPECIAL, CONSEQUENTIAL OR PUNITIVE DAMAGES, OR FOR ANY LOSS OF PROFITS, REVENUE, DATA OR GOODWILL,
          INCLUDING LOSSES ARISING FROM A MESSAGE BEING FILTERED OR NOT FILTERED.
        </p>
        <p>
          Our total liability for all claims relating to the service is limited to{' '}
          <strong>the greater of $100 or the amounts you paid us in the 12 months</strong> before the event giving rise
          to the claim. These limits do not apply where the law does not allow them.
        </p>
      </>
    ),
  },
  {
    id: 'indemnification',
    title: 'Indemnification',
    content: (
      <p>
        You agree to defend, indemnify and hold harmless {PRODUCT_NAME} and its officers, employees and agents from any
        claims, damages, losses and expenses (including reasonable legal fees) arising from your breach of these Terms,
        your misuse of the service, or your connecting a mailbox you were not authorised to connect.
      </p>
    ),
  },
  {
    id: 'arbitration',
    title: 'Arbitration and Class Action Waiver',
    content: (
      <>
        <p>
          Please read this section carefully: it affects your legal rights. Before filing a claim, you agree to contact
          us at {mail} and try to resolve the dispute informally for at least 30 days.
        </p>
        <p>
          If the dispute is not resolved, it will be settled by <strong>binding individual arbitration</strong> under
          the Consumer Arbitration Rules of the American Arbitration Association, rather than in court, except that
          either party may bring an individual claim in small-claims court or seek injunctive relief for misuse of
          intellectual property.
        </p>
        <p>
          <strong>Class action waiver:</strong> you and {PRODUCT_NAME} each agree to bring claims only in an individual
          capacity, and not as a plaintiff or class member in any purported class, collective or representative
          proceeding. The arbitrator may not consolidate claims of more than one person.
        </p>
        <p>
          You may opt out of this arbitration agreement by emailing {mail} within 30 days of first accepting these Terms.
        </p>
      </>
    ),
  },
  {
    id: 'termination',
    title: 'Termination Rights',
    content: (
      <>
        <p>
          <strong>By you.</strong> You may stop using the service at any time, disconnect your mailbox, and delete your
          account from the dashboard. Deleting your account cancels any subscription at the end of its paid period.
        </p>
        <p>
          <strong>By us.</strong> We may suspend or terminate your account if you breach these Terms. Except for serious
          or unlawful violations, or where we must act to protect the service or other users, we will first notify you
          and give you a <strong>30-day cure period</strong> to remedy the violation or any non-payment.
        </p>
        <p>
          <strong>Appeals.</strong> If your account is suspended or terminated, you may appeal by writing to {mail}{' '}
          <strong>within 15 days</strong> of our notice. A person will review your appeal and reply.
        </p>
        <p>
          On termination, your access ends and your data is removed according to our{' '}
          <Link to="/privacy">Privacy Policy</Link>. Mail in your mailbox is never affected: it remains with your email
          provider.
        </p>
      </>
    ),
  },
  {
    id: 'force-majeure',
    title: 'Force Majeure',
    content: (
      <p>
        We are not liable for any delay or failure to perform caused by events beyond our reasonable control, including
        natural disasters, war, terrorism, labour disputes, government action, failures of the internet or of
        third-party providers such as Google, Microsoft or our hosting and payment providers, and cyber-attacks.
      </p>
    ),
  },
  {
    id: 'general-provisions',
    title: 'General Provisions',
    content: (
      <ul>
        <li>
          <strong>Changes to these Terms.</strong> We may update these Terms. For material changes we will give you at
          least 30 days’ notice by email or in the service before they take effect.
        </li>
        <li>
          <strong>Entire agreement.</strong> These Terms and the Privacy Policy are the entire agreement between you and
          us about the service.
        </li>
        <li>
          <strong>Severability.</strong> If any provision is found unenforceable, the rest remains in effect.
        </li>
        <li>
          <strong>No waiver.</strong> Our failure to enforce a provision is not a waiver of our right to do so later.
        </li>
        <li>
          <strong>Assignment.</strong> You may not assign these Terms without our consent; we may assign them in
          connection with a merger, acquisition or sale of assets.
        </li>
        <li>
          <strong>Governing law.</strong> These Terms are governed by the laws of the State of Delaware, United States,
          without regard to conflict-of-law rules, subject to the arbitration section above.
        </li>
      </ul>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: <p>Questions about these Terms? Write to us at {mail}. A person reads every message.</p>,
  },
]

export default function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      description={`The terms that govern your use of ${PRODUCT_NAME}: eligibility, mailbox permissions, billing, liability and your rights.`}
      intro={
        <p>
          These terms explain what {PRODUCT_NAME} does, what we ask of you, and what you can expect from us. We have tried
          to keep them readable.
        </p>
      }
      sections={sections}
    />
  )
}
