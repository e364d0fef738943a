import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { signIn, uniqueEmail } from './helpers.ts'

// Issue 17: every page reads for everyone (axe, the engine behind Lighthouse's accessibility audit,
// with the WCAG 2 A and AA rules: contrast, names, landmarks, ARIA).
async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

for (const path of ['/', '/login', '/pricing', '/terms', '/privacy']) {
  test(`${path} has no accessibility violations`, async ({ page }) => {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    expect(await violations(page)).toEqual([])
  })
}

test('the signed-in dashboard, with Account Settings open, has no accessibility violations', async ({ page }) => {
  await signIn(page, uniqueEmail('a11y'))
  await page.getByRole('button', { name: 'Account Settings' }).click()
  await expect(page.getByRole('list', { name: 'Active sessions' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(await violations(page)).toEqual([])
})
