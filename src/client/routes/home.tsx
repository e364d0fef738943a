import { Link } from 'react-router'
import { ArrowRight, Inbox, Lock, ShieldCheck, Sparkles, type LucideIcon } from 'lucide-react'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useAuth, type AuthState } from '#client/features/auth/hooks/use-auth.ts'
import { cn } from '#client/lib/cn.ts'

/** 'Get Started - It's Free' when signed out, 'Go to Dashboard' when signed in (SPEC 2 "/"). */
function PrimaryCta({ auth, className }: { auth: AuthState; className?: string }) {
  if (auth.status === 'loading') return <Skeleton className={cn('h-12 w-60 rounded-xl', className)} />
  if (auth.status === 'authenticated') {
    return (
      <Button asChild size="lg" className={className}>
        <Link to="/dashboard">
          Go to Dashboard
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      </Button>
    )
  }
  return (
    <Button asChild size="lg" className={className}>
      <Link to="/login">
        Get Started - It's Free
        <ArrowRight aria-hidden className="size-4" />
      </Link>
    </Button>
  )
}

type SampleMessage = { from: string; subject: string; category: string; reason: string; kept: boolean }

const SAMPLE_MESSAGES: SampleMessage[] = [
  { from: 'Maya Chen', subject: 'Lunch on Thursday?', category: 'Genuine', reason: 'You have written to Maya before', kept: true },
  { from: 'Northwind Air', subject: 'Your boarding pass for NW 218', category: 'Transactional', reason: 'Booking confirmation', kept: true },
  { from: 'Jordan @ GrowthLeads', subject: 'Quick question about your Q3 pipeline', category: 'Unwanted', reason: 'First contact, sales pitch, tracked links', kept: false },
  { from: 'Weekend Deals', subject: '48 hours only: 40% off everything', category: 'Promotional', reason: 'Bulk sender, List-Unsubscribe header', kept: false },
]

