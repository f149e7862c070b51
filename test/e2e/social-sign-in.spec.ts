// Social sign-in in a real browser against a real OpenID provider (oidc-provider on 127.0.0.1): a team
// server configured for it sends the page to the provider (PKCE, account chooser) and back; the page
// exchanges the code through the server and is signed in. A cancel at the provider shows the spec's text.

import { LOGIN_MESSAGES, SIGNUP_MESSAGES, SOCIAL_MESSAGES } from '../../shared/messages';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider';
import { expect, test } from './fixtures';
import { startSecondServer, type SecondServer } from './second-server';

const CLIENT = { client_id: 'portcullis-e2e', client_secret: 'e2e-secret', redirect_uris: ['http://127.0.0.1/login', 'http://127.0.0.1/signup'] };
let idp: TestProvider;
let server: SecondServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  idp = await startTestProvider([CLIENT]);
  server = await startSecondServer({
    PORTCULLIS_OIDC_ISSUER: idp.issuer,
    PORTCULLIS_OIDC_CLIENT_ID: CLIENT.client_id,
    PORTCULLIS_OIDC_CLIENT_SECRET: CLIENT.client_secret,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

test('signs in through the provider and lands on the dashboard', async ({ page }) => {
  idp.setAccount({ sub: 'e2e-grace', email: 'grace.e2e@example.com', email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
  await page.goto(`${server.url}/login`);
  const leaving = page.waitForRequest((r) => r.url().startsWith(`${idp.issuer}/auth?`));
  await page.getByTestId('social-signin').click();
  const auth = new URL((await leaving).url());
  expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
  expect(auth.searchParams.get('prompt')).toBe('select_account');
  expect(auth.searchParams.get('redirect_uri')).toBe(`${server.url}/login`);
  await expect(page.getByTestId('login-success')).toHaveText(LOGIN_MESSAGES.success);
  await expect(page).toHaveURL(`${server.url}/dashboard`);
  await expect(page.getByTestId('signed-in-shell')).toContainText('Grace Hopper');
});

test('sign-up with the provider works the same way', async ({ page }) => {
  idp.setAccount({ sub: 'e2e-ada', email: 'ada.e2e@example.com', email_verified: true, name: 'Ada Lovelace' });
  await page.goto(`${server.url}/signup`);
  await page.getByTestId('social-signin').click();
  await expect(page.getByTestId('signup-success')).toHaveText(SIGNUP_MESSAGES.success);
  await expect(page).toHaveURL(`${server.url}/dashboard`);
  await expect(page.getByTestId('signed-in-shell')).toContainText('Ada Lovelace');
});

test('a cancel at the provider comes back as the spec\'s message, with a clean URL', async ({ page }) => {
  idp.refuseNext('access_denied');
  await page.goto(`${server.url}/login`);
  await page.getByTestId('social-signin').click();
  await expect(page.getByTestId('login-error')).toHaveText(SOCIAL_MESSAGES.loginCancelled);
  await expect(page).toHaveURL(`${server.url}/login`);
});
