// Issue 31, item 6, against the test target on 127.0.0.1: an accepted risk's end date (on a real scan)
// is the day picked in the user's Settings zone, shown back as that day whatever zone the browser runs
// in, and saving again never moves it; and the Start step of Configure Scan names the route that wipes
// data a scan of this local API will call, whether configured by hand or "as last time", and drops it
// once that route is skipped; the Documentation guides show the reading time their words take. Light
// and dark, 900 and 1440 px, with screenshots.

import type { APIRequestContext } from '@playwright/test';
import { dayInZone, addDays, endOfDayInZone } from '../../shared/zone-days';
import { WRITE_POLICY_TEXT, type WritePolicyData } from '../../shared/write-policy';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { api, apiLogin, createAccount, expect, importTarget, postAs, setTheme, signInByStorage, target, test, type Account } from './fixtures';

const SETTINGS_ZONE = 'UTC+09:00';
const BROWSER_ZONE = 'Pacific/Honolulu';

interface Seed {
  owner: Account;
  token: string;
  scanId: string;
}

async function scannedApi(request: APIRequestContext): Promise<Seed> {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, ['GET /me', 'GET /orders/{orderId}']);
  const { alice, bob } = target().users;
  await postAs(request, token, '/api/scan/create', { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: alice.key, api_key_2: bob.key });
  const { scan_id } = await postAs<{ scan_id: string }>(request, token, '/api/scan/start', { api_id: apiId, scan_profile: 'OWASP_API_10' });
  await expect.poll(async () => (await postAs<{ status: string }>(request, token, '/api/scan/details', { scan_id })).status, { timeout: 60_000 }).toBe('completed');
  return { owner, token, scanId: scan_id };
}

async function storedEnd(request: APIRequestContext, seed: Seed, findingId: string): Promise<string | null> {
  const details = await postAs<{ results: { results: { id: string; triage: { expires_at: string | null } | null }[] } }>(request, seed.token, '/api/scan/details', { scan_id: seed.scanId });
  return details.results.results.find((f) => f.id === findingId)?.triage?.expires_at ?? null;
}

test.describe('an accepted risk ends on the day picked in the Settings zone', () => {
  test.use({ timezoneId: BROWSER_ZONE });
  let seed: Seed;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    seed = await scannedApi(request);
    await api(request, seed.token, 'PUT', '/api/user/extended-profile', { timezone: SETTINGS_ZONE });
  });

  for (const [theme, width] of [
    ['light', 1440],
    ['dark', 900],
  ] as const) {
    test(`stored, shown and saved again as that day (${theme}, ${width} px)`, async ({ page, request }) => {
      test.setTimeout(60_000);
      const problems = watchConsole(page);
      await page.setViewportSize({ width, height: 900 });
      await signInByStorage(page, request, seed.owner);
      await page.goto(`/scans/${seed.scanId}`);
      await setTheme(page, theme);
      const rows = page.getByTestId('finding-row');
      await expect(rows.first()).toBeVisible();
      const index = theme === 'light' ? 0 : 1;
      const row = rows.nth(index);
      const findingId = (await row.getAttribute('data-finding-id'))!;
      await row.click();
      await expect(page.getByTestId('finding-detail')).toHaveAttribute('data-finding-id', findingId);

      // Late in the Honolulu evening it is already the next afternoon in Tokyo: the day must be Tokyo's.
      const day = addDays(dayInZone(Date.now(), SETTINGS_ZONE), 30 + index);
      const end = endOfDayInZone(day, SETTINGS_ZONE)!.toISOString();
      expect(end).toBe(`${day}T15:00:00.000Z`);

      await page.getByTestId('triage-state').selectOption('accepted_risk');
      await page.getByTestId('triage-expires').fill(day);
      await page.getByTestId('triage-reason').fill('Internal only');
      await page.getByTestId('triage-save').click();
      await expect(page.getByTestId('triage-mark-state')).toHaveText('Accepted risk');
      expect(await storedEnd(request, seed, findingId)).toBe(end);
      await expect(page.getByTestId('triage-mark-expires')).toHaveText(` · until the end of ${day} (${SETTINGS_ZONE})`);
      await expect(page.getByTestId('triage-expires-zone')).toContainText(SETTINGS_ZONE);
      await expect(page.getByTestId('triage-expires')).toHaveAttribute('min', addDays(dayInZone(Date.now(), SETTINGS_ZONE), 1));
      await page.getByTestId('triage-panel').scrollIntoViewIfNeeded();
      await shoot(page, `accepted-risk-${theme}-${width}`, false);

      // A fresh page in the same (Honolulu) browser: the form starts from the same day; saving it again
      // keeps the end where it was.
      await page.reload();
      await page.locator(`#finding-row-${findingId}`).click();
      await expect(page.getByTestId('triage-mark-expires')).toHaveText(` · until the end of ${day} (${SETTINGS_ZONE})`);
      await expect(page.getByTestId('triage-expires')).toHaveValue(day);
      for (let i = 0; i < 2; i++) {
        await page.getByTestId('triage-save').click();
        await expect(page.getByTestId('triage-save')).toBeEnabled();
        await expect(page.getByTestId('triage-expires')).toHaveValue(day);
        expect(await storedEnd(request, seed, findingId)).toBe(end);
      }
      expect(problems).toEqual([]);
    });
  }
});

