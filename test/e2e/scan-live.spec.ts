// Live scans (issue 17 item 3) against `portcullis serve` and the vulnerable test target: a real scan,
// paced so it runs for a while, shows its live header (progress, current check and endpoint, requests,
// rate, time left) and its findings on the scan page before it ends; cancelled, the page shows the
// reason with Retry. A scan of an address nothing answers on fails: its reason shows on the page, on
// the API's card and in History, and Retry runs it again (its finish notice links to the new page).
// Light and dark screenshots of both.

import net from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { SCAN_MESSAGES } from '../../shared/messages';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { api, apiLogin, createAccount, expect, importTarget, serverUrl, setTheme, signInByStorage, target, test, type Account } from './fixtures';

/** Creates and starts a scan with both keys; `rps` paces it. */
async function startScan(request: APIRequestContext, token: string, apiId: string, rps: number): Promise<string> {
  const { alice, bob } = target().users;
  const { scan_id } = await api<{ scan_id: string }>(request, token, 'POST', '/api/scan/create', {
    api_id: apiId,
    scan_profile: 'OWASP_API_10',
    api_key_1: alice.key,
    api_key_2: bob.key,
    rps,
  });
  await api(request, token, 'POST', '/api/scan/start', { api_id: apiId, scan_id });
  return scan_id;
}

const status = async (request: APIRequestContext, token: string, scanId: string) =>
  (await api<{ status: string }>(request, token, 'POST', '/api/scan/details', { scan_id: scanId })).status;

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('a running scan shows its live header and its findings before it ends; cancelled, its reason and Retry', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const owner: Account = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token);
  // The whole target at 15 requests a second: a scan of a minute or more.
  const scanId = await startScan(request, token, apiId, 15);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signInByStorage(page, request, owner);
  await page.goto(`/scans/${scanId}`);
  const live = page.getByTestId('scan-live');
  await expect(live).toBeVisible();
  await expect(page.getByTestId('scan-live-progress')).toBeVisible();

  // Findings appear while the scan still runs.
  await expect(page.getByTestId('finding-row').first()).toBeVisible({ timeout: 60_000 });
  await expect(live).toBeVisible();
  expect(await status(request, token, scanId)).toBe('running');
  await expect(page.getByTestId('scan-live-check')).not.toBeEmpty();
  await expect(page.getByTestId('scan-live-rate')).toHaveText(/^\d+(\.\d)? req\/s$/);
  await expect(page.getByTestId('scan-live-eta')).toHaveText(/^(about \d+ (s|min|h)( \d+ min)?|less than a second)$/);
  expect(Number(await page.getByTestId('scan-live-requests').textContent())).toBeGreaterThan(0);
  const progress = page.getByTestId('scan-live-progress');
  expect(Number(await progress.getAttribute('data-done'))).toBeGreaterThan(0);
  expect(Number(await progress.getAttribute('data-total'))).toBeGreaterThan(Number(await progress.getAttribute('data-done')));
  // The tab's count follows the findings as they come.
  const firstCount = Number(await page.getByTestId('scan-total').textContent());
  expect(firstCount).toBeGreaterThan(0);

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await expectNoSeriousViolations(page);
    await shoot(page, `scan-live-running-${theme}`, false);
  }
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 900, height: 800 });
  await shoot(page, 'scan-live-running-900-light', false);
  // On a 900x900 laptop window the tree shows beside the live header, and the scan can be cancelled.
  await page.setViewportSize({ width: 900, height: 900 });
  const tree = (await page.getByTestId('finding-list').boundingBox())!;
  expect(tree.y).toBeLessThan(900 - 120);
  await expect(page.getByTestId('scan-cancel')).toBeEnabled();
  await page.setViewportSize({ width: 1280, height: 800 });
  // The API card's "Latest scan" opens the scan that runs now.
  await page.goto(`/apis/${apiId}/latest-scan`);
  await expect(page).toHaveURL(new RegExp(`/scans/${scanId}(\\?|$)`));
  await expect(live).toBeVisible();

  // Cancelled from elsewhere: the page reads the final state by itself.
  await api(request, token, 'POST', '/api/scan/cancel', { scan_id: scanId });
  const failure = page.getByTestId('scan-failure');
  await expect(failure).toBeVisible({ timeout: 10_000 });
  await expect(live).toBeHidden();
  await expect(page.getByTestId('scan-failure-reason')).toHaveText('The scan was cancelled: Cancelled by the user.');
  await expect(page.getByTestId('scan-retry')).toBeEnabled();
  expect(Number(await page.getByTestId('scan-total').textContent())).toBeGreaterThanOrEqual(firstCount);
  expect(problems).toEqual([]);
});

test('a failed scan shows its reason on the page, the card and in History; Retry runs it again', async ({ page, request }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  const owner: Account = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token);
  await api(request, token, 'PUT', '/api/apis/update', { api_id: apiId, updates: { base_url: `http://127.0.0.1:${await closedPort()}` } });
  const scanId = await startScan(request, token, apiId, 0);
  await expect.poll(() => status(request, token, scanId), { timeout: 30_000 }).toBe('failed');
  const reason = (await api<{ results: { scan_info: { failure_reason: string } } }>(request, token, 'POST', '/api/scan/details', { scan_id: scanId })).results.scan_info
    .failure_reason;
  expect(reason).toMatch(/\S/);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signInByStorage(page, request, owner);
  await page.goto(`/scans/${scanId}`);
  await expect(page.getByTestId('scan-failure-reason')).toHaveText(`The scan failed: ${reason}`);
  await expect(page.getByTestId('scan-live')).toBeHidden();
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await expect(page.getByTestId('scan-retry')).toBeEnabled();
    await expectNoSeriousViolations(page);
    await shoot(page, `scan-live-failed-${theme}`, false);
  }
  await setTheme(page, 'light');

  // Retry: a new scan with the same configuration, on its own page; it fails the same way and its notice links to it.
  const name = await apiName(request, token, apiId);
  await page.getByTestId('scan-retry').click();
  await expect(page).not.toHaveURL(new RegExp(`/scans/${scanId}(\\?|$)`));
  const nextId = new URL(page.url()).pathname.split('/').pop()!;
  expect(nextId).toMatch(/\S/);
  await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.finished(name), { timeout: 30_000 });
  await expect(page.getByTestId('notice-link')).toHaveAttribute('href', `/scans/${nextId}`);
  await expect(page.getByTestId('scan-failure-reason')).toHaveText(`The scan failed: ${reason}`);
  expect(await status(request, token, nextId)).toBe('failed');

  // The card and History.
  await page.goto('/manage-apis');
  const card = page.locator(`[data-testid="api-card"][data-api-id="${apiId}"]`);
  await expect(card.getByTestId('last-failure-reason')).toHaveText(`Last scan failed: ${reason}`);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await shoot(page, `scan-live-card-failed-${theme}`, false);
    await card.getByTestId('history-button').click();
    const rows = page.getByTestId('history-failed-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-scan-id', nextId);
    await expect(rows.first().getByTestId('history-failure-reason')).toHaveText(reason);
    await expectNoSeriousViolations(page);
    await shoot(page, `scan-live-history-failed-${theme}`, false);
    await page.getByTestId('modal-close').click();
  }
  expect(problems).toEqual([]);
});

async function apiName(request: APIRequestContext, token: string, apiId: string): Promise<string> {
  const res = await request.get(`${serverUrl()}/api/apis`, { headers: { authorization: `Bearer ${token}` } });
  const { data } = (await res.json()) as { data: { apis: { id: string; name: string }[] } };
  return data.apis.find((a) => a.id === apiId)!.name;
}
