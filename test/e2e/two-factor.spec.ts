// Account security in the browser (issue 11): enrol an authenticator from Settings > Security, keep
// the recovery codes, sign in with a code, sign in with a recovery code, see the sessions, turn off.

import * as OTPAuth from 'otpauth';
import { expectNoSeriousViolations, shoot, watchConsole } from './a11y';
import { createAccount, expect, signInByStorage, test } from './fixtures';

/**
 * Codes for one secret, each from a time step after the last one used (the server takes a step once,
 * and one step either side of now). Waits only when the next unused step is more than one ahead.
 */
function codesFor(secret: string): () => Promise<string> {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  let last = -Infinity;
  return async () => {
    const now = () => totp.counter({ timestamp: Date.now() });
    const step = Math.max(last + 1, now());
    while (step > now() + 1) await new Promise((r) => setTimeout(r, 250));
    last = step;
    return totp.generate({ timestamp: step * 30_000 });
  };
}

test('enrol two-factor, then sign in with a code and with a recovery code', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const account = await createAccount(request);
  await signInByStorage(page, request, account);
  await page.goto('/settings');
  await page.getByTestId('settings-tab-security').click();
  await expect(page.getByTestId('two-factor-state')).toHaveText('Off');

  // Enrolment: QR code and key, confirmed by a first code.
  await page.getByTestId('two-factor-setup').click();
  await expect(page.getByTestId('two-factor-qr')).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
  const nextCode = codesFor(secret);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shoot(page, 'settings-two-factor-setup-light');
  await page.getByTestId('two-factor-confirm-code').fill('000000');
  await page.getByTestId('two-factor-confirm').click();
  await expect(page.getByTestId('two-factor-error')).toHaveText('Invalid code. Please try again.');
  await page.getByTestId('two-factor-confirm-code').fill(await nextCode());
  await page.getByTestId('two-factor-confirm').click();
  const codes = page.getByTestId('two-factor-recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  const recovery = await codes.first().innerText();
  await expectNoSeriousViolations(page);
  await shoot(page, 'settings-two-factor-codes-light');
  await page.getByTestId('two-factor-codes-done').click();
  await expect(page.getByTestId('two-factor-state')).toHaveText('On');
  await expect(page.getByTestId('session-row')).toHaveCount(1);

  // Sign out, then in: the password alone is not enough.
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByTestId('login-identifier').fill(account.username);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('two-factor-step')).toBeVisible();
  await expect(page.getByTestId('two-factor-prompt')).toHaveText('Enter the 6-digit code from your authenticator app, or a recovery code.');
  await expectNoSeriousViolations(page);
  await shoot(page, 'login-two-factor-light');
  await page.getByTestId('two-factor-code').fill('123456');
  await page.getByTestId('two-factor-submit').click();
  await expect(page.getByTestId('two-factor-error')).toHaveText('Invalid code. Please try again.');
  await page.getByTestId('two-factor-code').fill(await nextCode());
  await page.getByTestId('two-factor-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // And once more with a recovery code.
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('logout-button').click();
  await page.getByTestId('login-identifier').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('two-factor-code').fill(recovery);
  await page.getByTestId('two-factor-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Settings shows the sign-ins and nine recovery codes left; turning off needs password and code.
  await page.goto('/settings');
  await page.getByTestId('settings-tab-security').click();
  await expect(page.getByTestId('two-factor-panel')).toContainText('Recovery codes left: 9.');
  await expect(page.getByTestId('sign-ins-table').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('two-factor-disable').click();
  await page.getByTestId('two-factor-password').fill(account.password);
  await page.getByTestId('two-factor-disable-code').fill(await nextCode());
  await page.getByTestId('two-factor-disable-confirm').click();
  await expect(page.getByTestId('two-factor-state')).toHaveText('Off');
  // The browser logs the refused wrong codes (400, 401) as failed loads; nothing else may appear.
  expect(problems.filter((p) => !p.startsWith('Failed to load resource'))).toEqual([]);
});
