// The preload as Electron's sandbox runs it: bundled to one CommonJS file (same esbuild settings as
// scripts/build-core.mjs), evaluated with a require() that knows only 'electron'. It must expose
// exactly request, subscribe and the native helpers, each sending to its own channel.

import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_CHANNELS } from '../../electron/desktop/constants';
import { API_CHANNEL, EVENT_CHANNEL } from '../../electron/ipc-bridge';

const root = path.resolve(import.meta.dirname, '..', '..');
let code: string;
let exposed: Record<string, unknown>;
let exposedName: string;
const invoked: unknown[][] = [];
const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
const required: string[] = [];

beforeAll(async () => {
  const out = await build({
    entryPoints: [path.join(root, 'electron/preload.cts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron'],
    write: false,
    logLevel: 'silent',
  });
  code = out.outputFiles[0]!.text;
  const electron = {
    contextBridge: {
      exposeInMainWorld: (name: string, api: Record<string, unknown>) => {
        exposedName = name;
        exposed = api;
      },
    },
    ipcRenderer: {
      invoke: async (...args: unknown[]) => void invoked.push(args),
      on: (channel: string, l: (...a: unknown[]) => void) => void (listeners.get(channel) ?? listeners.set(channel, new Set()).get(channel)!).add(l),
      removeListener: (channel: string, l: (...a: unknown[]) => void) => void listeners.get(channel)?.delete(l),
    },
  };
  const sandboxRequire = (id: string) => {
    required.push(id);
    if (id !== 'electron') throw new Error(`A sandboxed preload cannot require "${id}".`);
    return electron;
  };
  const module = { exports: {} };
  vm.runInNewContext(code, { require: sandboxRequire, module, exports: module.exports, TextEncoder });
});

describe('the preload', () => {
  it('is one CommonJS file that requires electron and nothing else', () => {
    expect(required).toEqual(['electron']);
    expect(code).not.toMatch(/require\((?!"electron"\))/);
  });

  it('exposes only request, subscribe and the native helpers as window.portcullis', () => {
    expect(exposedName).toBe('portcullis');
    expect(Object.keys(exposed).sort()).toEqual(['oauth', 'openExternal', 'request', 'saveFile', 'subscribe']);
    expect(Object.keys(exposed.oauth as object).sort()).toEqual(['authorize', 'listen']);
    expect(Object.values(exposed).filter((v) => typeof v !== 'function' && typeof v !== 'object')).toEqual([]);
  });

  it('each function sends its own channel with its own argument shape', async () => {
    const api = exposed as {
      request(r: unknown): Promise<unknown>;
      saveFile(i: unknown): Promise<unknown>;
      openExternal(u: string): Promise<unknown>;
      oauth: { listen(): Promise<unknown>; authorize(u: string): Promise<unknown> };
    };
    await api.request({ method: 'GET', path: '/api/environment' });
    await api.saveFile({ fileName: 'a.pdf', data: new Uint8Array([1]) });
    await api.openExternal('https://owasp.org/');
    await api.oauth.listen();
    await api.oauth.authorize('https://idp.example/auth');
    expect(invoked).toEqual([
      [API_CHANNEL, { method: 'GET', path: '/api/environment' }],
      [NATIVE_CHANNELS.saveFile, { fileName: 'a.pdf', data: new Uint8Array([1]) }],
      [NATIVE_CHANNELS.openExternal, { url: 'https://owasp.org/' }],
      [NATIVE_CHANNELS.oauthListen],
      [NATIVE_CHANNELS.oauthAuthorize, { authorizationUrl: 'https://idp.example/auth' }],
    ]);
  });

  it('subscribe() strips the Electron event and returns a working unsubscribe', () => {
    const got: unknown[] = [];
    const unsubscribe = (exposed.subscribe as (l: (e: unknown) => void) => () => void)((e) => got.push(e));
    const fire = (payload: unknown) => listeners.get(EVENT_CHANNEL)?.forEach((l) => l({ sender: 'electron-internals' }, payload));
    fire({ type: 'scan:progress', done: 1 });
    unsubscribe();
    fire({ type: 'scan:progress', done: 2 });
    expect(got).toEqual([{ type: 'scan:progress', done: 1 }]);
    expect(() => (exposed.subscribe as (l: unknown) => void)('not a function')).toThrow('subscribe() takes a function.');
  });
});
