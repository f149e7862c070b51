// Configure Scan's Identities step against `portcullis serve` and the vulnerable test target: a login
// recipe for alice tested (verified, token masked) and with a wrong password (the failure and its
// steps), field errors before any request, the YAML export (no password unless asked) and import (line
// and field of a mistake, placeholders to fill in), server errors on their fields, and a scan created
// with two identities whose report lists them, verified, with the users the scan registered.

import fs from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { IDENTITY_MESSAGES, SCAN_MESSAGES } from '../../shared/messages';
import { expectNoSeriousViolations, shoot } from './a11y';
import { apiLogin, createAccount, expect, importTarget, signInByStorage, target, test, type Account } from './fixtures';

/** The endpoints left to scan: a /me to verify identities, sign-up and login, two objects. */
const QUICK_SCAN = ['GET /me', 'POST /auth/login', 'POST /auth/signup', 'GET /orders/{orderId}', 'GET /notes/{noteId}'];
const API_NAME = 'Acme Shop API';

interface Seed {
  owner: Account;
  apiId: string;
}

/** An account with the target imported and all but a few endpoints skipped. */
async function seed(request: APIRequestContext): Promise<Seed> {
  const owner = await createAccount(request);
  const { token } = await apiLogin(request, owner);
  const { apiId } = await importTarget(request, token, QUICK_SCAN);
  return { owner, apiId };
}

async function openIdentities(page: Page): Promise<Locator> {
  await page.goto('/manage-apis');
  await page.locator(`[data-testid="api-card"][data-api-name="${API_NAME}"]`).getByTestId('new-scan').click();
  const dialog = page.getByTestId('configure-scan-modal');
  await expect(dialog.getByTestId('scan-key1')).toBeVisible();
  await dialog.getByTestId('scan-mode-identities').click();
  await expect(dialog.getByTestId('identity-card')).toHaveCount(1);
  return dialog;
}

/** Fills a login recipe: the JSON body's username and password fields, and the token's pointer. */
async function fillLogin(card: Locator, name: string, username: string, password: string): Promise<void> {
  await card.getByTestId('identity-name').fill(name);
  await expect(card.getByTestId('identity-kind')).toHaveValue('login');
  const fields = card.getByTestId('step-field');
  await expect(fields.nth(0).getByTestId('step-field-name')).toHaveValue('username');
  await fields.nth(0).getByTestId('step-field-value').fill(username);
  await expect(fields.nth(1).getByTestId('step-field-name')).toHaveValue('password');
  await fields.nth(1).getByTestId('step-field-value').fill(password);
  await card.getByTestId('token-source-value').fill('/accessToken');
}

let data: Seed;

test.beforeAll(async ({ request }) => {
  data = await seed(request);
});

