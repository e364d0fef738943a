import { expect, test, type Page } from '@playwright/test'
import { signIn, uniqueEmail, upgradeWithTestCard } from './helpers.ts'

// Issue 13 against the demo providers: the domain lists (SPEC 5, 8 "Domain lists"), a category
// setting kept across a reload (SPEC 3 "Settings"), and new mail decided, shown in Filtered Mail
// and restored with one click.
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`


/** Connect demo Gmail in the popup as the consent page's first demo identity; returns its address. */
async function connectGmail(page: Page): Promise<string> {
  const gmailCard = page.getByRole('article', { name: 'Gmail' })
  const popupPromise = page.waitForEvent('popup')
  await gmailCard.getByRole('button', { name: 'Connect Gmail' }).click()
  const popup = await popupPromise
  await popup.waitForLoadState()
  const identity = popup.getByRole('button', { name: /^Continue as / }).first()
  const address = ((await identity.getAttribute('aria-label')) ?? '').replace(/^Continue as /, '')
  expect(address).toContain('@')
  // The popup closes itself as soon as the callback posts its message: listen before clicking.
  const closed = popup.waitForEvent('close')
  await identity.click()
  await closed
  await expect(gmailCard.getByText(address)).toBeVisible()
  return address
}

/** An RFC 822 message with CRLF line endings, dated now. */
function rfc822({ from, to, subject, body, headers = [] }: { from: string; to: string; subject: string; body: string; headers?: string[] }) {
  return [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${unique()}.${Math.random().toString(36).slice(2)}@e2e.example>`,
    ...headers,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    ...body.split('\n'),
  ].join('\r\n')
}

/** POST /_api/demo/deliver from the test (Node side, this machine), as `npm run demo:deliver` does. */
async function deliver(baseURL: string, to: string, raw: string) {
  const response = await fetch(new URL('/_api/demo/deliver', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ to, raw }),
  })
  expect(response.status, await response.clone().text()).toBe(200)
}

test('domain lists, a category kept across a reload, and new mail filed away and restored', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  await signIn(page, uniqueEmail('filtering'))
  // The demo mailbox's mail alone passes the free plan's 10 a month: filter on Standard.
  await upgradeWithTestCard(page)
  const address = await connectGmail(page)

  // Whitelist: add a domain, see it, remove it (SPEC 8 "Domain lists").
  const whitelist = page.getByRole('region', { name: 'Whitelisted Domains' })
  const domain = `partner-${unique()}.example`
  await whitelist.getByRole('textbox', { name: 'Domain to whitelist' }).fill(`  ${domain.toUpperCase()} `)
  await whitelist.getByRole('button', { name: 'Add' }).click()
  await expect(whitelist.getByText(`Domain "${domain}" added to your whitelist.`)).toBeVisible()
  await expect(whitelist.getByRole('list', { name: 'Whitelisted domains' }).getByText(domain, { exact: true })).toBeVisible()
  await expect(whitelist.getByRole('textbox', { name: 'Domain to whitelist' })).toHaveValue('')
  await whitelist.getByRole('button', { name: `Remove ${domain}` }).click()
  await expect(whitelist.getByText(`Domain "${domain}" removed from your whitelist.`)).toBeVisible()
  await expect(whitelist.getByRole('button', { name: `Remove ${domain}` })).toBeHidden()

  // A category toggle is saved and still there after a reload.
  const settings = page.getByRole('region', { name: 'Filter Settings' })
  const promotional = settings.getByRole('checkbox', { name: 'Promotional' })
  await expect(promotional).toBeChecked()
  await promotional.uncheck()
  await expect(settings.getByText('All changes saved.')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('region', { name: 'Filter Settings' }).getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked()
  await expect(page.getByRole('region', { name: 'Filtering', exact: true }).getByText('Filtering is on')).toBeVisible()

  // New mail: one obvious cold pitch and one from a friend the owner has written to (the demo
  // mailbox's sent mail holds the owner's roadmap draft to Hannah).
  const token = unique().slice(-6)
  const coldSubject = `Quick question about outbound demos ${token}`
  const friendSubject = `Dinner on Saturday? ${token}`
  expect(baseURL).toBeTruthy()
  await deliver(
    baseURL!,
    address,
    rfc822({
      from: 'Ben Carter <ben@pipelinepeak.example>',
      to: address,
      subject: coldSubject,
      headers: ['X-Mailer: Reachloop Sequences 5.2'],
      body: [
        'Hi there,',
        '',
        "Who's the best person on your team to talk to about outbound lead generation?",
        '',
        'We book 30-40 qualified demos a month for B2B SaaS teams your size, and only charge per meeting',
        'that actually happens. Happy to send over a few case studies.',
        '',
        'Worth a quick 15-minute call next week?',
        '',
        'Ben',
        '',
        'P.S. If it\'s not a priority right now, just reply "not now" and I\'ll stop reaching out.',
      ].join('\n'),
    }),
  )
  await deliver(
    baseURL!,
    address,
    rfc822({
      from: 'Hannah Lindqvist <hannah.lindqvist@fernhill.example>',
      to: address,
      subject: friendSubject,
      body: [
        'Hi!',
        '',
        'Are you free for dinner on Saturday? We are trying the new Lebanese place near the station,',
        'around 7. Jonas is coming too. Let me know and I will book a table for four.',
        '',
        'Hannah',
      ].join('\n'),
    }),
  )

  // Both decisions appear in Filtered Mail within ~15 s (the Refresh button asks at once instead of
  // waiting for the 30 s refetch).
  const filteredMail = page.getByRole('region', { name: 'Filtered Mail' })
  const decisions = filteredMail.getByRole('list', { name: 'Decisions' })
  const coldRow = decisions.getByRole('listitem').filter({ hasText: coldSubject })
  const friendRow = decisions.getByRole('listitem').filter({ hasText: friendSubject })
  await expect(async () => {
    await filteredMail.getByRole('button', { name: 'Refresh' }).click()
    await expect(coldRow).toBeVisible({ timeout: 2_000 })
    await expect(friendRow).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 15_000, intervals: [500, 1_000, 2_000] })

  await expect(coldRow.getByText('Filed away', { exact: true })).toBeVisible()
  await expect(coldRow.getByText('Cold outreach', { exact: true })).toBeVisible()
  await expect(friendRow.getByText('Kept', { exact: true })).toBeVisible()
  await expect(friendRow.getByRole('button', { name: 'This is cold' })).toBeVisible()

  // The reasons are there for the asking.
  const showReasons = coldRow.getByRole('button', { name: 'Show reasons' })
  await showReasons.click()
  await expect(coldRow.getByRole('button', { name: 'Hide reasons' })).toHaveAttribute('aria-expanded', 'true')
  await expect(coldRow.getByRole('listitem').first()).toBeVisible()

  // One click brings it back.
  await coldRow.getByRole('button', { name: 'Restore' }).click()
  await expect(coldRow.getByText('Restored', { exact: true })).toBeVisible({ timeout: 10_000 })
  await expect(coldRow.getByRole('button', { name: 'This is cold' })).toBeVisible()
})
