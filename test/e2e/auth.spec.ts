// Sign-up, login, the return-to path, forgot -> recover -> login, the sign-in guard and logout,
// against the real team server.

import { LOGIN_MESSAGES, RESET_MESSAGES, SERVER_MESSAGES, SIGNUP_MESSAGES, SOCIAL_MESSAGES, FORGOT_MESSAGES } from '../../shared/messages';
import { DELAYS, STORAGE_KEYS } from '../../shared/constants';
import { createAccount, expect, newAccount, resetLinkFor, signInByStorage, test, trackRedirect } from './fixtures';

/** React commits the message a few ms after the timer starts; a timer never fires early. */
const COMMIT_SLACK_MS = 50;
const expectDelay = (measured: number, delay: number) => {
  expect(measured).toBeGreaterThanOrEqual(delay - COMMIT_SLACK_MS);
  expect(measured).toBeLessThan(delay + 1000);
};

test.describe('sign-up', () => {
  test('shows the validation messages one by one in the spec order, shaking each time', async ({ page }) => {
    const a = newAccount();
    await page.goto('/signup');
    const error = page.getByTestId('signup-error');
    const card = page.getByTestId('signup-page');
    const submit = page.getByTestId('signup-submit');
    const steps: [() => Promise<void>, string][] = [
      [async () => {}, SIGNUP_MESSAGES.firstNameRequired],
      [() => page.getByTestId('signup-first-name').fill('   '), SIGNUP_MESSAGES.firstNameRequired],
      [() => page.getByTestId('signup-first-name').fill(a.firstName), SIGNUP_MESSAGES.lastNameRequired],
      [() => page.getByTestId('signup-last-name').fill(a.lastName), SIGNUP_MESSAGES.emailRequired],
      [() => page.getByTestId('signup-email').fill('ada-at-example.com'), SIGNUP_MESSAGES.emailInvalid],
      [() => page.getByTestId('signup-email').fill(a.email), SIGNUP_MESSAGES.usernameRequired],
      [() => page.getByTestId('signup-username').fill('ad'), SIGNUP_MESSAGES.usernameTooShort],
      [() => page.getByTestId('signup-username').fill(a.username), SIGNUP_MESSAGES.passwordRequired],
      [() => page.getByTestId('signup-password').fill('short'), SIGNUP_MESSAGES.passwordTooShort],
      [() => page.getByTestId('signup-password').fill(a.password), SIGNUP_MESSAGES.passwordsMustMatch],
      [() => page.getByTestId('signup-confirm-password').fill(`${a.password}x`), SIGNUP_MESSAGES.passwordsMustMatch],
      [() => page.getByTestId('signup-confirm-password').fill(a.password), SIGNUP_MESSAGES.termsRequired],
    ];
    let shakes = 0;
    for (const [act, message] of steps) {
      await act();
      await submit.click();
      await expect(error).toHaveText(message);
      shakes += 1;
      await expect(card).toHaveAttribute('data-shake-count', String(shakes));
    }
    // The hints of spec section 2 are on the page.
    await expect(page.getByText(SIGNUP_MESSAGES.usernameHint)).toBeVisible();
    await expect(page.getByText(SIGNUP_MESSAGES.passwordHint)).toBeVisible();
    // Nothing was sent: the address is still free.
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('signs up, signs in automatically and lands on the dashboard after 1.5 s', async ({ page }) => {
    const a = newAccount();
    const delay = await trackRedirect(page, 'signup-success');
    await page.goto('/signup');
    await page.getByTestId('signup-first-name').fill(`  ${a.firstName} `);
    await page.getByTestId('signup-last-name').fill(a.lastName);
    await page.getByTestId('signup-email').fill(a.email.toUpperCase());
    await page.getByTestId('signup-username').fill(a.username.toUpperCase());
    await page.getByTestId('signup-password').fill(a.password);
    await page.getByTestId('signup-confirm-password').fill(a.password);
    await page.getByTestId('signup-terms').check();
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('signup-success')).toHaveText(SIGNUP_MESSAGES.success);
    await page.waitForURL('**/dashboard');
    expectDelay(await delay('/dashboard'), DELAYS.signupRedirectMs);
    await expect(page.getByTestId('dashboard-page')).toBeVisible();
    await expect(page.getByTestId('user-name')).toHaveText(`${a.firstName} ${a.lastName}`);
    await expect(page.getByTestId('user-initial')).toHaveText('AL');
    const stored = await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authToken);
    expect(stored).toBeTruthy();
  });

  test('shows the server message when the email is taken', async ({ page, request }) => {
    const existing = await createAccount(request);
    const a = newAccount();
    await page.goto('/signup');
    await page.getByTestId('signup-first-name').fill(a.firstName);
    await page.getByTestId('signup-last-name').fill(a.lastName);
    await page.getByTestId('signup-email').fill(existing.email);
    await page.getByTestId('signup-username').fill(a.username);
    await page.getByTestId('signup-password').fill(a.password);
    await page.getByTestId('signup-confirm-password').fill(a.password);
    await page.getByTestId('signup-terms').check();
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('signup-error')).toHaveText(SERVER_MESSAGES.emailTaken);
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('/register leads to the sign-up page', async ({ page }) => {
    await page.goto('/register');
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByTestId('signup-page')).toBeVisible();
  });
});

