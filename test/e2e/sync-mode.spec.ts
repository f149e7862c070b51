// Sync mode in a real browser acting as the desktop app (test/e2e/desktop-bridge.ts relays its calls
// to the first team server, standing in for the local core): signed in there, it connects to a
// second team server (started here, allowing the first one's origin) from Settings, signs in there
// with an account only that server has, says so on every page, and returns on Disconnect.

import { TEAM_SERVER_MESSAGES } from '../../shared/messages';
import { actAsDesktop } from './desktop-bridge';
import { createAccount, createAccountOn, expect, newAccount, serverUrl, signInByStorage, test } from './fixtures';
import { startSecondServer, type SecondServer } from './second-server';

let second: SecondServer;

test.beforeAll(async () => {
  second = await startSecondServer({ PORTCULLIS_CORS_ORIGINS: serverUrl() });
});
test.afterAll(async () => {
  await second?.stop();
});

test('the browser app of a team server has no Team server tab or panel', async ({ page, request }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-page')).toBeVisible();
  await expect(page.getByTestId('login-team-server')).toHaveCount(0);
  await signInByStorage(page, request, await createAccount(request));
  await page.goto('/settings');
  await expect(page.getByTestId('settings-tab-profile')).toBeVisible();
  await expect(page.getByTestId('settings-tab-team-server')).toHaveCount(0);
});

test('Settings → Team server connects to a second server, signs in there and shows it is connected', async ({ page, request }) => {
  const local = await createAccount(request);
  const remote = await createAccountOn(request, second.url, newAccount());
  const secondHost = new URL(second.url).host;
  // Sync mode is the desktop app's: the browser app of a team server has no Team server tab.
  await actAsDesktop(page);
  await signInByStorage(page, request, local);
  await page.goto('/settings');
  await page.getByTestId('settings-tab-team-server').click();
  await expect(page.getByTestId('settings-panel-team-server').getByTestId('team-server-status')).toContainText('Not connected');
  await expect(page.getByTestId('server-banner')).toHaveCount(0);

  // Plain http to another machine, and a server that is not there: refused with a reason, nothing changes.
  const panel = page.getByTestId('settings-panel-team-server');
  await panel.getByTestId('team-server-url').fill('http://team.example.com');
  await panel.getByTestId('team-server-connect').click();
  await expect(panel.getByTestId('team-server-error')).toHaveText(TEAM_SERVER_MESSAGES.httpsRequired);
  await panel.getByTestId('team-server-url').fill('http://127.0.0.1:9');
  await panel.getByTestId('team-server-connect').click();
  await expect(panel.getByTestId('team-server-error')).toHaveText(TEAM_SERVER_MESSAGES.unreachable('http://127.0.0.1:9'));
  await expect(page).toHaveURL(/\/settings$/);

  // Connecting ends the session here and asks to sign in on the server.
  await panel.getByTestId('team-server-url').fill(second.url);
  await panel.getByTestId('team-server-connect').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-notice')).toHaveText(TEAM_SERVER_MESSAGES.connected(secondHost));
  await expect(page.getByTestId('server-banner-host')).toHaveText(secondHost);

  // Sign-in goes to the second server (the account does not exist on the first).
  const loginCall = page.waitForRequest((r) => r.url() === `${second.url}/api/auth/login` && r.method() === 'POST');
  await page.getByTestId('login-identifier').fill(remote.username);
  await page.getByTestId('login-password').fill(remote.password);
  await page.getByTestId('login-submit').click();
  await loginCall;
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('server-banner-host')).toHaveText(secondHost);
  await expect(page.getByTestId('signed-in-shell')).toContainText(`${remote.firstName} ${remote.lastName}`);

  // Settings says so too.
  await page.goto('/settings');
  await page.getByTestId('settings-tab-team-server').click();
  await expect(page.getByTestId('settings-panel-team-server').getByTestId('team-server-status')).toContainText(`Connected to ${secondHost}`);

  // A reload keeps the connection and the session on that server.
  const profileCall = page.waitForRequest((r) => r.url().startsWith(`${second.url}/api/user/profile`));
  await page.reload();
  await profileCall;
  await expect(page.getByTestId('server-banner-host')).toHaveText(secondHost);
  await expect(page).toHaveURL(/\/settings$/);

  // Disconnect: back to the first server, signed out.
  await page.getByTestId('server-banner-disconnect').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-notice')).toHaveText(TEAM_SERVER_MESSAGES.disconnected);
  await expect(page.getByTestId('server-banner')).toHaveCount(0);
  const localLogin = page.waitForRequest((r) => r.url() === `${serverUrl()}/api/auth/login`);
  await page.getByTestId('login-identifier').fill(remote.username);
  await page.getByTestId('login-password').fill(remote.password);
  await page.getByTestId('login-submit').click();
  await localLogin;
  await expect(page.getByTestId('login-error')).toBeVisible();
});
