// Social sign-in end to end over real HTTP against a real OpenID provider (oidc-provider) on
// 127.0.0.1: the browser round trip (start, provider, callback, google-login), account creation and
// linking, and every refusal of a token that must not sign anyone in.

import * as client from 'openid-client';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_MESSAGES, SOCIAL_MESSAGES } from '../../shared/messages';
import { oauthErrorFromUrl } from '../../renderer/src/lib/social';
import { createTestCore, httpTransport, openTransport, signUpAndLogin, type TestCore, type Transport } from '../helpers/core';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider';

const CLIENT = { client_id: 'portcullis-test', client_secret: 'test-secret', redirect_uris: ['http://127.0.0.1/callback', 'http://127.0.0.1/login'] };
const OTHER_APP = { client_id: 'someone-else', client_secret: 'other-secret', redirect_uris: ['http://127.0.0.1/callback'] };
const LOOPBACK = 'http://127.0.0.1:49152/callback';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  message: string;
  data: T;
}
type Start = Envelope<{ authorizationUrl: string; state: string }>;
type Exchange = Envelope<{ idToken: string; nonce: string; profile: Record<string, string | null> }>;
type Login = Envelope<{ token: string; user: { id: string; email: string; username: string; firstName: string; lastName: string } }>;

let idp: TestProvider;
let stranger: TestProvider;
let tc: TestCore;
let t: Transport & { server: { url: string } };

beforeAll(async () => {
  idp = await startTestProvider([CLIENT, OTHER_APP]);
  stranger = await startTestProvider([CLIENT]);
  tc = await createTestCore({ oidc: { issuer: idp.issuer, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret } });
  // Tokens carry the provider's real time.
  tc.clock.set(new Date());
  t = await httpTransport(tc.core);
  tc.core.config.publicUrl = t.server.url;
});

afterAll(async () => {
  await t?.close();
  await tc?.close();
  await idp?.close();
  await stranger?.close();
});

async function start(redirectUri = LOOPBACK): Promise<{ authorizationUrl: URL; state: string }> {
  const res = await t.call<Start>('POST', '/api/auth/oidc/start', { body: { redirectUri } });
  expect(res.status, res.text).toBe(200);
  return { authorizationUrl: new URL(res.json.data.authorizationUrl), state: res.json.data.state };
}

