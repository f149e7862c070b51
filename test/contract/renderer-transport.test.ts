// The renderer's one request() function against the real core: through the preload bridge (as in
// the desktop app) and over HTTP (as in a browser or sync mode), including a multipart body.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeHandler } from '../../electron/ipc-bridge';
import { request, setServerUrl, usesBridge, type PortcullisBridge } from '../../renderer/src/api/request';
import { APP_ORIGIN, createTestCore, httpTransport, TRUSTED_FRAME, type TestCore } from '../helpers/core';

describe('renderer request()', () => {
  let tc: TestCore;
  let http: Awaited<ReturnType<typeof httpTransport>>;
  let bridgeCalls = 0;
  beforeAll(async () => {
    tc = await createTestCore();
    http = await httpTransport(tc.core);
    const handler = createBridgeHandler({ fetch: (r, i) => tc.core.fetch(r, i), appOrigin: APP_ORIGIN });
    const bridge: PortcullisBridge = {
      request: (req) => {
        bridgeCalls += 1;
        // Structured clone is what Electron's IPC does to the argument.
        return handler(TRUSTED_FRAME, structuredClone(req));
      },
      subscribe: () => () => undefined,
    };
    (globalThis as unknown as { window: { portcullis: PortcullisBridge } }).window = { portcullis: bridge };
  });
  afterEach(() => setServerUrl(''));
  afterAll(async () => {
    delete (globalThis as { window?: unknown }).window;
    await http.close();
    await tc.close();
  });

  const signupBody = (name: string) =>
    JSON.stringify({ firstName: 'Re', lastName: 'Nderer', email: `${name}@example.com`, username: name, password: 'longpassword' });

  it('uses the bridge when the preload exposed it', async () => {
    expect(usesBridge()).toBe(true);
    const before = bridgeCalls;
    const res = await request('/api/auth/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: signupBody('viaipc') });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { user: { username: string } } }).data.user.username).toBe('viaipc');
    expect(bridgeCalls).toBe(before + 1);
  });

  it('uses HTTP once a team server URL is set (sync mode)', async () => {
    setServerUrl(http.server.url);
    expect(usesBridge()).toBe(false);
    const before = bridgeCalls;
    const res = await request('/api/auth/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: signupBody('viahttp') });
    expect(res.status).toBe(201);
    expect(bridgeCalls).toBe(before);
  });

  it('carries a multipart body across the bridge with its boundary', async () => {
    const form = new FormData();
    form.set('user_id', 'someone-else');
    form.set('file', new Blob(['{}'], { type: 'application/json' }), 'x.json');
    const login = await request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'viaipc', password: 'longpassword' }),
    });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    // The multipart user_id is parsed and checked against the token: a foreign id is refused.
    const res = await request('/api/user/profile', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(403);
  });
});
