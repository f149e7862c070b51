// A scan's traffic from the scan page (issue 27): a real scan of three operations of the vulnerable
// target, then "Download traffic (HAR)" saves a file named like the reports that parses as HAR 1.2 with
// one entry per request the scan sent, the keys only as their labels; and Chromium takes it as a
// recording: a page whose requests are answered from the HAR (Playwright's routeFromHAR) gets the
// target's answer as the scan saw it.

import fs from 'node:fs';
import type { Har } from 'har-format';
import { SCAN_TRAFFIC_MESSAGES } from '../../shared/scan-traffic';
import { apiLogin, createAccount, expect, importTarget, postAs, signInByStorage, target, test } from './fixtures';

const OPERATIONS = ['GET /me', 'GET /orders/{orderId}', 'GET /notes/{noteId}'];

test('the scan page downloads the scan traffic as a HAR that Chromium replays', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(90_000);
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, OPERATIONS);
  const { alice, bob } = target().users;
  await postAs(request, token, '/api/scan/create', { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: alice.key, api_key_2: bob.key, rps: 0 });
  const { scan_id } = await postAs<{ scan_id: string }>(request, token, '/api/scan/start', { api_id: apiId, scan_profile: 'OWASP_API_10' });
  let sent = 0;
  await expect
    .poll(
      async () => {
        const d = await postAs<{ status: string; results: { scan_info: { requests_sent: number } } }>(request, token, '/api/scan/details', { scan_id });
        sent = d.results.scan_info.requests_sent;
        return d.status;
      },
      { timeout: 60_000 },
    )
    .toBe('completed');

  await signInByStorage(page, request, owner);
  await page.goto(`/scans/${scan_id}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-har').click()]);
  await expect(page.getByTestId('notice-text')).toHaveText(SCAN_TRAFFIC_MESSAGES.harDownloaded);
  expect(download.suggestedFilename()).toMatch(/^\d{4}-\d{2}-\d{2}_\d{4} - Scan Traffic - .+\.har$/);
  const file = testInfo.outputPath('scan.har');
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  const har = JSON.parse(text) as Har;
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries).toHaveLength(sent);
  expect(text).toContain('[key 1]');
  expect(text).not.toContain(alice.key);
  expect(text).not.toContain(bob.key);

  // Chromium loads a page answered from the HAR: the target's answer to a GET the scan sent (one it sent
  // once, so the recording has one answer for it).
  const gets = har.log.entries.filter((e) => e.request.method === 'GET');
  const entry = gets.find((e) => e.response.status === 200 && (e.response.content.text ?? '').length > 10 && gets.filter((g) => g.request.url === e.request.url).length === 1);
  expect(entry, 'a GET sent once, answered 200 with a body').toBeTruthy();
  const replay = await browser.newContext();
  try {
    await replay.routeFromHAR(file, { notFound: 'abort' });
    const view = await replay.newPage();
    const res = await view.goto(entry!.request.url);
    expect(res?.status()).toBe(200);
    expect(await res?.text()).toBe(entry!.response.content.text);
  } finally {
    await replay.close();
  }
});