/** start -> the provider (browser) -> callback: the ID token and nonce the client then posts. */
async function roundTrip(redirectUri = LOOPBACK): Promise<Exchange['data']> {
  const { authorizationUrl } = await start(redirectUri);
  const back = new URL(await idp.browse(authorizationUrl.href));
  expect(back.origin + back.pathname).toBe(redirectUri);
  const res = await t.call<Exchange>('POST', '/api/auth/oidc/callback', {
    body: { code: back.searchParams.get('code'), state: back.searchParams.get('state'), iss: back.searchParams.get('iss') },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

function googleLogin(idToken: string, nonce: string, payload: Record<string, unknown> = {}) {
  return t.call<Login>('POST', '/api/auth/google-login', {
    body: { email: 'x@example.com', firstName: 'X', lastName: 'Y', name: 'X Y', profilePicture: null, googleId: 'forged', provider: 'google', ...payload, idToken, nonce },
  });
}

/** An ID token minted by `provider` for `clientId`, carrying `nonce`, without going through our server. */
async function mintIdToken(provider: TestProvider, c: { client_id: string; client_secret: string }, nonce: string): Promise<string> {
  const rp = await client.discovery(new URL(provider.issuer), c.client_id, c.client_secret, undefined, { execute: [client.allowInsecureRequests] });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: LOOPBACK,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const back = await provider.browse(url.href);
  const tokens = await client.authorizationCodeGrant(rp, new URL(back), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  return tokens.id_token!;
}

describe('social sign-in (OpenID Connect + PKCE) against a real provider', () => {
  it('says in the environment that social sign-in is configured (the sign-in pages show the button)', async () => {
    const res = await t.call<{ data: { socialSignIn: boolean } }>('GET', '/api/environment');
    expect(res.json.data.socialSignIn).toBe(true);
  });

  it('starts with PKCE S256, a state, a nonce, the account chooser and the requested return address', async () => {
    const { authorizationUrl, state } = await start();
    expect(authorizationUrl.origin).toBe(idp.issuer);
    const q = authorizationUrl.searchParams;
    expect(q.get('client_id')).toBe(CLIENT.client_id);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('prompt')).toBe('select_account');
    expect(q.get('redirect_uri')).toBe(LOOPBACK);
    expect(q.get('state')).toBe(state);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('scope')).toBe('openid email profile');
  });

  it('refuses return addresses other than our pages and the loopback callback', async () => {
    for (const redirectUri of [
      'https://evil.example/login',
      `${t.server.url}/dashboard`,
      `${t.server.url}/login?next=https://evil.example`,
      'http://localhost:5000/callback',
      'http://127.0.0.1/callback',
      'http://user@127.0.0.1:5000/callback',
      'app://portcullis/login',
    ]) {
      const res = await t.call('POST', '/api/auth/oidc/start', { body: { redirectUri } });
      expect(res.status, redirectUri).toBe(400);
      expect(res.json.message).toBe(OIDC_MESSAGES.redirectNotAllowed);
    }
  });

  it('creates an account from the verified token, ignoring the profile fields the client posts', async () => {
    idp.setAccount({ sub: 'grace-1', email: 'Grace.Hopper@example.com', email_verified: true, given_name: 'Grace', family_name: 'Hopper', name: 'Grace Hopper' });
    const { idToken, nonce, profile } = await roundTrip(`${t.server.url}/login`);
    expect(profile).toMatchObject({ email: 'grace.hopper@example.com', firstName: 'Grace', lastName: 'Hopper', googleId: 'grace-1', provider: 'google' });
    const res = await googleLogin(idToken, nonce, { email: 'mallory@evil.example', googleId: 'admin', firstName: 'Mallory' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.user).toMatchObject({ email: 'grace.hopper@example.com', firstName: 'Grace', lastName: 'Hopper', username: 'grace.hopper' });
    // The session works like a password login's.
    const me = await t.call<Envelope<{ user: { id: string } }>>('GET', '/api/user/profile', { token: res.json.data.token });
    expect(me.status).toBe(200);
    expect(me.json.data.user.id).toBe(res.json.data.user.id);

    // Second sign-in: the same account, found by issuer + subject even though the email changed.
    idp.setAccount({ sub: 'grace-1', email: 'grace@navy.example', email_verified: true, name: 'Grace Hopper' });
    const again = await roundTrip();
    const second = await googleLogin(again.idToken, again.nonce);
    expect(second.status, second.text).toBe(200);
    expect(second.json.data.user.id).toBe(res.json.data.user.id);
    expect(second.json.data.token).not.toBe(res.json.data.token);
  });

  it('links to the existing account with the same verified email, then signs in by the link', async () => {
    const local = await signUpAndLogin(t, 'linked');
    idp.setAccount({ sub: 'linked-sub', email: local.email.toUpperCase(), email_verified: true, name: 'Someone Else' });
    const first = await roundTrip();
    const res = await googleLogin(first.idToken, first.nonce);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.user.id).toBe(local.id);
    // Names stay the account's own.
    expect(res.json.data.user.lastName).toBe(local.lastName);
    const second = await roundTrip();
    const again = await googleLogin(second.idToken, second.nonce);
    expect(again.json.data.user.id).toBe(local.id);
    // The password still works too.
    const login = await t.call('POST', '/api/auth/login', { body: { username: local.username, password: local.password } });
    expect(login.status).toBe(200);
  });

  it('refuses an unverified email, and never links an account by an email the provider does not vouch for', async () => {
    idp.setAccount({ sub: 'unverified-1', email: 'nobody-checked@example.com', email_verified: false, name: 'No Body' });
    const a = await roundTrip();
    const res = await googleLogin(a.idToken, a.nonce);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(OIDC_MESSAGES.emailUnverified);

    const local = await signUpAndLogin(t, 'takeover');
    idp.setAccount({ sub: 'silent-1', email: local.email, name: 'Silent Provider' });
    const b = await roundTrip();
    const takeover = await googleLogin(b.idToken, b.nonce);
    expect(takeover.status).toBe(409);
    expect(takeover.json.message).toBe(OIDC_MESSAGES.emailLinkRefused);
  });

  it('is a first factor only: an account with two-factor sign-in still answers a code', async () => {
    idp.setAccount({ sub: 'mfa-1', email: 'mfa@example.com', email_verified: true, name: 'Em Fa' });
    const first = await roundTrip();
    const signedIn = await googleLogin(first.idToken, first.nonce);
    const token = signedIn.json.data.token;
    const setup = await t.call<Envelope<{ secret: string }>>('POST', '/api/user/2fa/setup', { token });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json.data.secret) });
    const code = () => totp.generate({ timestamp: tc.clock.now().getTime() });
    expect((await t.call('POST', '/api/user/2fa/enable', { token, body: { code: code() } })).status).toBe(200);

    const again = await roundTrip();
    const res = await t.call<Envelope<{ two_factor_required?: boolean; challenge?: string; token?: string }>>('POST', '/api/auth/google-login', {
      body: { idToken: again.idToken, nonce: again.nonce },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ two_factor_required: true, challenge: expect.any(String) });
    tc.clock.advance(30_000);
    const step2 = await t.call<Login>('POST', '/api/auth/login/2fa', { body: { challenge: res.json.data.challenge, code: code() } });
    expect(step2.status, step2.text).toBe(200);
    expect(step2.json.data.user.email).toBe('mfa@example.com');
  });

  it('refuses a replayed token (the nonce is single-use)', async () => {
    idp.setAccount({ sub: 'replay-1', email: 'replay@example.com', email_verified: true, name: 'Re Play' });
    const { idToken, nonce } = await roundTrip();
    expect((await googleLogin(idToken, nonce)).status).toBe(200);
    const replay = await googleLogin(idToken, nonce);
    expect(replay.status).toBe(401);
    expect(replay.json.message).toBe(OIDC_MESSAGES.nonceReplayed);
    expect(replay.json.data).toBeUndefined();
  });

  it('refuses a token whose nonce this server never issued, or a nonce that is not the token\'s', async () => {
    idp.setAccount({ sub: 'nonce-1', email: 'nonce@example.com', email_verified: true });
    const own = await mintIdToken(idp, CLIENT, client.randomNonce());
    const res = await googleLogin(own, 'made-up-nonce');
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(OIDC_MESSAGES.nonceReplayed);
    const { idToken } = await roundTrip();
    const { nonce: otherNonce } = await roundTrip();
    const mismatch = await googleLogin(idToken, otherNonce);
    expect(mismatch.status).toBe(401);
    expect(mismatch.json.message).toBe(OIDC_MESSAGES.nonceReplayed);
  });

  it('refuses a token issued for another application (audience)', async () => {
    idp.setAccount({ sub: 'aud-1', email: 'aud@example.com', email_verified: true });
    const { authorizationUrl } = await start();
    const nonce = authorizationUrl.searchParams.get('nonce')!;
    const foreign = await mintIdToken(idp, OTHER_APP, nonce);
    const res = await googleLogin(foreign, nonce);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(OIDC_MESSAGES.wrongAudience);
  });

  it('refuses a token from another issuer, even one signed correctly by its own keys for our client id', async () => {
    stranger.setAccount({ sub: 'iss-1', email: 'iss@example.com', email_verified: true });
    const { authorizationUrl } = await start();
    const nonce = authorizationUrl.searchParams.get('nonce')!;
    const foreign = await mintIdToken(stranger, CLIENT, nonce);
    const res = await googleLogin(foreign, nonce);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe(OIDC_MESSAGES.wrongIssuer);
  });

  it('refuses a token with a bad signature, and one with its claims altered', async () => {
    idp.setAccount({ sub: 'sig-1', email: 'sig@example.com', email_verified: true });
    const { idToken, nonce } = await roundTrip();
    const [h, p, sig] = idToken.split('.') as [string, string, string];
    const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
    const bad = await googleLogin(`${h}.${p}.${flipped}`, nonce);
    expect(bad.status).toBe(401);
    expect(bad.json.message).toBe(OIDC_MESSAGES.badSignature);

    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, email: 'admin@example.com' })).toString('base64url');
    const altered = await googleLogin(`${h}.${forged}.${sig}`, nonce);
    expect(altered.status).toBe(401);
    expect(altered.json.message).toBe(OIDC_MESSAGES.badSignature);

    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect((await googleLogin(unsigned, nonce)).json.message).toBe(OIDC_MESSAGES.badSignature);
    expect((await googleLogin('not-a-jwt', nonce)).json.message).toBe(OIDC_MESSAGES.badSignature);
    // The refused attempts did not spend the nonce: the genuine token still signs in once.
    expect((await googleLogin(idToken, nonce)).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    idp.setAccount({ sub: 'exp-1', email: 'expired@example.com', email_verified: true });
    const { idToken, nonce } = await roundTrip();
    tc.clock.advance(2 * 60 * 60 * 1000);
    try {
      const res = await googleLogin(idToken, nonce);
      expect(res.status).toBe(401);
      expect(res.json.message).toBe(OIDC_MESSAGES.expired);
    } finally {
      tc.clock.set(new Date());
    }
  });

  it('exchanges a code once: a second callback with the same state is refused', async () => {
    const { authorizationUrl } = await start();
    const back = new URL(await idp.browse(authorizationUrl.href));
    const body = { code: back.searchParams.get('code'), state: back.searchParams.get('state'), iss: back.searchParams.get('iss') };
    expect((await t.call('POST', '/api/auth/oidc/callback', { body })).status).toBe(200);
    const again = await t.call('POST', '/api/auth/oidc/callback', { body });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe(OIDC_MESSAGES.flowExpired);
    const unknown = await t.call('POST', '/api/auth/oidc/callback', { body: { ...body, state: 'forged-state' } });
    expect(unknown.json.message).toBe(OIDC_MESSAGES.flowExpired);
  });

  it('the provider\'s refusals reach the page as the spec\'s messages', async () => {
    idp.refuseNext('access_denied');
    const { authorizationUrl } = await start(`${t.server.url}/login`);
    const back = new URL(await idp.browse(authorizationUrl.href));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(oauthErrorFromUrl(back.search, '', 'login')).toBe(SOCIAL_MESSAGES.loginCancelled);
    expect(oauthErrorFromUrl(back.search, '', 'signup')).toBe(SOCIAL_MESSAGES.signupCancelled);

    // The real provider refuses prompt values it does not know with invalid_request.
    const bad = new URL(authorizationUrl);
    bad.searchParams.set('prompt', 'no-such-prompt');
    const back2 = new URL(await idp.browse(bad.href));
    expect(back2.searchParams.get('error')).toBe('invalid_request');
    expect(oauthErrorFromUrl(back2.search, '', 'login')).toBe(SOCIAL_MESSAGES.loginInvalidRequest);
  });
});

describe('social sign-in without a configured provider', () => {
  // A 4xx, not 503: nothing is down, this server simply has no provider (docs/decisions.md).
  it.each(['http', 'ipc'] as const)('answers 404 with the spec\'s "not configured" text on every social route over %s', async (kind) => {
    const bare = await createTestCore({ oidc: null });
    const h = await openTransport(kind, bare.core);
    try {
      for (const path of ['/api/auth/oidc/start', '/api/auth/oidc/callback', '/api/auth/google-login']) {
        const res = await h.call('POST', path, { body: { redirectUri: LOOPBACK, idToken: 'x', nonce: 'y' } });
        expect(res.status, path).toBe(404);
        expect(res.json).toEqual({ success: false, message: SOCIAL_MESSAGES.notConfigured });
      }
    } finally {
      await h.close();
      await bare.close();
    }
  });
});
