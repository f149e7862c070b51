// Issue 31, item 6, on a real scan of the test target: an accepted risk's end date is the day picked in
// the user's Settings zone, shown back as that day whatever zone the browser runs in, and saving again
// never moves it. Light and dark, 900 and 1440 px, with screenshots.

import type { APIRequestContext } from '@playwright/test';
import { dayInZone, addDays, endOfDayInZone } from '../../shared/zone-days';
import { shoot, watchConsole } from './a11y';
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
