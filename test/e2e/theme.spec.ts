// Dark/light theme: the first visit follows the system, a choice is stored as darkMode and survives
// reloads, and the change is animated.

import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../shared/constants';
import { expect, test } from './fixtures';

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const stored = (page: Page) =>
  page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.darkMode);

test.describe('first visit, system prefers dark', () => {
  test.use({ colorScheme: 'dark' });
  test('follows the system preference without storing a choice', async ({ page }) => {
    await page.goto('/landing');
    await expect(page.getByTestId('landing-page')).toBeVisible();
    expect(await theme(page)).toBe('dark');
    expect(await stored(page)).toBeNull();
  });
});

test.describe('first visit, system prefers light', () => {
  test.use({ colorScheme: 'light' });

  test('starts light; the choice persists across reloads and pages', async ({ page }) => {
    await page.goto('/landing');
    await expect(page.getByTestId('landing-page')).toBeVisible();
    expect(await theme(page)).toBe('light');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lightBackground = await background();

    // Record the transition class as it comes and goes: a busy machine can miss a 300 ms window by polling.
    await page.evaluate(() => {
      const w = window as unknown as { __transition: { on?: number; off?: number } };
      w.__transition = {};
      new MutationObserver(() => {
        const has = document.documentElement.classList.contains('theme-transition');
        if (has && w.__transition.on === undefined) w.__transition.on = performance.now();
        if (!has && w.__transition.on !== undefined && w.__transition.off === undefined) w.__transition.off = performance.now();
      }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    });
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // The colours fade for 300 ms, then the transition class goes away.
    const transition = () => page.evaluate(() => (window as unknown as { __transition: { on?: number; off?: number } }).__transition);
    await expect.poll(async () => (await transition()).off !== undefined).toBe(true);
    const { on, off } = await transition();
    expect(off! - on!).toBeGreaterThanOrEqual(250);
    await expect(page.locator('html')).not.toHaveClass(/theme-transition/);
    // On a busy machine the fade's last frame can lag the class: the colour settles on dark, however late.
    await expect.poll(background).not.toBe(lightBackground);
    expect(await stored(page)).toBe('true');

    await page.reload();
    await expect(page.getByTestId('landing-page')).toBeVisible();
    expect(await theme(page)).toBe('dark');
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('aria-label', 'Switch to light theme');

    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await stored(page)).toBe('false');
    await page.reload();
    await expect(page.getByTestId('login-page')).toBeVisible();
    expect(await theme(page)).toBe('light');
  });
});
