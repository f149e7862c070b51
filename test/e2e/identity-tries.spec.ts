// Identities that take fewer tries (issue 31, item 5), in the browser against `portcullis serve` and a
// real login of the test target: Test names a wrong token pointer with the pointers the answer has and
// fixes it in one click, a new identity copies the first one's recipe, a failed login quotes the API's
// answer and points at the field to edit, an expired static JWT is refused at Next and at Start with
// its expiry, the setups that worked are listed per API and fill the form with their secrets kept on
// the server, and a scan stopped at login offers Edit identities and retry. Screenshots in light and
// dark at 900 and 1440 px.

import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { IDENTITY_MESSAGES, SCAN_MESSAGES } from '../../shared/messages';
import { expectNoSeriousViolations, shoot } from './a11y';
import type { IdentitySetup } from '../../shared/contract';
import { api, apiLogin, createAccount, expect, importTarget, postAs, signInByStorage, target, test, type Account } from './fixtures';

const QUICK_SCAN = ['GET /me', 'POST /auth/login', 'GET /orders/{orderId}'];
const API_NAME = 'Acme Shop API';
const VIEWPORTS = [
  { width: 900, height: 900 },
  { width: 1440, height: 900 },
] as const;

interface Seed {
  owner: Account;
  token: string;
  apiId: string;
}

async function seed(request: APIRequestContext): Promise<Seed> {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, QUICK_SCAN);
  return { owner, token, apiId };
}

async function openConfigure(page: Page): Promise<Locator> {
  await page.goto('/manage-apis');
  await page.locator(`[data-testid="api-card"][data-api-name="${API_NAME}"]`).getByTestId('new-scan').click();
  const dialog = page.getByTestId('configure-scan-modal');
  await expect(dialog.getByTestId('scan-key1')).toBeVisible();
  return dialog;
}

async function openIdentities(page: Page): Promise<Locator> {
  const dialog = await openConfigure(page);
  await dialog.getByTestId('scan-mode-identities').click();
  await expect(dialog.getByTestId('identity-card')).toHaveCount(1);
  return dialog;
}

async function fillLogin(card: Locator, name: string, username: string, password: string, pointer: string): Promise<void> {
  await card.getByTestId('identity-name').fill(name);
  const fields = card.getByTestId('step-field');
  await expect(fields.nth(0).getByTestId('step-field-name')).toHaveValue('username');
  await fields.nth(0).getByTestId('step-field-value').fill(username);
  await fields.nth(1).getByTestId('step-field-value').fill(password);
  await card.getByTestId('token-source-value').fill(pointer);
}

/** A JWT (unsigned for this purpose: nothing is sent with it) whose `exp` is `exp` seconds since the epoch. */
function jwtExpiringAt(exp: number): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'alice', exp })}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
}

/** Screenshots of the screen (with `element` scrolled into view) in both themes at both widths, with an accessibility audit per theme. */
async function shots(page: Page, name: string, element?: () => Locator): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.locator('html')).not.toHaveClass(/theme-transition/);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      if (viewport.width === VIEWPORTS[0].width) await expectNoSeriousViolations(page);
      await element?.().scrollIntoViewIfNeeded();
      await shoot(page, `${name}-${theme}-${viewport.width}`, false);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

let data: Seed;

/** The owner's setups of the API that worked, newest first. */
async function setups(request: APIRequestContext): Promise<IdentitySetup[]> {
  return (await api<{ setups: IdentitySetup[] }>(request, data.token, 'GET', `/api/scan/identity/setups?api_id=${data.apiId}`)).setups;
}

/** Once a scan has signed in (its setup is kept), it is cancelled: what follows needs no findings. */
async function cancelOnceSignedIn(request: APIRequestContext, scanId: string, setupCount: number): Promise<void> {
  await expect.poll(async () => (await setups(request)).length, { timeout: 60_000, message: 'the setup kept once the scan signed in' }).toBe(setupCount);
  await postAs(request, data.token, '/api/scan/cancel', { scan_id: scanId });
  await expect.poll(async () => (await postAs<{ status: string }>(request, data.token, '/api/scan/details', { scan_id: scanId })).status, { timeout: 30_000 }).toBe('cancelled');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  data = await seed(request);
});

