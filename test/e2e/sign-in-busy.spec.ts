// Issue 31, item 6: when many people sign in at once, the server answers the surplus 503 with
// Retry-After (its password-hashing queue is full) and the sign-in page waits and tries again by itself,
// saying it is still signing in, instead of showing "Server error". Two more `portcullis serve` hash one
// password at a time and queue none, so any sign-in that overlaps another is refused at first: one at
// the real (OWASP) cost, where other sign-ins surely hold the slot when the page's arrives, for the
// screens; one at the test cost, for a burst of 50.

import type { Browser, Page } from '@playwright/test';
import { LOGIN_MESSAGES, SETTINGS_MESSAGES } from '../../shared/messages';
import { STORAGE_KEYS } from '../../shared/constants';
import { shoot } from './a11y';
import { createAccountOn, expect, newAccount, test, type Account } from './fixtures';
import { startSecondServer, type SecondServer } from './second-server';

const PAGES = 12;
const TOTAL = 50;
const ONE_HASH_AT_A_TIME = { PORTCULLIS_HASH_CONCURRENCY: '1', PORTCULLIS_HASH_QUEUE: '0', PORTCULLIS_SIGNUP_LIMIT: '10000' };

test.describe.configure({ mode: 'serial' });

async function loginPage(server: SecondServer, browser: Browser, theme: 'light' | 'dark', width: number): Promise<{ page: Page; close(): Promise<void>; busy: () => number }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript(([key, dark]) => localStorage.setItem(key, dark), [STORAGE_KEYS.darkMode, String(theme === 'dark')] as const);
  const page = await context.newPage();
  let busy = 0;
  page.on('response', (res) => {
    if (res.url().endsWith('/api/auth/login') && res.status() === 503) busy += 1;
  });
  await page.goto(`${server.url}/login`);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  return { page, close: () => context.close(), busy: () => busy };
}

/** Sign-ins through the API, one after another as fast as they come back, until stopped. */
function keepHashing(server: SecondServer, account: Account, lanes: number): () => Promise<void> {
  let running = true;
  const lane = async () => {
    while (running) {
      // A refused sign-in may close its connection: the next one opens another.
      await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: account.username, password: account.password }) }).catch(() => undefined);
    }
  };
  const all = Promise.all(Array.from({ length: lanes }, lane));
  return async () => {
    running = false;
    await all;
  };
}

test.describe('at the real hashing cost', () => {
  let server: SecondServer;
  let accounts: Account[] = [];
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    server = await startSecondServer({ ...ONE_HASH_AT_A_TIME, PORTCULLIS_TEST_FAST_HASHING: '0' });
    accounts = [];
    for (let i = 0; i < 3; i++) accounts.push(await createAccountOn(request, server.url, newAccount()));
  });
  test.afterAll(async () => {
    await server?.stop();
  });

for (const [theme, width] of [
  ['light', 1440],
  ['dark', 900],
] as const) {
  test(`a sign-in refused as busy says it is still signing in and ends signed in (${theme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(60_000);
    const { page, close, busy } = await loginPage(server, browser, theme, width);
    const account = accounts[theme === 'light' ? 0 : 1]!;
    await page.getByTestId('login-identifier').fill(account.username);
    await page.getByTestId('login-password').fill(account.password);
    // Other people's sign-ins keep the one hashing slot busy while this one is sent.
    const stop = keepHashing(server, accounts[2]!, 3);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-busy')).toHaveText(LOGIN_MESSAGES.busyRetrying, { timeout: 20_000 });
    await expect(page.getByTestId('login-submit')).toHaveText('Signing in...');
    await expect(page.getByTestId('login-error')).toHaveCount(0);
    await shoot(page, `sign-in-busy-${theme}-${width}`, false);
    await stop();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    expect(busy()).toBeGreaterThan(0);
    await close();
  });
}
});

test.describe('at the test hashing cost', () => {
  let server: SecondServer;
  let accounts: Account[] = [];
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    server = await startSecondServer(ONE_HASH_AT_A_TIME);
    // Sign-ups hash too: made one after another.
    accounts = [];
    for (let i = 0; i < TOTAL; i++) accounts.push(await createAccountOn(request, server.url, newAccount()));
  });
  test.afterAll(async () => {
    await server?.stop();
  });

test(`${TOTAL} sign-ins at once (${PAGES} of them on the sign-in page) all end signed in`, async ({ browser }) => {
  test.setTimeout(90_000);
  const pages = await Promise.all(Array.from({ length: PAGES }, (_, i) => loginPage(server, browser, i % 2 ? 'dark' : 'light', i % 2 ? 900 : 1440)));
  for (const [i, { page }] of pages.entries()) {
    await page.getByTestId('login-identifier').fill(accounts[i]!.username);
    await page.getByTestId('login-password').fill(accounts[i]!.password);
  }
  // The API clients wait out their 503s the way the page does, so all 50 must get in.
  const apiSignIns = accounts.slice(PAGES).map(async (a) => {
    for (let tries = 0; tries < 60; tries++) {
      const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: a.username, password: a.password }) });
      if (res.status !== 503) return res.status;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000 * (1 + Math.random())));
    }
    return 503;
  });
  await Promise.all(pages.map(({ page }) => page.getByTestId('login-submit').click()));
  const apiStatuses = await Promise.all(apiSignIns);
  for (const { page } of pages) {
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 45_000 });
    await expect(page.getByText(SETTINGS_MESSAGES.serverError)).toHaveCount(0);
  }
  expect(apiStatuses.filter((s) => s !== 200)).toEqual([]);
  // The burst did meet the full queue: some of the pages' sign-ins were refused at first.
  expect(pages.reduce((n, p) => n + p.busy(), 0)).toBeGreaterThan(0);
  await Promise.all(pages.map((p) => p.close()));
});
});