/** A still picture of what the product does: every message gets a category and a reason. */
function InboxPreview() {
  return (
    <figure className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div aria-hidden className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-br from-brand-100 via-brand-50 to-transparent blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-xl">
        <div className="flex items-center justify-between border-b border-line bg-canvas px-4 py-3">
          <span className="flex items-center gap-2 text-sm font-semibold text-ink">
            <Inbox aria-hidden className="size-4 text-brand-600" /> Inbox
          </span>
          <Badge tone="success">Filtering on</Badge>
        </div>
        <ul className="divide-y divide-line">
          {SAMPLE_MESSAGES.map((message) => (
            <li key={message.subject} className={cn('flex flex-col gap-1 px-4 py-3', !message.kept && 'bg-canvas/60')}>
              <div className="flex items-center justify-between gap-3">
                <span className={cn('truncate text-sm font-medium', message.kept ? 'text-ink' : 'text-ink-subtle')}>
                  {message.from}
                </span>
                <Badge tone={message.kept ? 'soft' : 'neutral'} className="shrink-0">
                  {message.category}
                </Badge>
              </div>
              <span className={cn('truncate text-sm', message.kept ? 'text-ink-muted' : 'text-ink-subtle line-through decoration-ink-subtle/40')}>
                {message.subject}
              </span>
              <span className="text-xs text-ink-subtle">
                {message.kept ? 'Kept in inbox' : 'Moved out of inbox'} · {message.reason}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="sr-only">
        An example inbox: genuine and transactional mail stays, while cold outreach and promotions are moved out with a
        reason for each decision.
      </figcaption>
    </figure>
  )
}

type Feature = { title: string; icon: LucideIcon; body: string[] }

const FEATURES: Feature[] = [
  {
    title: 'Reclaim Your Inbox',
    icon: Inbox,
    body: [
      'Cold sales pitches, “just following up” chains and unsolicited partnership offers are moved out of your inbox into their own Gmail label or Outlook folder, so the messages you actually need are the ones you see.',
      'You decide what stays: informational, promotional and transactional mail each have their own switch, and genuine mail from real people always lands in your inbox.',
    ],
  },
  {
    title: 'AI-Powered Precision',
    icon: Sparkles,
    body: [
      'Every new message is classified as genuine, informational, promotional, transactional or unwanted. Your whitelist and blacklist come first, then signals such as prior correspondence and mailing-list headers, then a trained model for the rest.',
      'Each decision carries a confidence score and plain-language reasons, so you can always see why a message was moved, and restore it in one click if you disagree.',
    ],
  },
  {
    title: 'Safe & Secure',
    icon: ShieldCheck,
    body: [
      'Inbox Guard never deletes mail: filtered messages are only labelled or moved. Email content is processed in memory and is never stored or used to train models.',
      'Access tokens are encrypted with AES-256-GCM, and you can disconnect your mailbox or delete your account at any time.',
    ],
  },
]

const STEPS = [
  { title: 'Sign in', body: 'Use your Google or Microsoft account. No new password to remember.' },
  { title: 'Connect your mailbox', body: 'Grant access to one Gmail or Outlook mailbox. It takes a minute or two.' },
  { title: 'Let it work', body: 'New mail is sorted as it arrives. Check what was moved, and why, on your dashboard.' },
]

export function HomePage() {
  const auth = useAuth()
  return (
    <>
      <PageMeta description="Inbox Guard connects to Gmail or Outlook, classifies every incoming email and moves cold outreach out of your inbox, with a reason for every decision. It never deletes mail." />

      <section aria-labelledby="hero-title" className="relative overflow-hidden">
        <div aria-hidden className="absolute inset-x-0 top-0 -z-10 h-[36rem] bg-gradient-to-b from-brand-50 to-canvas" />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.1fr_1fr] lg:pb-24">
          <div className="flex flex-col items-start gap-6">
            <Badge tone="soft" className="px-3 py-1 text-sm">
              <Lock aria-hidden className="size-3.5" /> Works with Gmail and Outlook · never deletes mail
            </Badge>
            <h1 id="hero-title" className="text-4xl font-bold tracking-tight text-balance text-ink sm:text-5xl lg:text-6xl">
              Finally, total control over your inbox.
            </h1>
            <p className="max-w-xl text-lg text-pretty text-ink-muted">
              Inbox Guard reads each new email as it arrives, recognises cold outreach and the other kinds of mail you
              did not ask for, and moves them out of your way. You keep the conversations that matter.
            </p>
            <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
              <PrimaryCta auth={auth} />
              <Button asChild variant="outline" size="lg">
                <a href="#features">Learn More</a>
              </Button>
            </div>
            <p className="text-sm text-ink-subtle">Free plan included. No credit card needed.</p>
          </div>
          <InboxPreview />
        </div>
      </section>

      <section id="features" aria-labelledby="features-title" className="border-y border-line bg-surface py-16 sm:py-24">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="features-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
              Less noise, without losing a single message
            </h2>
            <p className="mt-4 text-lg text-ink-muted">
              Built for people whose address is public: founders, recruiters, creators, anyone who gets pitched daily.
            </p>
          </div>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {FEATURES.map(({ title, icon: Icon, body }) => (
              <li key={title} className="flex flex-col gap-4 rounded-2xl border border-line bg-canvas/50 p-6">
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white">
                  <Icon aria-hidden className="size-5" />
                </span>
                <h3 className="text-xl font-semibold text-ink">{title}</h3>
                {body.map((paragraph) => (
                  <p key={paragraph.slice(0, 24)} className="text-ink-muted">
                    {paragraph}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="py-16 sm:py-24">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="steps-title" className="text-center text-3xl font-bold tracking-tight text-ink">
            Set up in three steps
          </h2>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden
                  className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-ink">{step.title}</h3>
                  <p className="mt-1 text-ink-muted">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-6 rounded-3xl bg-brand-800 px-6 py-14 text-center text-white shadow-xl sm:px-12">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance">
            Ready for an inbox that only holds what you asked for?
          </h2>
          <p className="max-w-xl text-brand-100">
            Start on the free plan and see how much of your mail was never meant for you. Upgrade only if it earns it.
          </p>
          <PrimaryCta auth={auth} className="bg-white text-brand-800 hover:bg-brand-50 active:bg-brand-100" />
        </div>
      </section>
    </>
  )
}
