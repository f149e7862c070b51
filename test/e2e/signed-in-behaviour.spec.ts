// Behaviour of the signed-in screens (spec section 2): the greeting by hour, the dashboard's figures,
// chart scale and texts, the documentation's quick actions and one-at-a-time FAQ, and the shell.

import type { Page } from '@playwright/test';
import { DASHBOARD_MESSAGES, LOGIN_MESSAGES } from '../../shared/messages';
import { createAccount, expect, signInByStorage, test } from './fixtures';

const OVERVIEW = {
  total_apis: 3,
  total_scans: 9,
  total_vulnerabilities: 14,
  critical_vulnerabilities: 2,
  scan_activity_weekly: [
    { day: '2026-11-15', scans: 0, vulnerabilities: 0 },
    { day: '2026-11-16', scans: 2, vulnerabilities: 8 },
    { day: '2026-11-17', scans: 1, vulnerabilities: 2 },
    { day: '2026-11-18', scans: 0, vulnerabilities: 0 },
    { day: '2026-11-19', scans: 4, vulnerabilities: 4 },
    { day: '2026-11-20', scans: 1, vulnerabilities: 0 },
    { day: '2026-11-21', scans: 1, vulnerabilities: 0 },
  ],
  top_vuln_types: [
    { type: 'Broken Object Level Authorization', count: 6, severity: 'high' },
    { type: 'Security headers missing', count: 3, severity: 'low' },
  ],
  recent_scans: [{ id: 's1', apiName: 'Billing API', date: '2026-11-21T09:30:00.000Z', status: 'completed', vulnerabilities: 4 }],
};

async function barHeights(page: Page, testId: string): Promise<number[]> {
  return page.getByTestId(testId).evaluateAll((bars) =>
    bars.map((b) => Math.round((b.getBoundingClientRect().height / b.parentElement!.getBoundingClientRect().height) * 100)),
  );
}

