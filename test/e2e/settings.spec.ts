// Settings (spec sections 2-5, 8): validation messages, the basic-then-extended save with its partial
// success, saving states, the password form, Reset Changes, session expiry, a missing token and the
// request timeouts.

import type { Page } from '@playwright/test';
import { DELAYS, SETTINGS_TIMEOUTS, STORAGE_KEYS } from '../../shared/constants';
import { API_MESSAGES, PASSWORD_CHANGE_MESSAGES, SETTINGS_MESSAGES } from '../../shared/messages';
import { createAccount, expect, serverUrl, signInByStorage, test, type Account } from './fixtures';

async function openSettings(page: Page, request: Parameters<typeof createAccount>[0]): Promise<Account> {
  const account = await createAccount(request);
  await signInByStorage(page, request, account);
  await page.goto('/settings');
  await expect(page.getByTestId('settings-profile-save')).toBeEnabled();
  return account;
}

const error = (page: Page, field: string) => page.getByTestId(`settings-${field}-error`);

test.describe('Settings', () => {
  test('profile validation messages, field by field', async ({ page, request }) => {
    await openSettings(page, request);
    const save = page.getByTestId('settings-profile-save');
    const cases: { field: string; value: string; message: string }[] = [
      { field: 'firstName', value: '', message: SETTINGS_MESSAGES.firstNameRequired },
      { field: 'firstName', value: 'A', message: SETTINGS_MESSAGES.firstNameTooShort },
      { field: 'firstName', value: 'A'.repeat(51), message: SETTINGS_MESSAGES.firstNameTooLong },
      { field: 'lastName', value: '  ', message: SETTINGS_MESSAGES.lastNameRequired },
      { field: 'lastName', value: 'L', message: SETTINGS_MESSAGES.lastNameTooShort },
      { field: 'lastName', value: 'L'.repeat(51), message: SETTINGS_MESSAGES.lastNameTooLong },
      { field: 'username', value: 'ab', message: SETTINGS_MESSAGES.usernameTooShort },
      { field: 'username', value: 'a'.repeat(31), message: SETTINGS_MESSAGES.usernameTooLong },
      { field: 'username', value: 'bad name!', message: SETTINGS_MESSAGES.usernameChars },
    ];
    for (const c of cases) {
      await page.reload();
      await expect(save).toBeEnabled();
      await page.getByTestId(`settings-${c.field}`).fill(c.value);
      await save.click();
      await expect(error(page, c.field)).toHaveText(c.message);
      await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.fixErrors);
      await expect(page.getByTestId(`settings-${c.field}`)).toHaveAttribute('aria-invalid', 'true');
    }
    // The bio input stops at 500 characters.
    await page.reload();
    await page.getByTestId('settings-bio').fill('b'.repeat(520));
    await expect(page.getByTestId('settings-bio')).toHaveValue('b'.repeat(500));
  });

  test('basic then extended: names saved and shown, extended errors give the partial-success message', async ({ page, request }) => {
    const account = await openSettings(page, request);
    await page.getByTestId('settings-firstName').fill('Grace');
    await page.getByTestId('settings-lastName').fill('Hopper');
    await page.getByTestId('settings-phone').fill('call me');
    await page.getByTestId('settings-website_url').fill('example.com');
    await page.getByTestId('settings-profile-save').click();
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.extendedPartial);
    await expect(error(page, 'phone')).toHaveText(SETTINGS_MESSAGES.phoneInvalid);
    await expect(error(page, 'website_url')).toHaveText(SETTINGS_MESSAGES.websiteInvalid);
    // The basic profile was saved: the header shows the new name at once.
    await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');
    const res = await request.post(`${serverUrl()}/api/auth/login`, { data: { username: account.username, password: account.password } });
    expect(((await res.json()) as { data: { user: { firstName: string } } }).data.user.firstName).toBe('Grace');
  });

  test('a username someone else has: the 409 text on the field and the banner', async ({ page, request }) => {
    const other = await createAccount(request);
    await openSettings(page, request);
    await page.getByTestId('settings-username').fill(other.username);
    await page.getByTestId('settings-profile-save').click();
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.usernameTaken);
    await expect(error(page, 'username')).toHaveText(SETTINGS_MESSAGES.usernameTaken);
  });

  test('a full save shows "Updating..." with the form disabled, then success; the values stay after a reload', async ({ page, request }) => {
    await openSettings(page, request);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/user/update', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('settings-phone').fill('+27 (21) 555-0100');
    await page.getByTestId('settings-company').fill('Acme');
    await page.getByTestId('settings-timezone').selectOption('UTC+09:00');
    await page.getByTestId('settings-website_url').fill('https://acme.example');
    await page.getByTestId('settings-bio').fill('Security engineer.');
    await page.getByTestId('settings-profile-save').click();
    await expect(page.getByTestId('settings-profile-save')).toHaveText(SETTINGS_MESSAGES.updating);
    await expect(page.getByTestId('settings-profile-save')).toBeDisabled();
    await expect(page.getByTestId('settings-firstName')).toBeDisabled();
    release();
    await expect(page.getByTestId('settings-success')).toBeVisible();
    await expect(page.getByTestId('settings-profile-save')).toHaveText('Update Profile');
    await page.unroute('**/api/user/update');
    await page.reload();
    await expect(page.getByTestId('settings-phone')).toHaveValue('+27 (21) 555-0100');
    await expect(page.getByTestId('settings-timezone')).toHaveValue('UTC+09:00');
    await expect(page.getByTestId('settings-email')).toHaveAttribute('readonly', '');
    await expect(page.getByText(SETTINGS_MESSAGES.emailReadOnly)).toBeVisible();
  });

  test('password: rules, a wrong current password, then success clears the form', async ({ page, request }) => {
    const account = await openSettings(page, request);
    await page.getByTestId('settings-tab-security').click();
    const fill = async (current: string, next: string, confirm: string) => {
      await page.getByTestId('password-current').fill(current);
      await page.getByTestId('password-new').fill(next);
      await page.getByTestId('password-confirm').fill(confirm);
      await page.getByTestId('password-save').click();
    };
    await fill('', '', '');
    await expect(page.getByTestId('password-current-error')).toHaveText(PASSWORD_CHANGE_MESSAGES.currentRequired);
    await expect(page.getByTestId('password-new-error')).toHaveText(PASSWORD_CHANGE_MESSAGES.newRequired);
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.fixErrors);
    for (const [next, message] of [
      ['UPPERCASE1', PASSWORD_CHANGE_MESSAGES.lowercase],
      ['lowercase1', PASSWORD_CHANGE_MESSAGES.uppercase],
      ['NoNumbersHere', PASSWORD_CHANGE_MESSAGES.number],
    ] as const) {
      await fill(account.password, next, next);
      await expect(page.getByTestId('password-new-error')).toHaveText(message);
    }
    await fill(account.password, 'Different1', 'Different2');
    await expect(page.getByTestId('password-confirm-error')).toHaveText(PASSWORD_CHANGE_MESSAGES.confirmMismatch);
    await fill(account.password, account.password, account.password);
    await expect(page.getByTestId('password-new-error')).toHaveText(PASSWORD_CHANGE_MESSAGES.mustDiffer);

    await fill('Not-the-password1', 'Brand-new-pass1', 'Brand-new-pass1');
    await expect(page.getByTestId('settings-error')).toHaveText(PASSWORD_CHANGE_MESSAGES.currentIncorrect);

    await fill(account.password, 'Brand-new-pass1', 'Brand-new-pass1');
    await expect(page.getByTestId('settings-success')).toHaveText(PASSWORD_CHANGE_MESSAGES.success);
    for (const id of ['password-current', 'password-new', 'password-confirm']) await expect(page.getByTestId(id)).toHaveValue('');
    const login = await request.post(`${serverUrl()}/api/auth/login`, { data: { username: account.username, password: 'Brand-new-pass1' } });
    expect(login.ok()).toBe(true);
  });

  test('preferences: "Saving...", saved across reloads, and Reset Changes asks first', async ({ page, request }) => {
    await openSettings(page, request);
    await page.getByTestId('settings-tab-notifications').click();
    const weekly = page.getByTestId('pref-weeklyReport');
    await expect(weekly).not.toBeChecked();
    await weekly.check();

    // Reset asks; dismissing keeps the edit, accepting reverts it.
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByTestId('prefs-reset-notifications').click();
    await expect.poll(() => asked).toEqual([API_MESSAGES.confirmReset]);
    await expect(weekly).toBeChecked();
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('prefs-reset-notifications').click();
    await expect(weekly).not.toBeChecked();

    await weekly.check();
    await page.getByTestId('settings-tab-preferences').click();
    await page.getByTestId('pref-emailFrequency').selectOption('monthly');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/user/preferences', async (route) => {
      if (route.request().method() === 'PUT') await held;
      await route.continue();
    });
    await page.getByTestId('prefs-save-preferences').click();
    await expect(page.getByTestId('prefs-save-preferences')).toHaveText(SETTINGS_MESSAGES.saving);
    await expect(page.getByTestId('pref-emailFrequency')).toBeDisabled();
    release();
    await expect(page.getByTestId('settings-success')).toBeVisible();
    await page.reload();
    await page.getByTestId('settings-tab-notifications').click();
    await expect(page.getByTestId('pref-weeklyReport')).toBeChecked();
    await page.getByTestId('settings-tab-preferences').click();
    await expect(page.getByTestId('pref-emailFrequency')).toHaveValue('monthly');
  });

  test('a session that expired: the message, then logout and /login after 3 s', async ({ page, request }) => {
    await openSettings(page, request);
    const token = await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authToken);
    await request.post(`${serverUrl()}/api/auth/logout`, { headers: { authorization: `Bearer ${token}` }, data: {} });
    await page.getByTestId('settings-profile-save').click();
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.sessionExpired);
    const shownAt = Date.now();
    await expect(page.getByTestId('settings-profile-save')).toBeDisabled();
    await page.waitForURL('**/login', { timeout: DELAYS.sessionExpiredRedirectMs + 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(DELAYS.sessionExpiredRedirectMs - 300);
    expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authToken)).toBeNull();
  });

  test('a missing token: the message, then logout and /login after 3 s', async ({ page, request }) => {
    await openSettings(page, request);
    // Another tab signed out: the stored token is gone.
    await page.evaluate((k) => localStorage.removeItem(k), STORAGE_KEYS.authToken);
    await page.getByTestId('settings-tab-notifications').click();
    await page.getByTestId('prefs-save-notifications').click();
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.tokenMissing);
    await page.waitForURL('**/login', { timeout: DELAYS.sessionExpiredRedirectMs + 5_000 });
  });

  test('requests time out: 15 s for a write, 10 s for a read, with the spec message', async ({ page, request }) => {
    await page.clock.install();
    await openSettings(page, request);
    // The write never gets an answer.
    await page.route('**/api/user/preferences', (route) => (route.request().method() === 'PUT' ? undefined : route.continue()));
    await page.getByTestId('settings-tab-notifications').click();
    await page.getByTestId('prefs-save-notifications').click();
    await expect(page.getByTestId('prefs-save-notifications')).toHaveText(SETTINGS_MESSAGES.saving);
    await page.clock.fastForward(SETTINGS_TIMEOUTS.writeMs - 1_000);
    await expect(page.getByTestId('settings-error')).toHaveCount(0);
    await page.clock.fastForward(1_500);
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.timeout);

    // A read that never answers: the load gives up after 10 s.
    await page.unroute('**/api/user/preferences');
    await page.route('**/api/user/extended-profile', () => undefined);
    await Promise.all([page.waitForRequest('**/api/user/extended-profile'), page.reload()]);
    await page.clock.fastForward(SETTINGS_TIMEOUTS.readMs + 500);
    await expect(page.getByTestId('settings-error')).toHaveText(SETTINGS_MESSAGES.loadFailed);
  });
});
