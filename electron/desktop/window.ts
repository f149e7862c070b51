// The one application window and the guards every web contents gets: hardened webPreferences,
// navigation only within the app's origin, no new windows (allowed links go to the system browser),
// no webviews, and every permission request refused. Electron objects come in through small
// interfaces so all of this runs in plain Node under test.

import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_ENTRY } from './constants';
import { checkExternalUrl } from './external-links';

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebContentsLike {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent & { url?: string }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
}

export interface SessionLike {
  setPermissionRequestHandler(
    handler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void) | null,
  ): void;
  setPermissionCheckHandler(handler: ((webContents: unknown, permission: string, requestingOrigin: string) => boolean) | null): void;
}

export interface BrowserWindowLike {
  webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  maximize(): void;
}

/** Same scheme and host as the app (custom schemes have an opaque `origin`, so compare the parts). */
export function isAppUrl(value: string, appOrigin: string): boolean {
  try {
    const url = new URL(value);
    const app = new URL(appOrigin);
    return url.protocol === app.protocol && url.host === app.host && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export interface WindowOptionsInput {
  preloadPath: string;
  bounds: { x?: number; y?: number; width: number; height: number };
  /** DevTools only in development builds. */
  devTools: boolean;
  icon?: string;
}

export function windowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...input.bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Portcullis',
    backgroundColor: '#0f172a',
    ...(input.icon ? { icon: input.icon } : {}),
    webPreferences: {
      preload: input.preloadPath,
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
      // Middle-click must not open a link in a new window (electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
      devTools: input.devTools,
    },
  };
}

export interface GuardDeps {
  appOrigin: string;
  /** Called only with a URL that passed the external-link allowlist. */
  openExternal(url: string): void;
  /** Told about every refused navigation or window (for the log). */
  onRefused?(kind: 'navigation' | 'window' | 'webview', url: string): void;
}

/** Guards for any web contents (the window's, and any other that ever gets created). */
export function guardWebContents(contents: WebContentsLike, deps: GuardDeps): void {
  const outward = (url: string) => {
    const link = checkExternalUrl(url);
    if (link.ok) deps.openExternal(link.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (link.url passed checkExternalUrl)
  };
  contents.setWindowOpenHandler(({ url }) => {
    deps.onRefused?.('window', url);
    outward(url);
    return { action: 'deny' };
  });
  const stayInApp = (event: PreventableEvent & { url?: string }, url: string) => {
    const target = event.url ?? url;
    if (isAppUrl(target, deps.appOrigin)) return;
    event.preventDefault();
    deps.onRefused?.('navigation', target);
    outward(target);
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.onRefused?.('webview', '');
  });
}

/** The only permission the app uses: writing text to the clipboard (copy evidence), from its own pages. */
const GRANTED = new Set(['clipboard-sanitized-write']);

/**
 * Every permission request is refused (camera, microphone, geolocation, notifications by the page,
 * clipboard read, HID, serial...), except a clipboard write from the app's own origin.
 */
export function restrictPermissions(session: SessionLike, appOrigin: string): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(GRANTED.has(permission) && isAppUrl(details?.requestingUrl ?? '', appOrigin)),
  );
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin) => GRANTED.has(permission) && isAppUrl(requestingOrigin, appOrigin));
}

export interface MainWindowDeps extends GuardDeps, WindowOptionsInput {
  createWindow(options: BrowserWindowConstructorOptions): BrowserWindowLike;
  maximized: boolean;
}

/** Creates the window, guards it, loads the app entry from app://, shows it when painted. */
export async function openMainWindow(deps: MainWindowDeps): Promise<BrowserWindowLike> {
  const win = deps.createWindow(windowOptions(deps));
  guardWebContents(win.webContents, deps);
  win.once('ready-to-show', () => {
    if (deps.maximized) win.maximize();
    win.show();
  });
  await win.loadURL(APP_ENTRY);
  return win;
}
