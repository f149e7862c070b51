import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcInvokeEventLike, IpcMainLike } from '../ipc-bridge';
import { APP_ORIGIN, NATIVE_CHANNELS } from './constants';
import { checkFileName, registerNativeHelpers, type NativeDeps } from './native-helpers';
import { createLoopbackAuthorizer } from './oauth-loopback';

type Handler = (e: IpcInvokeEventLike, ...a: unknown[]) => Promise<unknown>;
const TOP: IpcInvokeEventLike = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };
const FOREIGN: IpcInvokeEventLike[] = [
  { senderFrame: { url: 'https://evil.example/', parent: null } },
  { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: { url: `${APP_ORIGIN}/index.html` } } },
  { senderFrame: null },
];

let dir: string;
let handlers: Map<string, Handler>;
let unregister: () => void;
const opened: string[] = [];
const dialogs: { defaultPath: string; filters: unknown }[] = [];
let dialogAnswer: { canceled: boolean; filePath?: string } = { canceled: true };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-native-'));
  handlers = new Map();
  const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l as Handler), removeHandler: (c) => void handlers.delete(c) };
  const deps: NativeDeps = {
    appOrigin: APP_ORIGIN,
    downloadsDir: path.join(dir, 'Downloads'),
    showSaveDialog: async (o) => {
      dialogs.push(o);
      return dialogAnswer;
    },
    writeFile: (f, d) => fs.promises.writeFile(f, d),
    openExternal: async (u) => void opened.push(u),
    loopback: createLoopbackAuthorizer({ openExternal: async () => undefined, timeoutMs: 2000 }),
  };
  unregister = registerNativeHelpers(ipc, deps);
});
afterAll(() => {
  unregister();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (channel: string, event: IpcInvokeEventLike, ...args: unknown[]) => handlers.get(channel)!(event, ...args);

describe('native helpers', () => {
  it('registers one channel per helper, and removes them', () => {
    expect([...handlers.keys()].sort()).toEqual(Object.values(NATIVE_CHANNELS).sort());
  });

  it('refuse a foreign or framed sender on every channel, doing nothing', async () => {
    dialogAnswer = { canceled: false, filePath: path.join(dir, 'never.pdf') };
    for (const channel of Object.values(NATIVE_CHANNELS)) {
      for (const event of FOREIGN) {
        expect(await call(channel, event, { url: 'https://owasp.org/', fileName: 'a.pdf', data: new Uint8Array(1), authorizationUrl: 'x' })).toEqual({
          ok: false,
          message: 'Refused: unknown sender.',
        });
      }
    }
    expect(opened).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'never.pdf'))).toBe(false);
  });

  it('save-file: the user picks the path in the dialog; the bytes land there', async () => {
    const target = path.join(dir, 'chosen name.pdf');
    dialogAnswer = { canceled: false, filePath: target };
    const data = new TextEncoder().encode('%PDF-1.7 report');
    const res = await call(NATIVE_CHANNELS.saveFile, TOP, { fileName: '2026-03-02_1000 - Executive Report - Pet_Store.pdf', data });
    expect(res).toEqual({ ok: true, saved: true, fileName: 'chosen name.pdf' });
    expect(fs.readFileSync(target, 'utf8')).toBe('%PDF-1.7 report');
    expect(dialogs.at(-1)).toMatchObject({
      defaultPath: path.join(dir, 'Downloads', '2026-03-02_1000 - Executive Report - Pet_Store.pdf'),
      filters: [{ name: 'PDF document', extensions: ['pdf'] }],
    });
    dialogAnswer = { canceled: true };
    expect(await call(NATIVE_CHANNELS.saveFile, TOP, { fileName: 'r.sarif', data })).toEqual({ ok: true, saved: false });
  });

  it('save-file: refuses names with paths, odd types, and non-bytes, before any dialog', async () => {
    const before = dialogs.length;
    for (const fileName of ['../../.bashrc', '/etc/passwd.txt', 'a/b.pdf', 'a\\b.pdf', 'C:evil.pdf', '.hidden.pdf', 'report.exe', 'report', 'report.pdf\u0000.exe', 'CON.pdf', 'x'.repeat(300) + '.pdf', 42]) {
      expect(checkFileName(fileName), String(fileName)).toEqual({ ok: false });
      expect(await call(NATIVE_CHANNELS.saveFile, TOP, { fileName, data: new Uint8Array(1) })).toEqual({ ok: false, message: 'That file name cannot be used.' });
    }
    for (const data of ['text', [1, 2], { 0: 1 }, null]) {
      expect(await call(NATIVE_CHANNELS.saveFile, TOP, { fileName: 'ok.pdf', data })).toEqual({ ok: false, message: 'Nothing to save.' });
    }
    expect(await call(NATIVE_CHANNELS.saveFile, TOP, null)).toEqual({ ok: false, message: 'Nothing to save.' });
    expect(dialogs.length).toBe(before);
  });

  it('open-external: only allowlisted links reach the system browser', async () => {
    expect(await call(NATIVE_CHANNELS.openExternal, TOP, { url: 'https://owasp.org/API-Security/' })).toEqual({ ok: true, opened: true });
    for (const url of ['https://github.com.evil.example/', 'https://github.com@evil.example/', 'http://owasp.org/', 'javascript:alert(1)', 'file:///etc/passwd', 'https://evil.example/']) {
      expect(await call(NATIVE_CHANNELS.openExternal, TOP, { url })).toEqual({ ok: false, message: 'This link cannot be opened from Portcullis.' });
    }
    expect(await call(NATIVE_CHANNELS.openExternal, TOP, 'https://owasp.org/')).toMatchObject({ ok: false });
    expect(opened).toEqual(['https://owasp.org/API-Security/']);
  });

  it('oauth: listens on 127.0.0.1 and refuses an authorization URL that does not come back to it', async () => {
    const listen = (await call(NATIVE_CHANNELS.oauthListen, TOP)) as { ok: true; redirectUri: string };
    expect(listen.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const res = await call(NATIVE_CHANNELS.oauthAuthorize, TOP, { authorizationUrl: 'https://idp.example/auth?redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback&response_type=code&code_challenge=x&code_challenge_method=S256&state=s' });
    expect(res).toMatchObject({ ok: false, error: 'invalid_request' });
  });
});
