// Electron entry: wires Electron's objects to the shell modules in electron/desktop/ (which hold the
// logic and are tested in Node) and runs the core in this process. Kept thin on purpose: nothing
// here is reachable from the unit tests, because `electron` only loads inside Electron.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Notification, protocol, screen, session, shell } from 'electron';
import { defaultDataDir } from './config';
import { createCore, type Core } from './core';
import { createAppProtocolHandler } from './desktop/app-protocol';
import { APP_ORIGIN, APP_SCHEME } from './desktop/constants';
import { registerNativeHelpers } from './desktop/native-helpers';
import { createLoopbackAuthorizer } from './desktop/oauth-loopback';
import { coreLookups, forwardScanEvents, notifyFinishedScans, windowUserGate } from './desktop/scan-events';
import { openMainWindow, restrictPermissions, type BrowserWindowLike } from './desktop/window';
import { fitToDisplays, windowStateFile } from './desktop/window-state';
import { registerApiBridge } from './ipc-bridge';
import { createLogger } from './log';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, '..', 'renderer');
const logger = createLogger();

// One data folder per OS (the same the CLI uses): database, window state and Chromium's profile.
const dataDir = defaultDataDir();
app.setPath('userData', dataDir);

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let core: Core | undefined;
let win: BrowserWindow | null = null;
const windowState = windowStateFile(path.join(dataDir, 'window-state.json'));

function focusWindow(): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

// The provider page opens in the system browser, never in the app (RFC 8252).
const loopback = createLoopbackAuthorizer({
  openExternal: (url) => shell.openExternal(url), // eng-disable OPEN_EXTERNAL_JS_CHECK (checked by checkAuthorizationUrl: https code+PKCE request back to our listener)
  onReturn: focusWindow,
});

async function createWindow(): Promise<void> {
  const areas = screen.getAllDisplays().map((d) => d.workArea);
  const bounds = fitToDisplays(windowState.load(), areas, screen.getPrimaryDisplay().workArea);
  const icon = path.join(here, 'icon.png');
  await openMainWindow({
    appOrigin: APP_ORIGIN,
    preloadPath: path.join(here, 'preload.cjs'),
    bounds: { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height },
    maximized: bounds.maximized,
    devTools: !app.isPackaged,
    ...(fs.existsSync(icon) ? { icon } : {}),
    createWindow: (options) => {
      // windowOptions() (tested) sets every preference; the four that must never change are restated
      // where the window is made, so this line alone shows them (and electronegativity can read them).
      win = new BrowserWindow({
        ...options,
        webPreferences: { ...options.webPreferences, contextIsolation: true, sandbox: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' },
      });
      win.on('close', () => {
        if (win) windowState.save({ ...win.getNormalBounds(), maximized: win.isMaximized() });
      });
      win.on('closed', () => {
        win = null;
        loopback.cancel();
      });
      return win as unknown as BrowserWindowLike;
    },
    // Only URLs that passed the external-link allowlist get here.
    openExternal: (url) => void shell.openExternal(url), // eng-disable OPEN_EXTERNAL_JS_CHECK (allowlisted by checkExternalUrl)
    onRefused: (kind, url) => logger.warn('Refused in the window', { kind, url: url.slice(0, 200) }),
  });
}

async function start(): Promise<void> {
  restrictPermissions(session.defaultSession, APP_ORIGIN);
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir }));
  try {
    core = await createCore({ shell: 'desktop', dataDir, logger });
  } catch (err) {
    // Typically better-sqlite3 built for Node's ABI instead of Electron's: say so instead of a blank window.
    const message = err instanceof Error ? err.message : String(err);
    dialog.showErrorBox('Portcullis could not start', `${message}\n\nData folder: ${dataDir}`);
    app.exit(1);
    return;
  }
  const c = core;
  // The window's session, as its latest API call shows it: scan events go only to what its user may see.
  let windowToken: string | null = null;
  registerApiBridge(ipcMain, {
    fetch: (req, info) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
      if (bearer) windowToken = bearer[1]!;
      return c.fetch(req, info);
    },
    appOrigin: APP_ORIGIN,
  });
  registerNativeHelpers(ipcMain, {
    appOrigin: APP_ORIGIN,
    loopback,
    downloadsDir: app.getPath('downloads'),
    showSaveDialog: (options) => (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options)),
    writeFile: (file, data) => fs.promises.writeFile(file, data),
    openExternal: (url) => shell.openExternal(url), // eng-disable OPEN_EXTERNAL_JS_CHECK (allowlisted by checkExternalUrl in the handler)
    log: (message, fields) => logger.warn(message, fields),
  });
  const events = c.services.scanEvents;
  forwardScanEvents(
    events,
    () => (win && !win.isDestroyed() ? win.webContents : null),
    windowUserGate({ currentToken: () => windowToken, repos: c.services.repos, clock: c.services.clock }),
  );
  notifyFinishedScans({
    source: events,
    ...coreLookups(c.services.repos),
    notify: ({ title, body }) => {
      if (Notification.isSupported()) new Notification({ title, body }).show();
    },
    log: (message, fields) => logger.warn(message, fields),
  });
  await createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', focusWindow);
  app.whenReady().then(start, (err: unknown) => {
    logger.error('Start-up failed', { error: err });
    app.exit(1);
  });
  app.on('activate', () => {
    if (core && !win) void createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let closing = false;
  app.on('will-quit', (event) => {
    if (closing || !core) return;
    event.preventDefault();
    closing = true;
    loopback.cancel();
    void core.close().finally(() => app.exit(0));
  });
}