test.describe('login', () => {
  test('by username: success message, then the dashboard after 0.8 s', async ({ page, request }) => {
    const a = await createAccount(request);
    const delay = await trackRedirect(page, 'login-success');
    await page.goto('/login');
    await expect(page.getByTestId('login-page')).toHaveAttribute('data-phase', 'entered');
    await page.getByTestId('login-identifier').fill(a.username);
    await page.getByTestId('login-password').fill(a.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-success')).toHaveText(LOGIN_MESSAGES.success);
    await page.waitForURL('**/dashboard');
    expectDelay(await delay('/dashboard'), DELAYS.loginRedirectMs);
    await expect(page.getByTestId('user-name')).toHaveText(`${a.firstName} ${a.lastName}`);
  });

  test('by email, whatever its case', async ({ page, request }) => {
    const a = await createAccount(request);
    await page.goto('/login');
    await page.getByTestId('login-identifier').fill(a.email.toUpperCase());
    await page.getByTestId('login-password').fill(a.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/dashboard');
    await expect(page.getByTestId('dashboard-user')).toHaveText(`${a.firstName} ${a.lastName}`);
  });

  test('asks for both fields, shows the server message, and clears the error on edit', async ({ page, request }) => {
    const a = await createAccount(request);
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText(LOGIN_MESSAGES.bothRequired);
    await page.getByTestId('login-identifier').fill(a.username);
    await expect(page.getByTestId('login-error')).toHaveCount(0);
    await page.getByTestId('login-password').fill('not the password');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText(SERVER_MESSAGES.invalidCredentials);
    await page.getByTestId('login-password').press('End');
    await page.getByTestId('login-password').pressSequentially('!');
    await expect(page.getByTestId('login-error')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a server without a social provider shows no social button on either page', async ({ page }) => {
    const environment = page.waitForResponse((r) => r.url().endsWith('/api/environment'));
    await page.goto('/login');
    await environment;
    await expect(page.getByTestId('login-identifier')).toBeVisible();
    await expect(page.getByTestId('social-signin')).toHaveCount(0);
    await expect(page.getByText('or sign in with your account')).toHaveCount(0);
    await page.goto('/signup');
    await expect(page.getByTestId('signup-page')).toBeVisible();
    await expect(page.getByTestId('social-signin')).toHaveCount(0);
  });

  test('an OAuth error in the return URL is shown and the URL cleaned', async ({ page }) => {
    await page.goto('/login?error=access_denied');
    await expect(page.getByTestId('login-error')).toHaveText(SOCIAL_MESSAGES.loginCancelled);
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/signup#error=invalid_request');
    await expect(page.getByTestId('signup-error')).toHaveText(SOCIAL_MESSAGES.signupInvalidRequest);
  });

  test('returns to the page first requested', async ({ page, request }) => {
    const a = await createAccount(request);
    await page.goto('/settings?tab=security');
    await page.waitForURL('**/login');
    await page.getByTestId('login-identifier').fill(a.username);
    await page.getByTestId('login-password').fill(a.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/settings?tab=security');
    await expect(page.getByTestId('settings-page')).toBeVisible();
  });
});

test.describe('forgot and recover', () => {
  test('forgot -> reset link from the server log -> recover -> login with the new password', async ({ page, request }) => {
    const a = await createAccount(request);
    await page.goto('/login');
    await page.getByTestId('forgot-password-link').click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByTestId('forgot-email').fill(`  ${a.email}  `);
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-result')).toHaveText(FORGOT_MESSAGES.generic);

    const link = await resetLinkFor(a.email);
    expect(new URL(link).pathname).toBe('/recover');
    const delay = await trackRedirect(page, 'recover-success');
    await page.goto(link);
    await expect(page.getByTestId('recover-no-token')).toHaveCount(0);
    const newPassword = `${a.password}-renewed`;
    await page.getByTestId('recover-password').fill(newPassword);
    await page.getByTestId('recover-confirm-password').fill(`${newPassword}x`);
    await page.getByTestId('recover-submit').click();
    await expect(page.getByTestId('recover-error')).toHaveText(RESET_MESSAGES.mismatch);
    await page.getByTestId('recover-confirm-password').fill(newPassword);
    await page.getByTestId('recover-submit').click();
    await expect(page.getByTestId('recover-success')).toHaveText(RESET_MESSAGES.success);
    await page.waitForURL('**/login');
    expectDelay(await delay('/login'), DELAYS.resetRedirectMs);

    await page.getByTestId('login-identifier').fill(a.username);
    await page.getByTestId('login-password').fill(a.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText(SERVER_MESSAGES.invalidCredentials);
    await page.getByTestId('login-password').fill(newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/dashboard');

    // The link is single-use.
    await page.evaluate(() => localStorage.clear());
    await page.goto(link);
    await page.getByTestId('recover-password').fill('another-password-1');
    await page.getByTestId('recover-confirm-password').fill('another-password-1');
    await page.getByTestId('recover-submit').click();
    await expect(page.getByTestId('recover-error')).toHaveText(RESET_MESSAGES.failed);
  });

  test('the generic message also answers an unknown address', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByTestId('forgot-email').fill(newAccount().email);
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-result')).toHaveText(FORGOT_MESSAGES.generic);
  });

  test('Back goes one step back and Go to Login goes to /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('forgot-password-link').click();
    await page.getByTestId('forgot-back').click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/forgot-password');
    await page.getByTestId('go-to-login').click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('recover without a token says where to open it and cannot be submitted', async ({ page }) => {
    await page.goto('/recover');
    await expect(page.getByTestId('recover-no-token')).toHaveText(RESET_MESSAGES.noToken);
    await expect(page.getByTestId('recover-submit')).toBeDisabled();
  });
});

test.describe('sign-in guard', () => {
  test('sends visitors to /login, for any signed-in route and for unknown paths', async ({ page }) => {
    for (const path of ['/dashboard', '/home', '/manage-apis', '/settings', '/documentation', '/guide/first-scan', '/no-such-page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByTestId('login-page')).toBeVisible();
    }
  });

  test('shows a spinner while the stored session is checked, then the page', async ({ page, request }) => {
    const a = await createAccount(request);
    await signInByStorage(page, request, a);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/user/profile', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/documentation');
    await expect(page.getByTestId('loading-spinner')).toBeVisible();
    await expect(page).toHaveURL(/\/documentation$/);
    release();
    await expect(page.getByTestId('documentation-page')).toBeVisible();
    await expect(page.getByTestId('loading-spinner')).toHaveCount(0);
  });

  test('a stale token is cleared and the visitor sent to /login', async ({ page }) => {
    await page.addInitScript((k) => localStorage.setItem(k, 'not-a-real-token'), STORAGE_KEYS.authToken);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authToken)).toBeNull();
  });

  test('signed in: routes, guide view, not-found inside the frame, and public-only pages redirect', async ({ page, request }) => {
    const a = await createAccount(request);
    await signInByStorage(page, request, a);
    await page.goto('/guide/first-scan');
    await expect(page.getByTestId('guide-view')).toHaveAttribute('data-guide-id', 'first-scan');
    await expect(page.getByTestId('guide-title')).toHaveText('Import an API and run your first scan');
    await page.goto('/no-such-page');
    await expect(page.getByTestId('not-found-page')).toBeVisible();
    await expect(page.getByTestId('signed-in-shell')).toBeVisible();
    for (const path of ['/landing', '/login', '/signup', '/']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    for (const [label, path] of [['Home', '/home'], ['API Management', '/manage-apis'], ['Settings', '/settings'], ['Dashboard', '/dashboard']]) {
      await page.getByTestId('app-nav').getByRole('link', { name: label }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await page.getByRole('contentinfo').getByRole('link', { name: 'Documentation' }).click();
    await expect(page.getByTestId('documentation-page')).toBeVisible();
  });

  test('Logout asks first, then goes to /login replacing the history entry', async ({ page, request }) => {
    const a = await createAccount(request);
    await signInByStorage(page, request, a);
    await page.goto('/landing');
    await page.waitForURL('**/dashboard');
    await page.goto('/settings');

    const messages: string[] = [];
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await page.getByTestId('logout-button').click();
    await expect.poll(() => messages).toEqual([LOGIN_MESSAGES.logoutConfirm]);
    await expect(page).toHaveURL(/\/settings$/);

    const historyLength = await page.evaluate(() => history.length);
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('logout-button').click();
    await page.waitForURL('**/login');
    await expect(page.getByTestId('login-page')).toBeVisible();
    expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authToken)).toBeNull();
    // /settings was replaced, not pushed; going back cannot show a signed-in page.
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('signed-in-shell')).toHaveCount(0);
  });
});
