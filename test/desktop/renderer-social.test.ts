// The renderer's social sign-in (renderer/src/lib/social.ts) against real servers: in the desktop app
// (bridge = the real IPC handlers, local core), in the desktop app in sync mode (HTTP to a team server,
// the loopback listener of the desktop), and in a browser (redirect and return page). The provider is
// a real oidc-provider; the "system browser" a cookie-keeping HTTP client.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SOCIAL_MESSAGES } from '../../shared/messages';
import { APP_ORIGIN, NATIVE_CHANNELS } from '../../electron/desktop/constants';
import { registerNativeHelpers } from '../../electron/desktop/native-helpers';
import { createLoopbackAuthorizer } from '../../electron/desktop/oauth-loopback';
import { API_CHANNEL, registerApiBridge, type IpcInvokeEventLike, type IpcMainLike } from '../../electron/ipc-bridge';
import { setServerUrl, type PortcullisBridge } from '../../renderer/src/api/request';
import { completeSocialSignIn, oauthReturnFromUrl, startSocialSignIn } from '../../renderer/src/lib/social';
import { authStore } from '../../renderer/src/stores/useAuthStore';
import { createTestCore, httpTransport, type TestCore } from '../helpers/core';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider';

const CLIENT = { client_id: 'portcullis-app', redirect_uris: ['http://127.0.0.1/callback', 'http://127.0.0.1/login', 'http://127.0.0.1/signup'] };
const TOP: IpcInvokeEventLike = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };
type Handler = (e: IpcInvokeEventLike, ...a: unknown[]) => Promise<unknown>;

let idp: TestProvider;
let local: TestCore;
let team: TestCore;
let teamHttp: Awaited<ReturnType<typeof httpTransport>>;
let bare: TestCore;
let bareHttp: Awaited<ReturnType<typeof httpTransport>>;

/** What the preload exposes, over the real main-process handlers of one desktop app. */
function desktopBridge(core: TestCore): PortcullisBridge {
  const handlers = new Map<string, Handler>();
  const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l as Handler), removeHandler: (c) => void handlers.delete(c) };
  registerApiBridge(ipc, { fetch: (r, i) => core.core.fetch(r, i), appOrigin: APP_ORIGIN });
  registerNativeHelpers(ipc, {
    appOrigin: APP_ORIGIN,
    // The system browser: walks the provider's pages and lands on the loopback listener.
    loopback: createLoopbackAuthorizer({ openExternal: async (url) => void (await idp.browse(url, { visit: true })), timeoutMs: 5000 }),
    downloadsDir: core.dataDir,
    showSaveDialog: async () => ({ canceled: true }),
    writeFile: async () => undefined,
    openExternal: async () => undefined,
  });
  const invoke = (channel: string, ...args: unknown[]) => handlers.get(channel)!(TOP, ...args);
  return {
    request: (req) => invoke(API_CHANNEL, req) as ReturnType<PortcullisBridge['request']>,
    subscribe: () => () => undefined,
    oauth: {
      listen: () => invoke(NATIVE_CHANNELS.oauthListen) as ReturnType<NonNullable<PortcullisBridge['oauth']>['listen']>,
      authorize: (url) => invoke(NATIVE_CHANNELS.oauthAuthorize, { authorizationUrl: url }) as ReturnType<NonNullable<PortcullisBridge['oauth']>['authorize']>,
    },
  };
}

const win = globalThis as unknown as { window?: { portcullis?: PortcullisBridge } };

beforeAll(async () => {
  idp = await startTestProvider([CLIENT]);
  const oidc = { issuer: idp.issuer, clientId: CLIENT.client_id };
  local = await createTestCore({ shell: 'desktop', oidc });
  team = await createTestCore({ oidc });
  bare = await createTestCore({ oidc: null });
  for (const c of [local, team, bare]) c.clock.set(new Date());
  teamHttp = await httpTransport(team.core);
  team.core.config.publicUrl = teamHttp.server.url;
  bareHttp = await httpTransport(bare.core);
});