test.describe('a scan of a local API that will call a route that wipes data says so before it starts', () => {
  const RESET = 'GET /maintenance/reset';

  for (const [theme, width] of [
    ['dark', 1440],
    ['light', 900],
  ] as const) {
    test(`named at Start, by hand and as last time, and gone once skipped (${theme}, ${width} px)`, async ({ page, request }) => {
      test.setTimeout(90_000);
      const problems = watchConsole(page);
      const owner = await createAccount(request);
      const { token } = await apiLogin(request, owner);
      const { apiId } = await importTarget(request, token);
      const policy = await postAs<WritePolicyData>(request, token, '/api/scan/write-policy', { api_id: apiId });
      expect(policy.local).toBe(true);
      expect(policy.operations.filter((o) => o.kind === 'wipe').map((o) => o.operation)).toContain(RESET);

      await page.setViewportSize({ width, height: 900 });
      await signInByStorage(page, request, owner);
      await page.goto('/manage-apis');
      await setTheme(page, theme);
      const card = page.locator(`[data-testid="api-card"][data-api-id="${apiId}"]`);
      await card.getByTestId('new-scan').click();
      const dialog = page.getByTestId('configure-scan-modal');
      await dialog.getByTestId('scan-key1').fill(target().users.alice.key);

      // Only the scan's own objects (the default): nothing wipes, nothing is said at Start.
      await dialog.getByTestId('scan-next').click();
      const flags = page.getByTestId('flags-modal');
      await expect(flags.getByTestId('flags-row').first()).toBeVisible();
      await expect(flags.getByTestId('start-scan')).toBeEnabled();
      await expect(flags.getByTestId('start-wipe-notice')).toHaveCount(0);
      await flags.getByTestId('modal-close').click();

      // Existing objects with the reset allowed: named in Configure Scan, and again at Start.
      await card.getByTestId('new-scan').click();
      await dialog.getByTestId('scan-key1').fill(target().users.alice.key);
      await dialog.getByTestId('writes-existing').check();
      await dialog.locator(`[data-testid="destructive-operation"][data-operation="${RESET}"]`).check();
      await expect(dialog.getByTestId('local-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));
      await dialog.getByTestId('scan-next').click();
      await expect(flags.getByTestId('start-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));
      await expectNoSeriousViolations(page);
      await shoot(page, `start-wipe-notice-${theme}-${width}`, false);

      // Skipping the route means the scan will not call it: the notice goes; back on, it returns.
      await flags.getByTestId('flags-search').fill('/maintenance/reset');
      const row = flags.locator(`[data-testid="flags-row"][data-endpoint="${RESET}"]`);
      await row.getByTestId('flag-SKIP').click();
      await expect(flags.getByTestId('start-wipe-notice')).toHaveCount(0);
      await row.getByTestId('flag-SKIP').click();
      await expect(flags.getByTestId('start-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));
      await flags.getByTestId('modal-close').click();

      // "Use this configuration" goes straight to Start with the same policy: said there too.
      await card.getByTestId('new-scan').click();
      await dialog.getByTestId('last-config-use').click();
      await expect(flags.getByTestId('start-wipe-notice')).toHaveText(WRITE_POLICY_TEXT.localWipeCalled([RESET]));
      // Not started: the reset would wipe the shared test target under the other tests.
      expect(problems).toEqual([]);
    });
  }
});

test.describe('the Documentation guides', () => {
  for (const [theme, width] of [
    ['light', 1440],
    ['dark', 900],
    ['dark', 1440],
    ['light', 900],
  ] as const) {
    test(`list today's guides with the time their words take to read (${theme}, ${width} px)`, async ({ page, request }) => {
      test.setTimeout(60_000);
      const problems = watchConsole(page);
      await page.setViewportSize({ width, height: 900 });
      await signInByStorage(page, request, await createAccount(request));
      await page.goto('/documentation');
      await setTheme(page, theme);
      for (const id of ['scan-page', 'identities', 'triage', 'coverage', 'cli']) await expect(page.getByTestId(`guide-card-${id}`)).toBeVisible();
      const ids = (await page.locator('[data-testid^="guide-card-"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-testid')!.slice('guide-card-'.length)))).sort();
      expect(ids.length).toBeGreaterThanOrEqual(14);
      await expectNoSeriousViolations(page);
      await shoot(page, `documentation-${theme}-${width}`);

      // Each guide's own page: the minutes shown are its words at 200 a minute, counted here from what the browser shows.
      for (const id of ids) {
        await page.goto(`/guide/${id}`);
        const text = await page.getByTestId('guide-view').locator('.panel').innerText();
        const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
        await expect(page.getByTestId('guide-read-time').first()).toHaveText(`${Math.max(1, Math.round(words / 200))} min read`);
      }
      await page.goto('/guide/scan-page');
      await expect(page.getByTestId('guide-title')).toHaveText('Read a scan on its page');
      await shoot(page, `guide-scan-page-${theme}-${width}`);
      expect(problems).toEqual([]);
    });
  }
});
