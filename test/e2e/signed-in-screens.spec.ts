// Every signed-in screen in light and dark: no serious or critical axe violation, no console error, and
// a full-page screenshot under test-results/screenshots/ to look at. The API management screens and
// modals with real data are shot by journey.spec.ts.

import type { Page } from '@playwright/test';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { createAccount, expect, signInByStorage, test } from './fixtures';

async function check(page: Page, name: string): Promise<void> {
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, name);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`signed in, ${theme} theme`, () => {
    test.use({ colorScheme: theme, reducedMotion: 'reduce' });
    let problems: string[] = [];

    test.beforeEach(async ({ page, request }) => {
      problems = watchConsole(page);
      await signInByStorage(page, request, await createAccount(request));
    });

    test.afterEach(() => {
      expect(problems).toEqual([]);
    });

    test('home, empty dashboard and not-found', async ({ page }) => {
      await page.goto('/home');
      await expect(page.getByTestId('home-page')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await check(page, `home-${theme}`);
      await page.goto('/dashboard');
      await expect(page.getByTestId('weekly-chart')).toBeVisible();
      await check(page, `dashboard-empty-${theme}`);
      await page.goto('/no-such-page');
      await expect(page.getByTestId('not-found-page')).toBeVisible();
      await check(page, `not-found-signed-in-${theme}`);
    });

    test('documentation, FAQ and guides', async ({ page }) => {
      // Four full-page audits with screenshots of pages that now hold every guide: over 30 s on a loaded CI machine.
      test.setTimeout(60_000);
      await page.goto('/documentation');
      await expect(page.getByTestId('documentation-page')).toBeVisible();
      await check(page, `documentation-${theme}`);
      await page.getByTestId('faq-question').nth(1).click();
      await expect(page.getByTestId('faq-answer').nth(1)).toBeVisible();
      await page.getByTestId('faq').scrollIntoViewIfNeeded();
      await expectNoSeriousViolations(page);
      await shoot(page, `documentation-faq-open-${theme}`, false);
      await page.goto('/guide/first-scan');
      await expect(page.getByTestId('guide-view')).toBeVisible();
      await check(page, `guide-first-scan-${theme}`);
      await page.goto('/guide/no-such-guide');
      await expect(page.getByTestId('guide-not-found')).toBeVisible();
      await check(page, `guide-not-found-${theme}`);
    });

    test('settings tabs and validation messages', async ({ page }) => {
      // Seven full-page audits with screenshots: over 30 s on a loaded CI machine.
      test.setTimeout(60_000);
      await page.goto('/settings');
      for (const tab of ['profile', 'notifications', 'security', 'preferences', 'scan-traffic'] as const) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        await expect(page.getByTestId(`settings-panel-${tab}`)).toBeVisible();
        await check(page, `settings-${tab}-${theme}`);
      }
      await page.getByTestId('settings-tab-profile').click();
      await page.getByTestId('settings-firstName').fill('A');
      await page.getByTestId('settings-website_url').fill('example.com');
      await page.getByTestId('settings-profile-save').click();
      await expect(page.getByTestId('settings-error')).toBeVisible();
      await check(page, `settings-profile-errors-${theme}`);
      await page.getByTestId('settings-tab-security').click();
      await page.getByTestId('password-new').fill('short');
      await page.getByTestId('password-save').click();
      await expect(page.getByTestId('password-current-error')).toBeVisible();
      await check(page, `settings-security-errors-${theme}`);
    });

    test('API management without APIs', async ({ page }) => {
      await page.goto('/manage-apis');
      await expect(page.getByTestId('apis-empty')).toBeVisible();
      await check(page, `manage-apis-empty-${theme}`);
      await page.getByTestId('import-button').click();
      await expect(page.getByTestId('import-modal')).toBeVisible();
      await check(page, `modal-import-${theme}`);
    });

    test('small screens: home, dashboard, API management', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/home');
      await expect(page.getByTestId('home-page')).toBeVisible();
      await expectNoSeriousViolations(page);
      await shoot(page, `home-mobile-${theme}`);
      await page.goto('/dashboard');
      await expect(page.getByTestId('weekly-chart')).toBeVisible();
      await shoot(page, `dashboard-mobile-${theme}`);
      await page.goto('/settings');
      await expect(page.getByTestId('settings-panel-profile')).toBeVisible();
      await shoot(page, `settings-mobile-${theme}`);
    });
  });
}