test('Test names a wrong pointer and fixes it in one click; a new identity copies the recipe; a failed login points at its field', async ({ page, request }) => {
  test.setTimeout(150_000);
  const { alice, bob } = target().users;
  await signInByStorage(page, request, data.owner);
  const dialog = await openIdentities(page);
  const first = dialog.getByTestId('identity-card').first();
  await fillLogin(first, 'alice', alice.username, alice.password, '/token');
  await first.getByTestId('identity-test').click();
  const result = first.getByTestId('identity-test-result');
  await expect(result).toHaveAttribute('data-ok', 'false', { timeout: 15_000 });
  await expect(result.getByTestId('identity-test-message')).toHaveText('Could not log in: POST /api/v2/auth/login answered 200, but the answer has no /token; it has /accessToken.');
  await expect(result.getByTestId('identity-test-message').locator('code')).toHaveText(['/token', '/accessToken']);
  await expect(result.getByTestId('login-answer-head')).toHaveText('Answer to POST /api/v2/auth/login (200), secrets redacted:');
  await expect(result.getByTestId('login-answer-excerpt')).toContainText('"accessToken":"[redacted]"');
  expect(await result.textContent()).not.toMatch(/eyJ[\w-]{6,}/);
  await shots(page, 'identity-test-pointer', () => first);

  // One click: the pointer the answer has, tested again.
  await result.getByTestId('identity-use-pointer').click();
  await expect(first.getByTestId('token-source-value')).toHaveValue('/accessToken');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
  await expect(result.getByTestId('identity-test-verified')).toHaveText(/verified as alice/);

  // A new identity copies the recipe, not who logs in nor the password.
  await dialog.getByTestId('identity-add').click();
  const second = dialog.getByTestId('identity-card').nth(1);
  await expect(second.getByTestId('identity-kind')).toHaveValue('login');
  await expect(second.getByTestId('step-path')).toHaveValue('/auth/login');
  await expect(second.getByTestId('step-field').nth(0).getByTestId('step-field-name')).toHaveValue('username');
  await expect(second.getByTestId('step-field').nth(0).getByTestId('step-field-value')).toHaveValue('');
  await expect(second.getByTestId('step-field').nth(1).getByTestId('step-field-value')).toHaveValue('');
  await expect(second.getByTestId('token-source-value')).toHaveValue('/accessToken');

  // A wrong password: the API's answer quoted, and Edit the identity puts the cursor in the password.
  await second.getByTestId('identity-name').fill('bob');
  await second.getByTestId('step-field').nth(0).getByTestId('step-field-value').fill(bob.username);
  const password = second.getByTestId('step-field').nth(1).getByTestId('step-field-value');
  await password.fill('Not-Bobs-Password-1');
  await second.getByTestId('identity-test').click();
  const failed = second.getByTestId('identity-test-result');
  await expect(failed).toHaveAttribute('data-ok', 'false', { timeout: 15_000 });
  await expect(failed.getByTestId('login-answer-head')).toHaveText('Answer to POST /api/v2/auth/login (401), secrets redacted:');
  await expect(failed.getByTestId('identity-test-message')).toHaveText('Could not log in: POST /api/v2/auth/login answered 401.');
  await expect(failed.getByTestId('login-answer-excerpt')).toContainText('Wrong username or password.');
  expect(await failed.textContent()).not.toContain('Not-Bobs-Password-1');
  await shots(page, 'identity-test-401', () => second);
  await failed.getByTestId('identity-edit-field').click();
  await expect(password).toBeFocused();
  await password.fill(bob.password);
  await second.getByTestId('identity-test').click();
  await expect(second.getByTestId('identity-test-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });

  // This setup works: the scan signs in, and the setup is kept for the API.
  await dialog.getByTestId('signup-auto').uncheck();
  const created = page.waitForResponse((r) => r.url().endsWith('/api/scan/create'));
  await dialog.getByTestId('scan-next').click();
  const { data: draft } = (await (await created).json()) as { data: { scan_id: string } };
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  await page.getByTestId('start-scan').click();
  await cancelOnceSignedIn(request, draft.scan_id, 1);
  await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.cancelled(API_NAME), { timeout: 15_000 });
});

test('an expired static JWT is refused at Next and, when it expires after, at Start, with its expiry', async ({ page, request }) => {
  test.setTimeout(60_000);
  await signInByStorage(page, request, data.owner);
  let dialog = await openConfigure(page);
  await dialog.getByTestId('scan-key1').fill(jwtExpiringAt(Math.floor(Date.UTC(2026, 0, 15, 9, 30) / 1000)));
  await dialog.getByTestId('scan-next').click();
  await expect(dialog.getByTestId('scan-config-error')).toHaveText(/^Could not create scan: Identity "key 1": its token expired on 2026-01-15 \d\d:30 \(.+\)\. Paste a fresh token\.$/);
  await expect(page.getByTestId('flags-modal')).toHaveCount(0);
  await shots(page, 'configure-scan-expired', () => dialog);

  // A token that is still good at Next but expired by Start: the start route refuses it.
  const exp = Math.floor(Date.now() / 1000) + 4;
  dialog = page.getByTestId('configure-scan-modal');
  await dialog.getByTestId('scan-key1').fill(jwtExpiringAt(exp));
  await dialog.getByTestId('scan-next').click();
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(exp * 1000 + 500);
  await page.getByTestId('start-scan').click();
  await expect(page.getByTestId('notice-text')).toHaveText(/^Failed to start scan: Identity "key 1": its token expired on \d{4}-\d\d-\d\d \d\d:\d\d \(.+\)\. Paste a fresh token\.$/);
});

test('the setups that worked are listed per API; one fills the form with its secrets kept on the server', async ({ page, request }) => {
  test.setTimeout(150_000);
  const { alice } = target().users;
  await signInByStorage(page, request, data.owner);
  // A second setup that works: alice's key, through the API.
  const { scan_id } = await postAs<{ scan_id: string }>(request, data.token, '/api/scan/create', { api_id: data.apiId, scan_profile: 'owasp', api_key_1: alice.key, signup: 'off' });
  await postAs(request, data.token, '/api/scan/start', { api_id: data.apiId, scan_id });
  await cancelOnceSignedIn(request, scan_id, 2);

  const dialog = await openConfigure(page);
  const setups = dialog.getByTestId('identity-setup');
  await expect(setups).toHaveCount(2);
  await expect(setups.nth(0)).toContainText('key 1');
  await expect(setups.nth(1)).toContainText('alice');
  await expect(setups.nth(1)).toContainText('bob');
  await expect(dialog.getByTestId('identity-setups')).not.toContainText(alice.password);
  await shots(page, 'configure-scan-setups', () => dialog.getByTestId('identity-setups'));

  await setups.nth(1).getByTestId('identity-setup-use').click();
  await expect(dialog.getByTestId('identity-setup-loaded')).toBeVisible();
  const cards = dialog.getByTestId('identity-card');
  await expect(cards).toHaveCount(2);
  const kept = cards.nth(0).getByTestId('step-field').nth(1).getByTestId('step-field-value');
  await expect(kept).toHaveAttribute('data-kept', 'true');
  await expect(kept).toHaveValue('');
  await expect(kept).toHaveAttribute('placeholder', IDENTITY_MESSAGES.keptPlaceholder);
  await expect(cards.nth(0).getByTestId('step-field').nth(0).getByTestId('step-field-value')).toHaveValue('alice');
  // Test with the kept password: the server fills it in.
  const tested = page.waitForRequest((r) => r.url().endsWith('/api/scan/identity/test'));
  await cards.nth(0).getByTestId('identity-test').click();
  const sent = (await tested).postDataJSON() as { identity: unknown; kept_from?: unknown };
  expect(JSON.stringify(sent.identity)).not.toContain(alice.password);
  expect(sent.kept_from).toMatchObject({ setup_id: expect.any(String) });
  await expect(cards.nth(0).getByTestId('identity-test-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
  await shots(page, 'configure-scan-setup-used', () => cards.nth(0));

  // Forget the other one: it leaves the list.
  await setups.nth(0).getByTestId('identity-setup-forget').click();
  await expect(setups).toHaveCount(1);
});

test('a scan stopped at login quotes the answer; Edit identities and retry fixes it with the scan\'s own secrets', async ({ page, request }) => {
  test.setTimeout(150_000);
  const { alice } = target().users;
  const identity = { name: 'alice', login: { request: { path: '/auth/login', json: { username: alice.username, password: alice.password } }, token: { from: 'body', pointer: '/token' } } };
  const { scan_id } = await postAs<{ scan_id: string }>(request, data.token, '/api/scan/create', { api_id: data.apiId, scan_profile: 'owasp', identities: [identity], signup: 'off' });
  await postAs(request, data.token, '/api/scan/start', { api_id: data.apiId, scan_id });
  await expect
    .poll(async () => (await postAs<{ status: string }>(request, data.token, '/api/scan/details', { scan_id })).status, { timeout: 60_000 })
    .toBe('failed');

  await signInByStorage(page, request, data.owner);
  await page.goto(`/scans/${scan_id}`);
  const failure = page.getByTestId('scan-failure');
  await expect(page.getByTestId('scan-failure-reason')).toHaveText('The scan failed: Identity "alice" could not log in: POST /api/v2/auth/login answered 200, but the answer has no /token; it has /accessToken.');
  await expect(failure.getByTestId('login-answer-head')).toHaveText('Answer to POST /api/v2/auth/login (200), secrets redacted:');
  await expect(failure.getByTestId('login-answer-excerpt')).toContainText('[redacted]');
  await expect(failure.getByTestId('scan-edit-retry')).toBeEnabled();
  await expect(failure.getByTestId('scan-retry')).toHaveText('Retry as it was');
  await shots(page, 'scan-login-failure');

  await failure.getByTestId('scan-edit-retry').click();
  const modal = page.getByTestId('retry-identities-modal');
  const card = modal.locator('[data-testid="identity-card"][data-identity-name="alice"]');
  await expect(card.getByTestId('token-source-value')).toBeFocused();
  await expect(card.getByTestId('token-source-value')).toHaveValue('/token');
  await expect(card.getByTestId('step-field').nth(1).getByTestId('step-field-value')).toHaveAttribute('data-kept', 'true');
  await expect(modal.getByTestId('retry-login-reason')).toHaveText('Identity "alice" could not log in: POST /api/v2/auth/login answered 200, but the answer has no /token; it has /accessToken.');
  await shots(page, 'scan-retry-identities', () => modal);

  await card.getByTestId('token-source-value').fill('/accessToken');
  const retried = page.waitForRequest((r) => r.url().endsWith('/api/scan/retry'));
  await modal.getByTestId('retry-identities-submit').click();
  expect(JSON.stringify((await retried).postDataJSON())).not.toContain(alice.password);
  await expect(page).not.toHaveURL(new RegExp(`/scans/${scan_id}$`));
  const next = page.url().split('/scans/')[1]!;
  // It signs in this time: the fixed setup is kept (beside alice and bob's), and the scan runs on.
  await cancelOnceSignedIn(request, next, 2);
  expect((await setups(request))[0]!.identities.map((i) => i.name)).toEqual(['alice']);
  await expect(page.getByTestId('scan-failure-reason')).toHaveText('The scan was cancelled: Cancelled by the user.');
});