test('a login recipe: Test verifies alice with the token masked, a wrong password fails with its steps', async ({ page, request }) => {
  const { alice } = target().users;
  await signInByStorage(page, request, data.owner);
  const dialog = await openIdentities(page);
  const card = dialog.getByTestId('identity-card').first();

  // Pre-filled from the spec: the login operation, the declared placement, sign-up on for a local target.
  await expect(card.getByTestId('step-method')).toHaveValue('POST');
  await expect(card.getByTestId('step-path')).toHaveValue('/auth/login');
  await expect(card.getByTestId('identity-place').locator('option:checked')).toHaveText(/^As the API declares: Bearer token in Authorization/);
  await expect(dialog.getByTestId('signup-auto')).toBeChecked();
  await expect(dialog.getByTestId('signup-hint')).toContainText(IDENTITY_MESSAGES.signupFound('POST /auth/signup'));
  // Off says what it means: nobody registered, nothing sent to the sign-up.
  await dialog.getByTestId('signup-auto').uncheck();
  await expect(dialog.getByTestId('signup-hint')).toContainText(IDENTITY_MESSAGES.signupOff('POST /auth/signup'));
  await dialog.getByTestId('signup-auto').check();
  await expect(dialog.getByTestId('identities-hint')).toHaveText(IDENTITY_MESSAGES.crossUserSignupHint);

  await fillLogin(card, 'alice', alice.username, alice.password);
  // The password is masked until shown.
  const password = card.getByTestId('step-field').nth(1).getByTestId('step-field-value');
  await expect(password).toHaveAttribute('type', 'password');
  await card.getByTestId('step-field').nth(1).getByTestId('step-field-value-show').click();
  await expect(password).toHaveAttribute('type', 'text');
  await card.getByTestId('step-field').nth(1).getByTestId('step-field-value-show').click();
  await expect(password).toHaveAttribute('type', 'password');

  await card.getByTestId('identity-test').click();
  const result = card.getByTestId('identity-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
  await expect(result.getByTestId('identity-test-verified')).toHaveText(/verified as alice/);
  const masked = await result.getByTestId('identity-test-token').textContent();
  expect(masked).toMatch(/•/);
  expect(masked).not.toMatch(/eyJ/);
  await expect(result.getByTestId('identity-test-steps')).toContainText('POST /api/v2/auth/login -> 200');

  // Editing the identity drops the stale answer; a wrong password fails with the API's status.
  await password.fill('not-alices-password');
  await expect(result).toHaveCount(0);
  await card.getByTestId('identity-test').click();
  await expect(result).toHaveAttribute('data-ok', 'false', { timeout: 15_000 });
  await expect(result.getByTestId('identity-test-message')).toContainText('Could not log in');
  await expect(result.getByTestId('identity-test-message')).toContainText('401');
  await expect(result.getByTestId('identity-test-steps')).toContainText('POST /api/v2/auth/login -> 401');
  await expect(result.getByTestId('identity-test-token')).toHaveCount(0);

  // A field the schema refuses is marked before any request is sent.
  let tests = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/scan/identity/test')) tests += 1;
  });
  await card.getByTestId('step-path').fill('auth/login');
  await card.getByTestId('identity-test').click();
  await expect(card.getByTestId('step-path-error')).toContainText('must be a path starting with "/"');
  await expect(card.getByTestId('step-path')).toHaveAttribute('aria-invalid', 'true');
  expect(tests).toBe(0);
  await card.getByTestId('step-path').fill('/auth/login');
  await expect(card.getByTestId('step-path-error')).toHaveCount(0);
});

