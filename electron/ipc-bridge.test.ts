import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../test/helpers/core';
import { API_CHANNEL, createBridgeHandler, isTrustedSender, registerApiBridge, type IpcInvokeEventLike, type IpcMainLike } from './ipc-bridge';

const APP = 'app://portcullis';
const decode = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as { success: boolean; message: string };

describe('isTrustedSender', () => {
  it('accepts only the top frame of the app origin', () => {
    expect(isTrustedSender({ url: 'app://portcullis/index.html', parent: null }, APP)).toBe(true);
    expect(isTrustedSender({ url: 'app://portcullis/settings#x', parent: null }, APP)).toBe(true);
    expect(isTrustedSender({ url: 'app://portcullis/index.html', parent: {} }, APP)).toBe(false);
    expect(isTrustedSender({ url: 'app://portcullis.evil/index.html', parent: null }, APP)).toBe(false);
    expect(isTrustedSender({ url: 'app://evil/portcullis', parent: null }, APP)).toBe(false);
    expect(isTrustedSender({ url: 'https://portcullis/index.html', parent: null }, APP)).toBe(false);
    expect(isTrustedSender({ url: 'file:///tmp/index.html', parent: null }, APP)).toBe(false);
    expect(isTrustedSender({ url: 'not a url', parent: null }, APP)).toBe(false);
    expect(isTrustedSender(null, APP)).toBe(false);
  });
});

describe('the api:request bridge', () => {
  let tc: TestCore;
  let handler: ReturnType<typeof createBridgeHandler>;
  const top: IpcInvokeEventLike = { senderFrame: { url: `${APP}/index.html`, parent: null } };
  beforeAll(async () => {
    tc = await createTestCore();
    handler = createBridgeHandler({ fetch: (r, i) => tc.core.fetch(r, i), appOrigin: APP });
  });
  afterAll(() => tc.close());

  it('registers one handler on the api:request channel and can remove it', async () => {
    const handlers = new Map<string, (e: IpcInvokeEventLike, ...a: unknown[]) => unknown>();
    const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) };
    const unregister = registerApiBridge(ipc, { fetch: (r, i) => tc.core.fetch(r, i), appOrigin: APP });
    expect([...handlers.keys()]).toEqual([API_CHANNEL]);
    const res = (await handlers.get(API_CHANNEL)!(top, { method: 'GET', path: '/api/environment' })) as { status: number };
    expect(res.status).toBe(200);
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('turns {method, path, headers, body} into a call of the core and returns status, headers and bytes', async () => {
    const res = await handler(top, { method: 'GET', path: '/api/stats/platform' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(decode(res.body).success).toBe(true);
  });

  it('refuses a foreign or framed sender with 403, without calling the core', async () => {
    for (const frame of [
      { url: 'https://evil.example/', parent: null },
      { url: `${APP}/index.html`, parent: { url: `${APP}/index.html` } },
    ]) {
      const res = await handler({ senderFrame: frame }, { method: 'POST', path: '/api/auth/login', body: '{}' });
      expect(res.status).toBe(403);
      expect(decode(res.body)).toEqual({ success: false, message: 'Refused: unknown sender.' });
    }
    expect((await handler({ senderFrame: null }, { method: 'GET', path: '/api/environment' })).status).toBe(403);
  });

  it('refuses malformed requests with 400 and never throws', async () => {
    const bad: unknown[] = [
      null,
      'GET /api/environment',
      { method: 'GET', path: 'http://evil.example/api/environment' },
      { method: 'GET', path: '//evil.example/api/environment' },
      { method: 'GET', path: '/api/../etc/passwd' },
      { method: 'GET', path: '/other' },
      { method: 'TRACE', path: '/api/environment' },
      { method: 'POST', path: '/api/auth/login', body: { not: 'bytes' } },
      { method: 7, path: '/api/environment' },
    ];
    for (const input of bad) {
      const res = await handler(top, input);
      expect(res.status).toBe(400);
      expect(decode(res.body).success).toBe(false);
    }
  });

  it('passes errors of the core through as envelopes', async () => {
    const res = await handler(top, { method: 'GET', path: '/api/user/profile' });
    expect(res.status).toBe(401);
    expect(decode(res.body)).toEqual({ success: false, message: 'Not authenticated' });
  });
});
