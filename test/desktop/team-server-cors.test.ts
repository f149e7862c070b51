// Sync mode needs the team server to accept the desktop app's origin (and the origins its operator
// lists), and nothing else: CORS over real HTTP, without credentials.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_ORIGIN } from '../../electron/config';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore } from '../helpers/core';

let tc: TestCore;
let t: Awaited<ReturnType<typeof httpTransport>>;
const LISTED = 'https://portcullis.example.com';

beforeAll(async () => {
  tc = await createTestCore({ corsOrigins: [DESKTOP_ORIGIN, LISTED] });
  t = await httpTransport(tc.core);
});
afterAll(async () => {
  await t.close();
  await tc.close();
});

const preflight = (origin: string, method = 'POST') =>
  fetch(`${t.server.url}/api/auth/login`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });

describe('CORS on the team server', () => {
  it('grants the desktop origin and listed origins the methods and headers the renderer uses, no credentials', async () => {
    for (const origin of [DESKTOP_ORIGIN, LISTED]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('refuses every other origin, including look-alikes', async () => {
    for (const origin of ['https://evil.example', 'app://portcullis.evil', 'app://evil', 'https://portcullis.example.com.evil.example', 'http://portcullis.example.com', 'null']) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('an actual call from an allowed origin carries the grant and exposes the download name; others get none', async () => {
    const user = await signUpAndLogin(t, 'cors');
    const ok = await fetch(`${t.server.url}/api/user/profile`, { headers: { origin: DESKTOP_ORIGIN, authorization: `Bearer ${user.token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DESKTOP_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toBe('content-disposition, retry-after');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await fetch(`${t.server.url}/api/user/profile`, { headers: { origin: 'https://evil.example', authorization: `Bearer ${user.token}` } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // Without an Origin (curl, the CLI) nothing changes.
    const plain = await fetch(`${t.server.url}/api/stats/platform`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('by default only the desktop app\'s origin is allowed; PORTCULLIS_CORS_ORIGINS adds more and is validated', async () => {
    const { resolveConfig } = await import('../../electron/config');
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, {}).corsOrigins).toEqual([DESKTOP_ORIGIN]);
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, { PORTCULLIS_CORS_ORIGINS: 'https://a.example, http://127.0.0.1:8080' }).corsOrigins).toEqual([
      DESKTOP_ORIGIN,
      'https://a.example',
      'http://127.0.0.1:8080',
    ]);
    for (const bad of ['*', 'https://a.example/path', 'https://user@a.example', 'javascript:alert(1)', 'a.example']) {
      expect(() => resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, { PORTCULLIS_CORS_ORIGINS: bad }), bad).toThrow(/PORTCULLIS_CORS_ORIGINS/);
    }
  });
});