test('an OAuth2 password grant with the spec\'s token URL, and a cookie session by its cookie names', async ({ page, request }) => {
  const { alice, bob } = target().users;
  await signInByStorage(page, request, data.owner);
  const dialog = await openIdentities(page);
  const card = dialog.getByTestId('identity-card').first();
  await card.getByTestId('identity-kind').selectOption('oauth2');
  await expect(card.getByTestId('oauth-token-url')).toHaveValue(/\/api\/v2\/oauth\/token$/);
  await card.getByTestId('oauth-grant').selectOption('password');
  await card.getByTestId('oauth-client-id').fill('acme-web');
  await card.getByTestId('oauth-username').fill(alice.username);
  await card.getByTestId('oauth-password').fill(alice.password);
  await expect(card.getByTestId('oauth-password')).toHaveAttribute('type', 'password');
  await card.getByTestId('identity-test').click();
  await expect(card.getByTestId('identity-test-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
  await expect(card.getByTestId('identity-test-verified')).toHaveText(/verified as alice/);
  await expect(card.getByTestId('identity-test-steps')).toContainText('/oauth/token -> 200');

  await card.getByTestId('identity-kind').selectOption('cookie');
  await expect(card.getByTestId('identity-place')).toHaveCount(0);
  await card.getByTestId('step-path').fill('/auth/session');
  await card.getByTestId('step-field').nth(0).getByTestId('step-field-value').fill(bob.username);
  await card.getByTestId('step-field').nth(1).getByTestId('step-field-value').fill(bob.password);
  await card.getByTestId('identity-test').click();
  const result = card.getByTestId('identity-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
  await expect(result.getByTestId('identity-test-verified')).toHaveText(/verified as bob/);
  await expect(result.getByTestId('identity-test-cookies')).not.toBeEmpty();
  await expect(result.getByTestId('identity-test-token')).toHaveCount(0);
});

test('export leaves passwords out unless asked; import names the line and field of a mistake and flags placeholders', async ({ page, request }) => {
  const { alice, bob } = target().users;
  await signInByStorage(page, request, data.owner);
  const dialog = await openIdentities(page);
  await fillLogin(dialog.getByTestId('identity-card').first(), 'alice', alice.username, alice.password);
  await dialog.getByTestId('identity-add').click();
  await expect(dialog.getByTestId('identity-card')).toHaveCount(2);
  await fillLogin(dialog.getByTestId('identity-card').nth(1), 'bob', bob.username, bob.password);
  await expect(dialog.getByTestId('identities-hint')).toHaveCount(0);

  // Export: secrets as ${env:NAME} references; included only on request.
  await dialog.getByTestId('yaml-export-open').click();
  const yaml = dialog.getByTestId('yaml-export-text');
  await expect(yaml).toHaveValue(/name: alice/);
  const exported = await yaml.inputValue();
  expect(exported).not.toContain(alice.password);
  expect(exported).not.toContain(bob.password);
  expect(exported).toContain('${env:PORTCULLIS_ALICE_PASSWORD}');
  expect(exported).toContain('${env:PORTCULLIS_BOB_PASSWORD}');
  const download = page.waitForEvent('download');
  await dialog.getByTestId('yaml-download').click();
  const file = await (await download).path();
  const saved = fs.readFileSync(file, 'utf8');
  expect(saved).toBe(exported);
  await dialog.getByTestId('yaml-include-secrets').check();
  await expect(yaml).toHaveValue(new RegExp(alice.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await dialog.getByTestId('yaml-include-secrets').uncheck();
  await expect(yaml).not.toHaveValue(new RegExp(alice.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  // Import: a mistake is named by line and field, and the form is left as it was.
  await dialog.getByTestId('yaml-import-open').click();
  const broken = exported.replace('pointer: /accessToken', 'pointr: /accessToken');
  const lines = broken.split('\n');
  // The unknown key's own line, or the line of the mapping it sits in.
  const keyLine = lines.findIndex((l) => l.includes('pointr')) + 1;
  const mapLine = lines.findIndex((l) => l.trim() === 'token:') + 1;
  await dialog.getByTestId('yaml-import-text').fill(broken);
  await dialog.getByTestId('yaml-import-submit').click();
  const issue = dialog.getByTestId('yaml-import-error').first();
  await expect(issue).toHaveAttribute('data-field', 'identities.0.login.token');
  const line = Number(await issue.getAttribute('data-line'));
  expect([keyLine, mapLine]).toContain(line);
  await expect(issue).toContainText(`Line ${line}, column`);
  await expect(issue).toContainText('identities.0.login.token: Unrecognized key: "pointr"');
  await expect(dialog.getByTestId('identity-card')).toHaveCount(2);

  // A file with placeholders: each is flagged "fill in" and Next waits until they are replaced.
  await dialog.getByTestId('yaml-import-file').setInputFiles({ name: 'scan.yaml', mimeType: 'application/yaml', buffer: Buffer.from(exported) });
  await expect(dialog.getByTestId('yaml-import-success')).toHaveText(IDENTITY_MESSAGES.imported(2));
  await expect(dialog.getByTestId('identity-card')).toHaveCount(2);
  await expect(dialog.getByTestId('env-flag')).toHaveCount(2);
  await expect(dialog.getByTestId('env-flag').first()).toContainText('PORTCULLIS_ALICE_PASSWORD');
  await expect(dialog.getByTestId('env-refs')).toBeVisible();
  await expect(dialog.getByTestId('scan-next')).toBeDisabled();
  await dialog.getByTestId('identity-card').first().screenshot({ path: 'test-results/screenshots/modal-identities-fill-in-light.png' });
  const aliceCard = dialog.locator('[data-testid="identity-card"][data-identity-name="alice"]');
  const bobCard = dialog.locator('[data-testid="identity-card"][data-identity-name="bob"]');
  await aliceCard.getByTestId('step-field').nth(1).getByTestId('step-field-value').fill(alice.password);
  await expect(dialog.getByTestId('env-flag')).toHaveCount(1);
  await bobCard.getByTestId('step-field').nth(1).getByTestId('step-field-value').fill(bob.password);
  await expect(dialog.getByTestId('env-flag')).toHaveCount(0);
  await expect(dialog.getByTestId('scan-next')).toBeEnabled();
});

test('server validation errors land on their fields', async ({ page, request }) => {
  const { alice, bob } = target().users;
  await signInByStorage(page, request, data.owner);
  await page.route('**/api/scan/create', (route) =>
    route.fulfill({
      status: 400,
      json: { success: false, message: 'identities.1.login.request.path: not here', errors: [{ field: 'identities.1.login.request.path', message: 'Not a path this API has.' }] },
    }),
  );
  const dialog = await openIdentities(page);
  await fillLogin(dialog.getByTestId('identity-card').first(), 'alice', alice.username, alice.password);
  await dialog.getByTestId('identity-add').click();
  const second = dialog.getByTestId('identity-card').nth(1);
  await fillLogin(second, 'bob', bob.username, bob.password);
  await dialog.getByTestId('scan-next').click();
  await expect(dialog.getByTestId('scan-config-error')).toContainText('Could not create scan: identities.1.login.request.path: not here');
  await expect(second.getByTestId('step-path-error')).toHaveText('Not a path this API has.');
  await expect(dialog.getByTestId('identity-card').first().getByTestId('step-path-error')).toHaveCount(0);
});

test('a scan created with two identities reports them verified, with the users it registered', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { alice, bob } = target().users;
  await signInByStorage(page, request, data.owner);
  const dialog = await openIdentities(page);
  await fillLogin(dialog.getByTestId('identity-card').first(), 'alice', alice.username, alice.password);
  await dialog.getByTestId('identity-add').click();
  await fillLogin(dialog.getByTestId('identity-card').nth(1), 'bob', bob.username, bob.password);

  const created = page.waitForRequest((r) => r.url().endsWith('/api/scan/create'));
  await dialog.getByTestId('scan-next').click();
  const body = (await created).postDataJSON() as { identities: { name: string; login?: unknown }[]; signup: string; api_key_1?: string };
  expect(body.identities.map((i) => i.name)).toEqual(['alice', 'bob']);
  expect(body.signup).toBe('auto');
  expect(body.api_key_1).toBeUndefined();
  await expect(page.getByTestId('flags-modal')).toBeVisible();
  await page.getByTestId('start-scan').click();
  await expect(page.getByTestId('notice-text')).toHaveText(SCAN_MESSAGES.finished(API_NAME), { timeout: 100_000 });

  const card = page.locator(`[data-testid="api-card"][data-api-name="${API_NAME}"]`);
  await card.getByTestId('history-button').click();
  // View Report opens the scan's page; who the scan spoke as is under About this scan.
  await page.getByTestId('open-scan-page').first().click();
  await page.getByTestId('scan-tab-about').click();
  const report = page.getByTestId('report-identities');
  await expect(report).toBeVisible();
  const row = (name: string) => report.locator(`[data-testid="report-identity"][data-identity-name="${name}"]`);
  await expect(row('alice')).toContainText('login recipe (POST /auth/login)');
  await expect(row('alice').getByTestId('report-identity-verified')).toHaveText(/^alice/);
  await expect(row('bob').getByTestId('report-identity-verified')).toHaveText(/^bob/);
  await expect(row('alice').getByTestId('report-identity-failures')).toHaveText('0');
  await expect(report.getByTestId('report-created-user').first()).toBeVisible();
  // The created users' passwords stay on the server until asked for: each its own.
  await expect(report.getByTestId('report-created-user-password')).toHaveCount(0);
  await report.getByTestId('report-created-passwords').click();
  const passwords = report.getByTestId('report-created-user-password');
  await expect(passwords.first()).toHaveText(/^Pc-[A-Za-z0-9]{16}-7x$/);
  const shown = await passwords.allTextContents();
  expect(new Set(shown).size).toBe(shown.length);
  await report.getByTestId('report-created-passwords').click();
  await expect(passwords).toHaveCount(0);
  await expect(report.getByTestId('report-refreshes')).toContainText('during the scan');

  // The scan's About tab with its identity table, light then dark (the app follows the system theme).
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.locator('html')).not.toHaveClass(/theme-transition/);
    await expectNoSeriousViolations(page);
    await report.screenshot({ path: `test-results/screenshots/report-identities-${theme}.png` });
    await shoot(page, `scan-about-identities-${theme}`, false);
  }
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    // Tall enough for the whole dialog to be on screen (and in the screenshot).
    test.use({ colorScheme: theme, reducedMotion: 'reduce', viewport: { width: 1280, height: 2600 } });

    test('the Identities step with a tested identity and one with errors: accessible; screenshots', async ({ page, request }) => {
      // Four accessibility audits of a 2600-px page (now with kept setups) and a live login Test: 37 s here with
      // both themes side by side, over 60 s once a third process loads the machine.
      test.setTimeout(90_000);
      const { alice } = target().users;
      await signInByStorage(page, request, data.owner);
      const dialog = await openIdentities(page);
      const first = dialog.getByTestId('identity-card').first();
      await fillLogin(first, 'alice', alice.username, alice.password);
      await first.getByTestId('identity-test').click();
      await expect(first.getByTestId('identity-test-result')).toHaveAttribute('data-ok', 'true', { timeout: 15_000 });
      await dialog.getByTestId('identity-add').click();
      const second = dialog.getByTestId('identity-card').nth(1);
      await second.getByTestId('identity-kind').selectOption('oauth2');
      await second.getByTestId('oauth-grant').selectOption('password');
      await second.getByTestId('identity-role').selectOption('lower');
      await second.getByTestId('identity-place').selectOption('header');
      await second.getByTestId('place-value').fill('Token {token}');
      await dialog.getByTestId('scan-next').click();
      await expect(second.getByTestId('oauth-username-error')).toBeVisible();
      await expect(second.getByTestId('oauth-username')).toBeFocused();
      await expectNoSeriousViolations(page);
      await dialog.screenshot({ path: `test-results/screenshots/modal-identities-${theme}.png` });

      await dialog.getByTestId('yaml-import-open').click();
      await dialog.getByTestId('yaml-import-text').fill('identities:\n  - name: ci\n    login:\n      request: { path: /auth/login }\n      token: { from: body, pointr: /t }\n');
      await dialog.getByTestId('yaml-import-submit').click();
      await expect(dialog.getByTestId('yaml-import-error').first()).toBeVisible();
      await expectNoSeriousViolations(page);
      await dialog.getByTestId('yaml-import').screenshot({ path: `test-results/screenshots/modal-identities-import-${theme}.png` });

      // An invalid identity holds the export back; without it the YAML shows.
      await dialog.getByTestId('yaml-export-open').click();
      await expect(dialog.getByTestId('yaml-export-invalid')).toBeVisible();
      await second.getByTestId('identity-remove').click();
      await expect(dialog.getByTestId('yaml-export-text')).toHaveValue(/PORTCULLIS_ALICE_PASSWORD/);
      await expectNoSeriousViolations(page);
      await dialog.getByTestId('yaml-export').screenshot({ path: `test-results/screenshots/modal-identities-export-${theme}.png` });
    });
  });
}
