// The desktop's social sign-in end to end (RFC 8252): the renderer's calls go through the real IPC
// handlers (API bridge and native helpers), the "system browser" walks the real OpenID provider's
// pages and comes back to the loopback listener on 127.0.0.1, and the core verifies the token.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, NATIVE_CHANNELS } from '../../electron/desktop/constants';
import { registerNativeHelpers } from '../../electron/desktop/native-helpers';
import { checkAuthorizationUrl, createLoopbackAuthorizer } from '../../electron/desktop/oauth-loopback';
import { API_CHANNEL, registerApiBridge, type IpcInvokeEventLike, type IpcMainLike } from '../../electron/ipc-bridge';
import { createTestCore, type TestCore } from '../helpers/core';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider';

const CLIENT = { client_id: 'portcullis-desktop', redirect_uris: ['http://127.0.0.1/callback'] };
const TOP: IpcInvokeEventLike = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };
type Handler = (e: IpcInvokeEventLike, ...a: unknown[]) => Promise<unknown>;

let idp: TestProvider;
let tc: TestCore;
const handlers = new Map<string, Handler>();
/** What the system browser does with the URL it is given; replaced per test. */
let browser: (url: string) => Promise<void>;
let returned = 0;

beforeAll(async () => {
  idp = await startTestProvider([CLIENT]);
  // A public client: the desktop holds no secret, PKCE protects the code.
  tc = await createTestCore({ shell: 'desktop', oidc: { issuer: idp.issuer, clientId: CLIENT.client_id } });
  tc.clock.set(new Date());
  const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l as Handler), removeHandler: (c) => void handlers.delete(c) };
  registerApiBridge(ipc, { fetch: (r, i) => tc.core.fetch(r, i), appOrigin: APP_ORIGIN });
  const loopback = createLoopbackAuthorizer({ openExternal: (url) => browser(url), timeoutMs: 3000, onReturn: () => void (returned += 1) });
  registerNativeHelpers(ipc, {
    appOrigin: APP_ORIGIN,
    loopback,
    downloadsDir: tc.dataDir,
    showSaveDialog: async () => ({ canceled: true }),
    writeFile: async () => undefined,
    openExternal: async () => undefined,
  });
});
afterAll(async () => {
  await tc?.close();
  await idp?.close();
});

const invoke = (channel: string, ...args: unknown[]) => handlers.get(channel)!(TOP, ...args);

/** What the renderer's request() does over the bridge. */
async function api<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = (await invoke(API_CHANNEL, { method, path, headers, body: body === undefined ? null : JSON.stringify(body) })) as { status: number; body: Uint8Array };
  return { status: res.status, json: JSON.parse(new TextDecoder().decode(res.body)) as { success: boolean; message: string; data: T } };
}

/** The renderer's desktop sign-in sequence. */
async function desktopSignIn() {
  const listen = (await invoke(NATIVE_CHANNELS.oauthListen)) as { ok: boolean; redirectUri: string };
  const start = await api<{ authorizationUrl: string }>('POST', '/api/auth/oidc/start', { redirectUri: listen.redirectUri });
  expect(start.status).toBe(200);
  const result = (await invoke(NATIVE_CHANNELS.oauthAuthorize, { authorizationUrl: start.json.data.authorizationUrl })) as
    | { ok: true; code: string; state: string; iss?: string }
    | { ok: false; error: string; errorDescription?: string };
  return { listen, start, result };
}

describe('desktop social sign-in through the system browser and a loopback redirect', () => {
  it('signs in: a new account the first time, the same one the next', async () => {
    browser = async (url) => void (await idp.browse(url, { visit: true }));
    idp.setAccount({ sub: 'desk-1', email: 'desk@example.com', email_verified: true, given_name: 'Desk', family_name: 'Top' });
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const { listen, result } = await desktopSignIn();
      expect(listen.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      if (!result.ok) throw new Error(`sign-in failed: ${result.error}`);
      const exchange = await api<{ idToken: string; nonce: string; profile: Record<string, string> }>('POST', '/api/auth/oidc/callback', {
        code: result.code,
        state: result.state,
        iss: result.iss,
      });
      expect(exchange.status).toBe(200);
      const login = await api<{ token: string; user: { id: string; email: string } }>('POST', '/api/auth/google-login', {
        ...exchange.json.data.profile,
        idToken: exchange.json.data.idToken,
        nonce: exchange.json.data.nonce,
      });
      expect(login.status, login.json.message).toBe(200);
      expect(login.json.data.user.email).toBe('desk@example.com');
      const me = await api<{ user: { id: string } }>('GET', '/api/user/profile', undefined, login.json.data.token);
      expect(me.json.data.user.id).toBe(login.json.data.user.id);
      ids.push(login.json.data.user.id);
    }
    expect(ids[0]).toBe(ids[1]);
    expect(returned).toBeGreaterThanOrEqual(2);
  });

  it('reports the provider\'s refusal (the user pressed Cancel)', async () => {
    browser = async (url) => void (await idp.browse(url, { visit: true }));
    idp.refuseNext('access_denied', 'The user cancelled.');
    const { result } = await desktopSignIn();
    expect(result).toEqual({ ok: false, error: 'access_denied', errorDescription: 'The user cancelled.' });
  });

  it('ignores a callback without the state it sent, and keeps waiting for the real one', async () => {
    browser = async (url) => {
      const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
      // Another local program guesses the port and posts a code of its own.
      const forged = await fetch(`${redirect.href}?code=attacker-code&state=guess`);
      expect(forged.status).toBe(400);
      const wrongPath = await fetch(`${redirect.origin}/other?code=x&state=y`);
      expect(wrongPath.status).toBe(404);
      await idp.browse(url, { visit: true });
    };
    const { result } = await desktopSignIn();
    expect(result.ok).toBe(true);
    expect(result.ok && result.code).not.toBe('attacker-code');
  });

  it('gives up after the timeout when the browser never comes back, and closes the listener', async () => {
    browser = async () => undefined;
    const { listen, result } = await desktopSignIn();
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    await expect(fetch(listen.redirectUri)).rejects.toThrow();
  });

  it('opens only code + PKCE requests that come back to the listener', () => {
    const redirect = 'http://127.0.0.1:5555/callback';
    const good = `https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=${encodeURIComponent(redirect)}&response_type=code&code_challenge=abc&code_challenge_method=S256&state=s1`;
    expect(checkAuthorizationUrl(good, redirect)).toMatchObject({ ok: true, state: 's1' });
    for (const bad of [
      good.replace('https://', 'http://'),
      good.replace('https://', 'https://user:pw@'),
      good.replace('response_type=code', 'response_type=token'),
      good.replace('code_challenge_method=S256', 'code_challenge_method=plain'),
      good.replace('&state=s1', ''),
      good.replace(encodeURIComponent(redirect), encodeURIComponent('http://127.0.0.1:6666/callback')),
      'javascript:alert(1)',
      42,
    ]) {
      expect(checkAuthorizationUrl(bad, redirect), String(bad)).toMatchObject({ ok: false });
    }
  });
});
