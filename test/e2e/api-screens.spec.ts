// API management with real data, in light and dark: the list, a card while it scans, the dashboard
// after a scan, and every modal — each checked with axe (no serious or critical violation) and shot
// to test-results/screenshots/. The data is made through the API: an import of the test target, a
// quick scan with two keys, a share.

import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { api, apiLogin, createAccount, expect, importTarget, newAccount, signInByStorage, target, test, type Account } from './fixtures';

const QUICK_SCAN = ['GET /me', 'GET /documents/download', 'GET /orders/{orderId}', 'POST /invoices/lookup', 'GET /notes/{noteId}'];

interface Seed {
  owner: Account;
  viewer: Account;
  apiId: string;
}

/** An owner with the target imported and scanned (five endpoints), shared with a viewer (View). */
async function seed(request: APIRequestContext): Promise<Seed> {
  const t = target();
  const owner = await createAccount(request);
  const viewer = await createAccount(request, { ...newAccount(), firstName: 'Vera', lastName: 'Viewer' });
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, QUICK_SCAN);
  await api(request, token, 'POST', '/api/scan/create', {
    api_id: apiId,
    scan_profile: 'OWASP_API_10',
    api_key_1: t.users.alice.key,
    api_key_2: t.users.bob.key,
  });
  const { scan_id } = await api<{ scan_id: string }>(request, token, 'POST', '/api/scan/start', { api_id: apiId, scan_profile: 'OWASP_API_10' });
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'POST', '/api/scan/details', { scan_id })).status, { timeout: 60_000 })
    .toBe('completed');
  await api(request, token, 'POST', '/api/apis/share', { api_id: apiId, email: viewer.email, permission: 'read' });
  return { owner, viewer, apiId };
}

let data: Seed;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  data = await seed(request);
});

async function openManage(page: Page): Promise<void> {
  await page.goto('/manage-apis');
  await expect(page.getByTestId('api-card').first()).toBeVisible();
}

