// The README's walk-through, as a new user would do it with curl: start `portcullis serve`, sign
// up, log in, change the password, forget it, and reset it with the link from the console.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/core';
import { startServe, type ServeProcess } from '../helpers/serve-process';

describe('portcullis serve', () => {
  let srv: ServeProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir();
    srv = await startServe(['--port', '0', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await srv?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown, method = 'POST', token?: string) => {
    const res = await fetch(`${srv.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { success: boolean; message: string; data?: { token?: string } } };
  };

  it('prints its URL on loopback and creates the database in the data dir', () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fs.existsSync(`${dataDir}/portcullis.db`)).toBe(true);
    expect(srv.stdout()).not.toContain('Password hashing at a test cost');
  });

  it('walks through sign-up, login, password change, forgot and reset', async () => {
    const user = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', username: 'ada', password: 'Engine1843' };
    expect((await post('/api/auth/signup', user)).status).toBe(201);
    const login = await post('/api/auth/login', { username: 'ada', password: 'Engine1843' });
    expect(login.status).toBe(200);
    const token = login.json.data!.token!;
    const change = await post(
      '/api/user/password',
      { currentPassword: 'Engine1843', newPassword: 'Analytical1', confirmPassword: 'Analytical1' },
      'PUT',
      token,
    );
    expect(change.json).toEqual({ success: true, message: 'Password updated successfully!' });
    expect((await post('/api/auth/forgot-password', { email: 'ada@example.com' })).status).toBe(200);
    await expect.poll(() => /recover\?token=([\w-]+)/.exec(srv.stderr())?.[1], { timeout: 5000 }).toBeTruthy();
    const link = /(http:\/\/\S+\/recover\?token=([\w-]+))/.exec(srv.stderr())!;
    expect(link[1]!.startsWith(`${srv.url}/recover?token=`)).toBe(true);
    const reset = await post('/api/auth/reset-password', { token: link[2], password: 'Difference9' });
    expect(reset.json).toEqual({ success: true, message: 'Password reset. You can log in now.' });
    expect((await post('/api/auth/login', { email: 'ada@example.com', password: 'Difference9' })).status).toBe(200);
    expect((await post('/api/auth/login', { email: 'ada@example.com', password: 'Analytical1' })).status).toBe(401);
    // The console shows the link but never a password or a session token.
    const consoleText = srv.stdout() + srv.stderr();
    for (const secret of ['Engine1843', 'Analytical1', 'Difference9', token]) expect(consoleText).not.toContain(secret);
  });

  it('refuses local scans by default on a team server', async () => {
    const res = await fetch(`${srv.url}/api/environment`);
    expect(((await res.json()) as { data: { localScans: boolean } }).data.localScans).toBe(false);
  });

  it('stops cleanly on SIGTERM; says so when it hashes passwords at the test cost', async () => {
    const other = await startServe(['--port', '0', '--data-dir', tempDir()], { PORTCULLIS_TEST_FAST_HASHING: '1' });
    expect(other.stdout()).toContain('Password hashing at a test cost (PORTCULLIS_TEST_FAST_HASHING): for throwaway test servers only, never for real accounts.');
    expect(await other.stop()).toBe(0);
  });

  it('takes trusted proxies from PORTCULLIS_TRUST_PROXY: the session records the forwarded client', async () => {
    const dir = tempDir();
    const lb = await startServe(['--port', '0', '--data-dir', dir], { PORTCULLIS_TRUST_PROXY: '10.0.0.0/8, loopback' });
    try {
      expect(lb.stdout()).toContain('Trusted proxies: 10.0.0.0/8, loopback');
      const call = (path: string, init: RequestInit) => fetch(`${lb.url}${path}`, { ...init, headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', ...init.headers } });
      const user = { firstName: 'Lb', lastName: 'User', email: 'lb@example.com', username: 'lbuser', password: 'Balance2026' };
      expect((await call('/api/auth/signup', { method: 'POST', body: JSON.stringify(user) })).status).toBe(201);
      const login = (await (await call('/api/auth/login', { method: 'POST', body: JSON.stringify({ username: 'lbuser', password: 'Balance2026' }) })).json()) as { data: { token: string } };
      const sessions = (await (await call('/api/user/sessions', { headers: { authorization: `Bearer ${login.data.token}` } })).json()) as { data: { sessions: { ip: string }[] } };
      expect(sessions.data.sessions.map((s) => s.ip)).toEqual(['203.0.113.9']);
    } finally {
      await lb.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a --trust-proxy entry that is not an address or range', async () => {
    await expect(startServe(['--port', '0', '--data-dir', tempDir(), '--trust-proxy', 'lb.internal'])).rejects.toThrow(/--trust-proxy \(or PORTCULLIS_TRUST_PROXY\): "lb.internal" is not an IP address/);
  });

  it('rejects a bad port with exit code 2 and a message', async () => {
    await expect(startServe(['--port', 'abc', '--data-dir', tempDir()])).rejects.toThrow(/--port must be 0-65535/);
  });
});
