// Electron entry: one hardened window showing the renderer from the app:// scheme, the core
// running in this process, and the /api bridge over IPC. Everything else lives in the core.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, net, protocol, session } from 'electron';
import { createCore, type Core } from './core';
import { registerApiBridge } from './ipc-bridge';

const APP_ORIGIN = 'app://portcullis';
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, '..', 'renderer');

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let core: Core | undefined;

async function createWindow(): Promise<void> {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    show: false,
    title: 'Portcullis',
    webPreferences: {
      preload: path.join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    },
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).protocol !== 'app:') event.preventDefault();
  });
  win.once('ready-to-show', () => win.show());
  await win.loadURL(`${APP_ORIGIN}/index.html`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, done) => done(false));
    protocol.handle('app', (request) => {
      const { pathname } = new URL(request.url);
      const file = path.normalize(path.join(rendererDir, decodeURIComponent(pathname)));
      const target = file.startsWith(rendererDir + path.sep) && path.extname(file) ? file : path.join(rendererDir, 'index.html');
      return net.fetch(pathToFileURL(target).toString());
    });
    core = await createCore({ shell: 'desktop', dataDir: app.getPath('userData') });
    const c = core;
    registerApiBridge(ipcMain, { fetch: (req, info) => c.fetch(req, info), appOrigin: APP_ORIGIN });
    await createWindow();
  });
  app.on('window-all-closed', () => {
    void core?.close().finally(() => app.quit());
  });
}
