import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY, APP_ORIGIN } from './constants';
import {
  guardWebContents,
  isAppUrl,
  openMainWindow,
  restrictPermissions,
  windowOptions,
  type BrowserWindowLike,
  type SessionLike,
  type WebContentsLike,
} from './window';

/** Stands in for Electron's webContents: records the handlers and lets the test fire its events. */
class FakeContents extends EventEmitter implements WebContentsLike {
  openHandler: ((d: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' } | { action: 'allow' }) {
    this.openHandler = handler;
  }
  /** Fires a navigation event; answers whether it was prevented. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function guarded() {
  const contents = new FakeContents();
  const opened: string[] = [];
  const refused: string[] = [];
  guardWebContents(contents, { appOrigin: APP_ORIGIN, openExternal: (u) => opened.push(u), onRefused: (k, u) => refused.push(`${k} ${u}`) });
  return { contents, opened, refused };
}

describe('the window', () => {
  it('is created with hardened webPreferences', () => {
    const options = windowOptions({ preloadPath: '/app/dist/desktop/preload.cjs', bounds: { width: 1280, height: 840 }, devTools: false });
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/desktop/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
    expect(options.show).toBe(false);
  });

  it('denies every new window; an allowed link goes to the system browser instead', () => {
    const { contents, opened } = guarded();
    expect(contents.openHandler!({ url: 'https://owasp.org/Top10/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'https://github.com.evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: `${APP_ORIGIN}/dashboard` })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://owasp.org/Top10/']);
  });

  it('stays on its own origin: navigation and redirects elsewhere are blocked', () => {
    const { contents, opened, refused } = guarded();
    expect(contents.navigate('will-navigate', `${APP_ORIGIN}/settings`)).toBe(false);
    expect(contents.navigate('will-navigate', `${APP_ORIGIN}/index.html#x`)).toBe(false);
    for (const url of [
      'https://evil.example/',
      'http://127.0.0.1:4780/',
      'app://evil/index.html',
      'app://portcullis.evil/index.html',
      'app://user@portcullis/index.html',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'not a url',
    ]) {
      expect(contents.navigate('will-navigate', url), url).toBe(true);
      expect(contents.navigate('will-redirect', url), url).toBe(true);
    }
    // A navigation to an allowed site is blocked in the window and opened outside.
    expect(contents.navigate('will-navigate', 'https://cwe.mitre.org/data/definitions/639.html')).toBe(true);
    expect(opened).toEqual(['https://cwe.mitre.org/data/definitions/639.html']);
    expect(refused).toContain('navigation https://evil.example/');
  });

  it('refuses webviews', () => {
    const { contents, refused } = guarded();
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(refused).toEqual(['webview ']);
  });

  it('refuses every permission request except a clipboard write from the app itself', () => {
    let request: Parameters<SessionLike['setPermissionRequestHandler']>[0] = null;
    let check: Parameters<SessionLike['setPermissionCheckHandler']>[0] = null;
    restrictPermissions({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) }, APP_ORIGIN);
    const ask = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      request!({}, permission, (g) => (granted = g), { requestingUrl });
      return granted;
    };
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'hid', 'serial', 'fullscreen', 'pointerLock']) {
      expect(ask(p, `${APP_ORIGIN}/index.html`), p).toBe(false);
      expect(check!({}, p, APP_ORIGIN), p).toBe(false);
    }
    expect(ask('clipboard-sanitized-write', `${APP_ORIGIN}/index.html`)).toBe(true);
    expect(ask('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(check!({}, 'clipboard-sanitized-write', APP_ORIGIN)).toBe(true);
    expect(check!({}, 'clipboard-sanitized-write', 'https://evil.example')).toBe(false);
  });

  it('compares origins by scheme and host, parsed', () => {
    expect(isAppUrl('app://portcullis/x', APP_ORIGIN)).toBe(true);
    // Chromium lowercases a standard scheme's host; anything else is not ours.
    expect(isAppUrl('app://PORTCULLIS/x', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('app://portcullis:8080/x', APP_ORIGIN)).toBe(false);
    expect(isAppUrl('app://portcullisx/x', APP_ORIGIN)).toBe(false);
  });

  it('opens the app entry from app://, guarded, and shows it once painted', async () => {
    const contents = new FakeContents();
    const win = new EventEmitter() as EventEmitter & BrowserWindowLike & { loaded: string[]; shown: number; maximized: number };
    Object.assign(win, {
      webContents: contents,
      loaded: [] as string[],
      shown: 0,
      maximized: 0,
      loadURL: async (u: string) => void win.loaded.push(u),
      show: () => void (win.shown += 1),
      maximize: () => void (win.maximized += 1),
    });
    let options: unknown;
    await openMainWindow({
      appOrigin: APP_ORIGIN,
      openExternal: () => undefined,
      preloadPath: '/p.cjs',
      bounds: { x: 1, y: 2, width: 1000, height: 700 },
      devTools: false,
      maximized: true,
      createWindow: (o) => ((options = o), win),
    });
    expect(options).toMatchObject({ x: 1, y: 2, width: 1000, height: 700, show: false });
    expect(win.loaded).toEqual([APP_ENTRY]);
    expect(contents.openHandler).not.toBeNull();
    expect(contents.listenerCount('will-navigate')).toBe(1);
    expect(win.shown).toBe(0);
    win.emit('ready-to-show');
    expect(win.shown).toBe(1);
    expect(win.maximized).toBe(1);
  });
});
