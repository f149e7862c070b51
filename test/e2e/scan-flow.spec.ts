// The scan flow's rules and failure texts (spec sections 4 and 8) with server answers shaped by the
// test: New Scan disabled for local APIs without local scans (and when the environment check fails),
// create and start failures, polling every 5000 ms, a failed scan, a polling error, a failed bulk skip.

import type { Page, Route } from '@playwright/test';
import { DELAYS } from '../../shared/constants';
import { API_MESSAGES, FALLBACK_MESSAGES, SCAN_MESSAGES } from '../../shared/messages';
import { createAccount, expect, signInByStorage, test } from './fixtures';

const apiSummary = (id: string, name: string, baseUrl: string) => ({
  id,
  name,
  base_url: baseUrl,
  created_at: '2026-11-01T08:00:00.000Z',
  imported_on: '2026-11-01T08:00:00.000Z',
  permission: 'owner',
  owner_name: 'Ada Lovelace',
  scanStatus: 'Ready',
  lastScanned: 'Never',
  vulnerabilitiesFound: 0,
  status: 'Active',
  source_format: 'openapi-3.0',
  endpoint_count: 2,
});

const LOCAL = apiSummary('local', 'Local API', 'http://localhost:8080/api');
const REMOTE = apiSummary('remote', 'Remote API', 'https://api.example.com');

const ENDPOINTS = [
  { id: 'e1', method: 'GET', path: '/users/{id}', summary: 'A user', flags: ['BOLA', 'SEC_MISC'] },
  { id: 'e2', method: 'DELETE', path: '/users/{id}', summary: 'Delete a user', flags: ['BFLA', 'SEC_MISC'] },
];

const ok = (data: unknown, message = 'OK') => ({ json: { success: true, message, data } });
const fail = (status: number, message: string) => ({ status, json: { success: false, message } });

async function mockBase(page: Page, localScans: boolean | 'fail'): Promise<string[]> {
  const calls: string[] = [];
  await page.route('**/api/apis?*', (route) => route.fulfill(ok({ apis: [LOCAL, REMOTE] })));
  await page.route('**/api/environment', (route) =>
    localScans === 'fail' ? route.fulfill(fail(500, '')) : route.fulfill(ok({ isDocker: false, localScans })),
  );
  await page.route('**/api/endpoints', (route) => route.fulfill(ok({ endpoints: ENDPOINTS })));
  await page.route('**/api/scan/create', (route) => {
    calls.push('create');
    return route.fulfill(ok({ scan_id: 'scan-1' }, 'Scan created'));
  });
  return calls;
}

async function toFlags(page: Page, apiName = 'Remote API'): Promise<void> {
  await page.locator(`[data-testid="api-card"][data-api-name="${apiName}"]`).getByTestId('new-scan').click();
  await page.getByTestId('scan-key1').fill('key-one');
  await page.getByTestId('scan-next').click();
  await expect(page.getByTestId('flags-row')).toHaveCount(2);
}

const remoteCard = (page: Page) => page.locator('[data-testid="api-card"][data-api-name="Remote API"]');