test.describe('signed-in screens', () => {
  test.beforeEach(async ({ page, request }) => {
    await signInByStorage(page, request, await createAccount(request));
  });

  for (const [hour, text] of [
    [9, 'Good morning'],
    [14, 'Good afternoon'],
    [20, 'Good evening'],
  ] as const) {
    test(`home greets by the hour: ${hour}:00 is "${text}"`, async ({ page }) => {
      await page.clock.setFixedTime(new Date(2026, 10, 21, hour, 5));
      await page.goto('/home');
      await expect(page.getByTestId('home-greeting')).toHaveText(`${text}, Ada Lovelace`);
      await expect(page.getByTestId('home-steps').locator('li')).toHaveCount(4);
      await page.getByTestId('quick-reports').click();
      await expect(page).toHaveURL(/\/manage-apis$/);
    });
  }

  test('dashboard: figures, scans and vulnerabilities each scaled to their own largest value, top types and recent scans', async ({ page }) => {
    await page.route('**/api/dashboard/overview?*', (route) => route.fulfill({ json: { success: true, message: 'Dashboard loaded', data: OVERVIEW } }));
    await page.goto('/dashboard');
    await expect(page.getByTestId('stat-total-apis-value')).toHaveText('3');
    await expect(page.getByTestId('stat-total-scans-value')).toHaveText('9');
    await expect(page.getByTestId('stat-vulnerabilities-value')).toHaveText('14');
    await expect(page.getByTestId('stat-critical-value')).toHaveText('2');
    // Two scales, each labelled: vulnerabilities up to 8, scans up to 4 (not flattened to 8's scale).
    await expect(page.getByTestId('weekly-chart')).toHaveAttribute('data-max-vulns', '8');
    await expect(page.getByTestId('weekly-chart')).toHaveAttribute('data-max-scans', '4');
    await expect(page.getByTestId('chart-max-vulns')).toHaveText('up to 8 vulnerabilities');
    await expect(page.getByTestId('chart-max-scans')).toHaveText('up to 4 scans');
    expect(await barHeights(page, 'bar-vulns')).toEqual([0, 100, 25, 0, 50, 0, 0].map((h) => (h === 0 ? expect.any(Number) : h)));
    expect(await barHeights(page, 'bar-scans')).toEqual([expect.any(Number), 50, 25, expect.any(Number), 100, 25, 25]);
    // A full bar's value is written above it, clear of the scales' "up to" labels over the chart.
    const labelBottoms = await Promise.all(
      ['chart-max-scans', 'chart-max-vulns'].map(async (id) => {
        const box = (await page.getByTestId(id).boundingBox())!;
        return box.y + box.height;
      }),
    );
    for (const [id, max] of [['bar-vulns', 8], ['bar-scans', 4]] as const) {
      const value = (await page.getByTestId(id).and(page.locator(`[data-value="${max}"]`)).locator('.chart-bar-value').boundingBox())!;
      expect(value.y, `the value on the full ${id}`).toBeGreaterThanOrEqual(Math.max(...labelBottoms));
    }
    await expect(page.getByTestId('top-types').locator('li')).toHaveCount(2);
    await expect(page.getByTestId('top-type').first()).toHaveAttribute('data-severity', 'high');
    await expect(page.getByTestId('top-type').first()).toContainText('High');
    await expect(page.getByTestId('recent-scan')).toContainText('Billing API');
    await expect(page.getByTestId('recent-scan')).toContainText('Completed');
    await expect(page.getByTestId('recent-scan')).toContainText('4 vulnerabilities');
    await page.getByTestId('recent-manage-link').click();
    await expect(page).toHaveURL(/\/manage-apis$/);
  });

  test('dashboard: all zero keeps a scale of 1; empty texts', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page.getByTestId('weekly-chart')).toHaveAttribute('data-max-scans', '1');
    await expect(page.getByTestId('weekly-chart')).toHaveAttribute('data-max-vulns', '1');
    await expect(page.getByTestId('top-types-empty')).toHaveText(DASHBOARD_MESSAGES.noVulnerabilities);
    await expect(page.getByTestId('recent-empty')).toHaveText(DASHBOARD_MESSAGES.noRecentScans);
  });

  test('dashboard: a load failure shows its reason', async ({ page }) => {
    await page.route('**/api/dashboard/overview?*', (route) => route.fulfill({ status: 500, json: { success: false, message: 'Database unavailable' } }));
    await page.goto('/dashboard');
    await expect(page.getByTestId('dashboard-error')).toHaveText(DASHBOARD_MESSAGES.loadFailed('Database unavailable'));
    await page.unroute('**/api/dashboard/overview?*');
    await page.route('**/api/dashboard/overview?*', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    await page.reload();
    await expect(page.getByTestId('dashboard-error')).toHaveText(DASHBOARD_MESSAGES.loadFailed(DASHBOARD_MESSAGES.loadFailedGeneric));
  });

  test('documentation: quick actions scroll to their sections; the FAQ opens one item at a time', async ({ page }) => {
    await page.goto('/documentation');
    for (const id of ['faq', 'troubleshooting', 'advanced-features', 'getting-started']) {
      await page.getByTestId(`doc-quick-${id}`).click();
      await expect(page.getByTestId(`doc-section-${id}`)).toBeInViewport();
    }
    const questions = page.getByTestId('faq-question');
    await expect(questions).toHaveCount(6);
    await questions.nth(0).click();
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');
    await questions.nth(3).click();
    await expect(questions.nth(3)).toHaveAttribute('aria-expanded', 'true');
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('faq-answer').filter({ visible: true })).toHaveCount(1);
    await questions.nth(3).click();
    await expect(page.getByTestId('faq-answer').filter({ visible: true })).toHaveCount(0);
    // Guides carry difficulty and read time and open at /guide/{id}.
    const card = page.getByTestId('guide-card-two-key-testing');
    await expect(card.getByTestId('guide-difficulty')).toHaveText('Intermediate');
    await expect(card.getByTestId('guide-read-time')).toContainText('min read');
    await card.click();
    await expect(page).toHaveURL(/\/guide\/two-key-testing$/);
    await expect(page.getByTestId('guide-title')).toHaveText('Authorization testing with two keys');
    await page.getByTestId('guide-back').click();
    await expect(page).toHaveURL(/\/documentation$/);
  });

  test('shell: initial and full name, footer links, the theme toggle, and Logout asks first', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByTestId('user-initial')).toHaveText('AL');
    await expect(page.getByTestId('user-name')).toHaveText('Ada Lovelace');
    const footer = page.getByRole('contentinfo');
    for (const [name, href] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Documentation', '/documentation'],
      ['Contact', '/contact'],
    ] as const) {
      await expect(footer.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    const before = (await page.locator('html').getAttribute('data-theme')) ?? 'light';
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', before);
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.getByTestId('logout-button').click();
    await page.waitForURL('**/login');
    expect(asked).toEqual([LOGIN_MESSAGES.logoutConfirm]);
  });
});