afterAll(async () => {
  setServerUrl('');
  delete win.window;
  await teamHttp?.close();
  await bareHttp?.close();
  for (const c of [local, team, bare]) await c?.close();
  await idp?.close();
});

beforeEach(() => {
  authStore.getState().logout();
  setServerUrl('');
  delete win.window;
});

describe('the renderer\'s social sign-in', () => {
  it('desktop, local mode: system browser, loopback, the local core; the session is stored', async () => {
    const bridge = desktopBridge(local);
    win.window = { portcullis: bridge };
    idp.setAccount({ sub: 'r-1', email: 'renderer@example.com', email_verified: true, given_name: 'Ren', family_name: 'Derer' });
    const outcome = await startSocialSignIn('login', { bridge, origin: APP_ORIGIN, assign: () => undefined });
    expect(outcome).toMatchObject({ kind: 'signedIn', user: { email: 'renderer@example.com', firstName: 'Ren' } });
    expect(authStore.getState()).toMatchObject({ status: 'signedIn', user: { email: 'renderer@example.com' } });
    // The account lives in the desktop's own database.
    expect(await local.core.services.repos.users.findByEmail('renderer@example.com')).toBeDefined();
  });

  it('desktop, sync mode: the same loopback, but the team server starts, exchanges and signs in', async () => {
    const bridge = desktopBridge(local);
    win.window = { portcullis: bridge };
    setServerUrl(teamHttp.server.url);
    idp.setAccount({ sub: 'r-2', email: 'synced@example.com', email_verified: true, name: 'Syn Ced' });
    const outcome = await startSocialSignIn('signup', { bridge, origin: APP_ORIGIN, assign: () => undefined });
    expect(outcome).toMatchObject({ kind: 'signedIn', user: { email: 'synced@example.com', firstName: 'Syn', lastName: 'Ced' } });
    expect(await team.core.services.repos.users.findByEmail('synced@example.com')).toBeDefined();
    expect(await local.core.services.repos.users.findByEmail('synced@example.com')).toBeUndefined();
  });

  it('browser: leaves for the provider, and the return page completes the sign-in', async () => {
    setServerUrl(teamHttp.server.url);
    idp.setAccount({ sub: 'r-3', email: 'browser@example.com', email_verified: true, name: 'Brow Ser' });
    let leftFor = '';
    const outcome = await startSocialSignIn('login', { bridge: undefined, origin: teamHttp.server.url, assign: (u) => void (leftFor = u) });
    expect(outcome).toEqual({ kind: 'redirecting' });
    expect(new URL(leftFor).searchParams.get('redirect_uri')).toBe(`${teamHttp.server.url}/login`);
    const back = new URL(await idp.browse(leftFor));
    expect(back.pathname).toBe('/login');
    const done = await completeSocialSignIn(oauthReturnFromUrl(back.search)!, 'login');
    expect(done).toMatchObject({ kind: 'signedIn', user: { email: 'browser@example.com' } });
    // The same return URL a second time (reload, back button) cannot sign in again.
    authStore.getState().logout();
    const again = await completeSocialSignIn(oauthReturnFromUrl(back.search)!, 'login');
    expect(again).toMatchObject({ kind: 'error', hint: SOCIAL_MESSAGES.loginFallbackHint });
  });

  it('shows the spec\'s texts: cancelled at the provider, and not configured', async () => {
    const bridge = desktopBridge(local);
    win.window = { portcullis: bridge };
    idp.refuseNext('access_denied');
    expect(await startSocialSignIn('login', { bridge, origin: APP_ORIGIN, assign: () => undefined })).toEqual({
      kind: 'error',
      message: SOCIAL_MESSAGES.loginCancelled,
      hint: SOCIAL_MESSAGES.loginFallbackHint,
    });

    delete win.window;
    setServerUrl(bareHttp.server.url);
    let left = false;
    expect(await startSocialSignIn('signup', { bridge: undefined, origin: bareHttp.server.url, assign: () => void (left = true) })).toEqual({
      kind: 'error',
      message: SOCIAL_MESSAGES.notConfigured,
      hint: SOCIAL_MESSAGES.signupFallbackHint,
    });
    expect(left).toBe(false);
  });
});