test.describe('scan flow', () => {
  test.beforeEach(async ({ page, request }) => {
    await signInByStorage(page, request, await createAccount(request));
  });

  test('local APIs cannot be scanned where local scans are off; the others can', async ({ page }) => {
    await mockBase(page, false);
    await page.goto('/manage-apis');
    const local = page.locator('[data-testid="api-card"][data-api-name="Local API"]');
    await expect(local.getByTestId('local-badge')).toHaveText('LOCAL');
    await expect(local.getByTestId('new-scan')).toBeDisabled();
    await expect(local.getByTestId('new-scan-tooltip')).toHaveAttribute('title', SCAN_MESSAGES.localDisabled);
    await expect(remoteCard(page).getByTestId('local-badge')).toHaveCount(0);
    await expect(remoteCard(page).getByTestId('new-scan')).toBeEnabled();
    await expect(remoteCard(page).getByTestId('new-scan-tooltip')).toHaveAttribute('title', SCAN_MESSAGES.startNew);
  });

  test('a failed environment check says so and treats local scans as off', async ({ page }) => {
    await mockBase(page, 'fail');
    await page.goto('/manage-apis');
    await expect(page.getByTestId('environment-error')).toHaveText(FALLBACK_MESSAGES.fetchEnvironment);
    await expect(page.locator('[data-testid="api-card"][data-api-name="Local API"]').getByTestId('new-scan')).toBeDisabled();
    await expect(remoteCard(page).getByTestId('new-scan')).toBeEnabled();
  });

  test('a refused create shows "Could not create scan: ..." and stays on Configure Scan', async ({ page }) => {
    await mockBase(page, true);
    await page.route('**/api/scan/create', (route) => route.fulfill(fail(403, 'Scans for local APIs are disabled in this environment')));
    await page.goto('/manage-apis');
    await remoteCard(page).getByTestId('new-scan').click();
    await page.getByTestId('scan-key1').fill('key-one');
    await page.getByTestId('scan-next').click();
    await expect(page.getByTestId('scan-config-error')).toHaveText(API_MESSAGES.createScanError('Scans for local APIs are disabled in this environment'));
    await expect(page.getByTestId('configure-scan-modal')).toBeVisible();
  });

  test('a refused start: "Failed to start scan: ..." and the running mark cleared', async ({ page }) => {
    await mockBase(page, true);
    await page.route('**/api/scan/start', (route) => route.fulfill(fail(409, SCAN_MESSAGES.anotherInProgress)));
    await page.goto('/manage-apis');
    await toFlags(page);
    await page.getByTestId('start-scan').click();
    await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.startFailed(SCAN_MESSAGES.anotherInProgress));
    await expect(remoteCard(page).getByTestId('status-pill')).toHaveText('Ready');
    await expect(remoteCard(page).getByTestId('new-scan')).toBeEnabled();
  });

  test('details are polled every 5000 ms with a live progress bar; a failed scan reports the same text as an error', async ({ page }) => {
    await page.clock.install();
    await mockBase(page, true);
    const polls: number[] = [];
    let answer = (route: Route) =>
      route.fulfill(ok({ scan_id: 'scan-1', api_id: 'remote', status: 'running', results: { scan_info: { progress: { done: 3, total: 12 } }, results: [] } }));
    await page.route('**/api/scan/start', (route) => route.fulfill(ok({ scan_id: 'scan-1', status: 'running' }, 'Scan started')));
    await page.route('**/api/scan/details', async (route) => {
      polls.push(await page.evaluate(() => Date.now()));
      return answer(route);
    });
    await page.goto('/manage-apis');
    await toFlags(page);
    await page.getByTestId('start-scan').click();
    await expect(remoteCard(page).getByTestId('status-pill')).toHaveText('Scanning...');
    // Every New Scan is disabled while a scan runs.
    await expect(page.locator('[data-testid="api-card"][data-api-name="Local API"]').getByTestId('new-scan-tooltip')).toHaveAttribute(
      'title',
      SCAN_MESSAGES.anotherInProgress,
    );
    await page.clock.fastForward(DELAYS.scanPollIntervalMs - 100);
    expect(polls).toHaveLength(0);
    await page.clock.fastForward(100);
    await expect.poll(() => polls.length).toBe(1);
    await expect(remoteCard(page).getByTestId('scan-progress-bar')).toHaveAttribute('aria-valuenow', '25');
    await expect(remoteCard(page).getByTestId('scan-progress')).toContainText('3 of 12 checks');
    answer = (route) =>
      route.fulfill(ok({ scan_id: 'scan-1', api_id: 'remote', status: 'failed', results: { scan_info: { progress: { done: 4, total: 12 } }, results: [] } }));
    await page.clock.fastForward(DELAYS.scanPollIntervalMs);
    await expect.poll(() => polls.length).toBe(2);
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(DELAYS.scanPollIntervalMs);
    await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.finished('Remote API'));
    await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'error');
    await expect(remoteCard(page).getByTestId('scan-progress')).toHaveCount(0);
    await page.clock.fastForward(DELAYS.scanPollIntervalMs * 2);
    expect(polls).toHaveLength(2);
  });

  test('a polling error stops polling with "Error polling scan results: ..."', async ({ page }) => {
    await page.clock.install();
    await mockBase(page, true);
    let polls = 0;
    await page.route('**/api/scan/start', (route) => route.fulfill(ok({ scan_id: 'scan-1', status: 'running' })));
    await page.route('**/api/scan/details', (route) => {
      polls += 1;
      return route.fulfill(fail(500, 'Something went wrong on our side. Please try again.'));
    });
    await page.goto('/manage-apis');
    await toFlags(page);
    await page.getByTestId('start-scan').click();
    await page.clock.fastForward(DELAYS.scanPollIntervalMs);
    await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.pollingError('Something went wrong on our side. Please try again.'));
    await page.clock.fastForward(DELAYS.scanPollIntervalMs * 2);
    expect(polls).toBe(1);
  });

  test('a failed bulk skip says "Failed to update all flags: ..."', async ({ page }) => {
    await mockBase(page, true);
    await page.route('**/api/endpoints/flags/bulk', (route) => route.fulfill(fail(403, 'You do not have permission to perform this action.')));
    await page.goto('/manage-apis');
    await toFlags(page);
    await page.getByTestId('skip-all').click();
    await expect(page.getByTestId('flags-message')).toHaveText(API_MESSAGES.allFlagsError('You do not have permission to perform this action.'));
  });
});
