import { expect, test, type Page } from '@playwright/test'

// SPEC 2: every public route shows its spec text; any other path is the Not Found page with HTTP 404.
const pages = [
  { path: '/', text: 'Finally, total control over your inbox.' },
  { path: '/login', text: 'Sign in to your account' },
  { path: '/terms', text: 'September 16, 2025' },
  { path: '/privacy', text: 'September 16, 2025' },
  { path: '/pricing', text: 'Find the perfect plan' },
]

for (const { path, text } of pages) {
  test(`${path} answers 200 and shows "${text}", with no Content Security Policy violation and no hydration error`, async ({ page }) => {
    // The page reports violations of its own policy as a DOM event; record them before anything runs.
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
    // A hydration mismatch surfaces as an uncaught error (React's recoverable error) or a console error.
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await expect(page.getByText(text).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([])
    expect(errors).toEqual([])
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeAttached()
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' })).toBeVisible()
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' })).toBeVisible()
  })
}

// docs/decisions/020: the public pages are prerendered, so their content is in the HTML itself.
for (const { path, text } of pages) {
  test(`${path} arrives with "${text}" in its HTML, before any JavaScript runs`, async ({ request }) => {
    const response = await request.get(path)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('text/html')
    expect(response.headers()['cache-control']).toBe('no-cache')
    const html = await response.text()
    expect(html).toContain(text)
    expect(html).toContain('<a href="#main-content"')
    // The server's app info rides along as data; the policy still refuses inline scripts.
    expect(html).toMatch(/<script type="application\/json" id="app-info">\{"demoMode":(true|false)/)
    expect(response.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/)
  })
}

test('without JavaScript, the home page still shows its content, links and the demo-mode notice', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Finally, total control over your inbox.' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Reclaim Your Inbox' })).toBeVisible()
  // The browser tests run the app in demo mode.
  await expect(page.getByText('Demo mode: sign-in uses local demo accounts; no real mailbox is connected.')).toBeVisible()
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
  await context.close()
})

test('an unknown path answers 404 with the Not Found page and a link home', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: /home/i }).click()
  await expect(page).toHaveURL('/')
})

test('the home page shows the three feature cards and Learn More jumps to them', async ({ page }) => {
  await page.goto('/')
  for (const title of ['Reclaim Your Inbox', 'AI-Powered Precision', 'Safe & Secure']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible()
  }
  await page.getByRole('link', { name: 'Learn More' }).click()
  await expect(page).toHaveURL(/#features$/)
  await page.getByRole('link', { name: "Get Started - It's Free" }).first().click()
  await expect(page).toHaveURL('/login')
})

test('pricing is indexable, the dashboard is not, and signed-out visitors cannot upgrade', async ({ page }) => {
  await page.goto('/pricing')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /index, ?follow/)
  await expect(page.getByText('Recommended')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Upgrade' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Notify me when available' })).toBeDisabled()
  await page.goto('/dashboard')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
})

test('GET /_api/auth/session answers JSON', async ({ request }) => {
  const response = await request.get('/_api/auth/session')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toContain('application/json')
  expect(await response.json()).toEqual({ user: null })
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  const openMenu = async (page: Page) => {
    await page.getByRole('button', { name: /open menu/i }).click()
    const menu = page.getByRole('dialog')
    await expect(menu).toBeVisible()
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
    return menu
  }

  test('the slide-out menu closes on Escape, on overlay click and on route change, and locks scroll while open', async ({
    page,
  }) => {
    await page.goto('/')
    let menu = await openMenu(page)
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden')

    menu = await openMenu(page)
    // The overlay covers the page to the left of the panel.
    await page.mouse.click(10, 700)
    await expect(menu).toBeHidden()

    menu = await openMenu(page)
    await menu.getByRole('link', { name: 'Log In' }).click()
    await expect(page).toHaveURL('/login')
    await expect(menu).toBeHidden()
  })

  test('the home page has no horizontal scroll at 360 px', async ({ page }) => {
    await page.goto('/')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
})

test('keyboard: the first Tab reaches Skip to content, which moves focus to the page content', async ({ page }) => {
  await page.goto('/pricing')
  // Tab only once the page is on screen, as a person would.
  await expect(page.getByRole('heading', { name: 'Find the perfect plan' })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()
  // The next Tab continues inside the page content, not back in the header.
  await page.keyboard.press('Tab')
  const insideMain = await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false)
  expect(insideMain).toBe(true)
})

test('keyboard: sign-in buttons are reachable and start the popup with Enter', async ({ page }) => {
  await page.goto('/login')
  const google = page.getByRole('button', { name: 'Continue with Google' })
  // The prerendered button says it is unavailable until the app is running (decision 020).
  await expect(google).toBeEnabled()
  for (let i = 0; i < 15 && !(await google.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab')
  }
  await expect(google).toBeFocused()
  const popupPromise = page.waitForEvent('popup')
  await page.keyboard.press('Enter')
  const popup = await popupPromise
  await expect(popup.getByRole('heading', { name: /Sign in with Google/ })).toBeVisible()
  await popup.close()
})