async function check(page: Page, name: string, fullPage = false): Promise<void> {
  await expectNoSeriousViolations(page);
  await shoot(page, name, fullPage);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`API management screens, ${theme} theme`, () => {
    test.use({ colorScheme: theme, reducedMotion: 'reduce' });

    test('list, dashboard with data, and the owner modals', async ({ page, request }) => {
      test.setTimeout(120_000);
      const problems = watchConsole(page);
      await signInByStorage(page, request, data.owner);
      await page.goto('/dashboard');
      await expect(page.getByTestId('recent-scan').first()).toBeVisible();
      await check(page, `dashboard-data-${theme}`, true);

      await openManage(page);
      await check(page, `manage-apis-${theme}`, true);
      const card = page.getByTestId('api-card').first();

      await card.getByTestId('endpoints-button').click();
      await expect(page.getByTestId('endpoint-row').first()).toBeVisible();
      await check(page, `modal-endpoints-${theme}`);
      await page.getByTestId('modal-close').click();

      await card.getByTestId('new-scan').click();
      await page.getByTestId('scan-key1').fill('example-primary-key');
      await page.getByTestId('scan-key2').fill('example-secondary-key');
      await check(page, `modal-configure-scan-${theme}`);
      // The keys typed above carry over as two static identities.
      await page.getByTestId('scan-mode-identities').click();
      await expect(page.getByTestId('identity-card')).toHaveCount(2);
      await expect(page.getByTestId('identity-name').nth(1)).toHaveValue('key 2');
      await check(page, `modal-configure-scan-identities-${theme}`);
      await page.getByTestId('modal-close').click();

      await card.getByTestId('history-button').click();
      await expect(page.getByTestId('history-row').first()).toBeVisible();
      await check(page, `modal-history-${theme}`);
      // View Report is a link to the scan page (its audits are in scan-page.spec.ts and report.spec.ts).
      await expect(page.getByTestId('history-row').first().getByTestId('open-scan-page')).toHaveAttribute('href', /^\/scans\//);
      await page.getByTestId('modal-close').click();

      await card.getByTestId('manage-button').click();
      await expect(page.getByTestId('manage-owner-modal')).toBeVisible();
      await check(page, `modal-manage-owner-${theme}`);
      await page.getByTestId('manage-edit').click();
      await expect(page.getByTestId('edit-api-modal')).toBeVisible();
      await check(page, `modal-edit-api-${theme}`);
      await page.getByTestId('modal-close').click();

      await card.getByTestId('manage-button').click();
      await page.getByTestId('manage-share').click();
      await expect(page.getByTestId('share-row').first()).toBeVisible();
      await check(page, `modal-share-${theme}`);
      await page.getByTestId('modal-close').click();

      await card.getByTestId('manage-button').click();
      await page.getByTestId('manage-schedule').click();
      await expect(page.getByTestId('schedule-chooser')).toBeVisible();
      await check(page, `modal-schedule-${theme}`);
      await page.getByTestId('schedule-monthly').check();
      await page.getByTestId('schedule-save').click();
      await expect(page.getByTestId('schedule-enabled')).toBeVisible();
      await check(page, `modal-schedule-enabled-${theme}`);
      await page.getByTestId('schedule-disable').click();
      await expect(page.getByTestId('schedule-chooser')).toBeVisible();
      await page.getByTestId('modal-close').click();

      await page.getByTestId('import-button').click();
      await page.getByTestId('import-file').setInputFiles({
        name: 'inventory.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ openapi: '3.0.3', info: { title: `Inventory ${theme}`, version: '1' }, paths: { '/items/{id}': { get: { responses: { 200: { description: 'ok' } } } } } })),
      });
      await page.getByTestId('import-submit').click();
      await expect(page.getByTestId('import-warning').first()).toBeVisible();
      await check(page, `modal-import-warnings-${theme}`);
      await page.getByTestId('import-done').click();

      // The flags dialog, opened from a real Configure Scan of the imported API.
      await page.getByTestId('api-search').fill('Acme');
      await card.getByTestId('new-scan').click();
      await page.getByTestId('scan-key1').fill(target().users.alice.key);
      await page.getByTestId('scan-next').click();
      await expect(page.getByTestId('flags-row').first()).toBeVisible();
      await check(page, `modal-flags-${theme}`);
      await page.getByTestId('modal-close').click();
      expect(problems).toEqual([]);
    });

    test('a card while its scan runs, with the live progress bar', async ({ page, request }) => {
      await signInByStorage(page, request, data.owner);
      // The server's answers of a scan halfway through.
      await page.route('**/api/apis?*', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { data: { apis: Record<string, unknown>[] } };
        body.data.apis = body.data.apis.map((a) => (a.id === data.apiId ? { ...a, scanStatus: 'Running' } : a));
        await route.fulfill({ response: res, json: body });
      });
      await page.route('**/api/scan/list?*', (route) =>
        route.fulfill({ json: { success: true, message: 'OK', data: { scans: [{ id: 'scan-running', api_id: data.apiId, status: 'running' }] } } }),
      );
      await page.route('**/api/scan/details', (route) =>
        route.fulfill({
          json: {
            success: true,
            message: 'OK',
            data: { scan_id: 'scan-running', api_id: data.apiId, status: 'running', results: { scan_info: { progress: { done: 13, total: 39 } }, results: [] } },
          },
        }),
      );
      await page.clock.install();
      await openManage(page);
      const card = page.locator(`[data-testid="api-card"][data-api-id="${data.apiId}"]`);
      await expect(card.getByTestId('status-pill')).toHaveText('Scanning...');
      await page.clock.fastForward(5_000);
      await expect(card.getByTestId('scan-progress-bar')).toHaveAttribute('aria-valuenow', '33');
      await expect(card.getByTestId('new-scan')).toBeDisabled();
      await check(page, `manage-apis-scanning-${theme}`);
    });

    test('an API typed by hand', async ({ page, request }) => {
      await signInByStorage(page, request, data.owner);
      await openManage(page);
      await page.getByTestId('import-button').click();
      await page.getByTestId('import-mode-manual').click();
      await page.getByTestId('manual-endpoints').fill('GET /payments/{id} A payment\nthis is not an endpoint');
      await page.getByTestId('manual-submit').click();
      await expect(page.getByTestId('manual-name-error')).toBeVisible();
      await expect(page.getByTestId('manual-endpoints-error')).toContainText('Line 2');
      await check(page, `modal-manual-api-${theme}`);
      const name = `Payments ${theme}`;
      await page.getByTestId('manual-name').fill(name);
      await page.getByTestId('manual-base-url').fill('https://payments.example.com/v1');
      await page.getByTestId('manual-endpoints').fill('GET /payments/{id} A payment\nPOST /payments Pay');
      await page.getByTestId('manual-submit').click();
      await expect(page.getByTestId('import-modal')).toHaveCount(0);
      await expect(page.getByTestId('notice')).toBeVisible();
      const card = page.locator(`[data-testid="api-card"][data-api-name="${name}"]`);
      await expect(card).toContainText('https://payments.example.com/v1');
      await card.getByTestId('endpoints-button').click();
      await expect(page.getByTestId('endpoint-row')).toHaveCount(2);
    });

    test('the shared user: card and Manage Shared', async ({ page, request }) => {
      await signInByStorage(page, request, data.viewer);
      await openManage(page);
      await expect(page.getByTestId('shared-by')).toBeVisible();
      await check(page, `manage-apis-shared-${theme}`);
      await page.getByTestId('manage-button').click();
      await expect(page.getByTestId('manage-shared-modal')).toBeVisible();
      await check(page, `modal-manage-shared-${theme}`);
    });
  });
}
