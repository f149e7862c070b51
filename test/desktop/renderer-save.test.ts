// Report downloads in the desktop app: the renderer's saveBlob goes through the real save-file
// handler (the system dialog played by a function that picks a temp path) and the bytes land there.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, NATIVE_CHANNELS } from '../../electron/desktop/constants';
import { registerNativeHelpers } from '../../electron/desktop/native-helpers';
import { createLoopbackAuthorizer } from '../../electron/desktop/oauth-loopback';
import type { IpcInvokeEventLike, IpcMainLike } from '../../electron/ipc-bridge';
import { saveBlob } from '../../renderer/src/api/reports';
import type { PortcullisBridge } from '../../renderer/src/api/request';

type Handler = (e: IpcInvokeEventLike, ...a: unknown[]) => Promise<unknown>;
const TOP: IpcInvokeEventLike = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };
const win = globalThis as unknown as { window?: { portcullis?: PortcullisBridge } };
let dir: string;
let answer: { canceled: boolean; filePath?: string };
const asked: string[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-save-'));
  const handlers = new Map<string, Handler>();
  const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l as Handler), removeHandler: (c) => void handlers.delete(c) };
  registerNativeHelpers(ipc, {
    appOrigin: APP_ORIGIN,
    downloadsDir: dir,
    showSaveDialog: async (o) => (asked.push(o.defaultPath), answer),
    writeFile: (f, d) => fs.promises.writeFile(f, d),
    openExternal: async () => undefined,
    loopback: createLoopbackAuthorizer({ openExternal: async () => undefined }),
  });
  const bridge = {
    request: async () => ({ status: 500, headers: {}, body: new Uint8Array() }),
    subscribe: () => () => undefined,
    saveFile: (input: unknown) => handlers.get(NATIVE_CHANNELS.saveFile)!(TOP, input),
  } as unknown as PortcullisBridge;
  win.window = { portcullis: bridge };
});
afterAll(() => {
  delete win.window;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('saving a report in the desktop app', () => {
  const name = '2026-03-02_1000 - Executive Report - Pet_Store.pdf';

  it('asks where to save, with the report name, and writes the bytes there', async () => {
    answer = { canceled: false, filePath: path.join(dir, 'chosen.pdf') };
    expect(await saveBlob(new Blob(['%PDF-1.7 body']), name)).toBe(true);
    expect(asked.at(-1)).toBe(path.join(dir, name));
    expect(fs.readFileSync(path.join(dir, 'chosen.pdf'), 'utf8')).toBe('%PDF-1.7 body');
  });

  it('a cancelled dialog saves nothing and is not a download', async () => {
    answer = { canceled: true };
    expect(await saveBlob(new Blob(['x']), name)).toBe(false);
  });

  it('a name the shell refuses is an error with its message', async () => {
    answer = { canceled: false, filePath: path.join(dir, 'never.exe') };
    await expect(saveBlob(new Blob(['x']), 'report.exe')).rejects.toThrow('That file name cannot be used.');
    expect(fs.existsSync(path.join(dir, 'never.exe'))).toBe(false);
  });
});
