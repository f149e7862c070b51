// Every public page in light and dark: no serious or critical axe violation, and a full-page
// screenshot under test-results/screenshots/ to look at.

import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createAccount, expect, signInByStorage, test } from './fixtures';

const PAGES: { name: string; path: string; ready: string }[] = [
  { name: 'landing', path: '/landing', ready: 'landing-page' },
  { name: 'security', path: '/security', ready: 'security-page' },
  { name: 'terms', path: '/terms', ready: 'terms-page' },
  { name: 'privacy', path: '/privacy', ready: 'privacy-page' },
  { name: 'contact', path: '/contact', ready: 'contact-page' },
  { name: 'signup', path: '/signup', ready: 'signup-page' },
  { name: 'login', path: '/login', ready: 'login-page' },
  { name: 'forgot-password', path: '/forgot-password', ready: 'forgot-password-page' },
  { name: 'recover', path: '/recover?token=example-token', ready: 'recover-page' },
  { name: 'recover-no-token', path: '/recover', ready: 'recover-page' },
  { name: 'under-construction', path: '/public-templates', ready: 'under-construction-page' },
];

const SCREENSHOTS = path.resolve('test-results', 'screenshots');

async function settle(page: Page, ready: string): Promise<void> {
  await expect(page.getByTestId(ready)).toBeVisible();
  const phase = page.locator('[data-phase]');
  if (await phase.count()) await expect(phase).toHaveAttribute('data-phase', 'entered');
  if (ready === 'landing-page') await expect(page.getByTestId('activity-source')).not.toHaveText('Loading activity…');
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    // Reduced motion shows scroll-in sections at once, so axe and the screenshots see the whole page.
    test.use({ colorScheme: theme, reducedMotion: 'reduce' });

    for (const p of PAGES) {
      test(`${p.name}: no serious or critical accessibility violation; screenshot`, async ({ page }) => {
        // A CSP refusal or a script error shows up in the console.
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(p.path);
        await settle(page, p.ready);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expectNoSeriousViolations(page);
        await page.screenshot({ path: path.join(SCREENSHOTS, `${p.name}-${theme}.png`), fullPage: true });
        expect(problems).toEqual([]);
      });
    }

    test('messages: sign-up and login errors, forgot result', async ({ page }) => {
      await page.goto('/signup');
      await settle(page, 'signup-page');
      await page.getByTestId('signup-submit').click();
      await expect(page.getByTestId('signup-error')).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `signup-error-${theme}.png`) });

      await page.goto('/login');
      await settle(page, 'login-page');
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('login-error')).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `login-error-${theme}.png`) });

      await page.goto('/forgot-password');
      await settle(page, 'forgot-password-page');
      await page.getByTestId('forgot-email').fill('nobody@example.com');
      await page.getByTestId('forgot-submit').click();
      await expect(page.getByTestId('forgot-result')).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `forgot-result-${theme}.png`) });
    });

    test('signed-in frame and a signed-in privacy page', async ({ page, request }) => {
      await signInByStorage(page, request, await createAccount(request));
      await page.goto('/dashboard');
      await expect(page.getByTestId('dashboard-page')).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `signed-in-dashboard-${theme}.png`) });
      await page.goto('/privacy');
      await expect(page.getByTestId('signed-in-nav')).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `privacy-signed-in-${theme}.png`) });
    });

    test('small screen: landing and sign-up', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/landing');
      await settle(page, 'landing-page');
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `landing-mobile-${theme}.png`) });
      await page.getByTestId('cta-section').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOTS, `landing-mobile-end-${theme}.png`) });
      await page.goto('/signup');
      await settle(page, 'signup-page');
      await page.screenshot({ path: path.join(SCREENSHOTS, `signup-mobile-${theme}.png`) });
    });
  });
}
