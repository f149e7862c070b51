// Issue 30 item 4: behind the load balancer docs/deployment.md recommends, every request's socket peer is
// the balancer. With `--trust-proxy` naming it, the sign-in throttle, the session records and the request
// log see the client from X-Forwarded-For (the rightmost address that is not a trusted proxy); from a
// peer that is not trusted the header changes nothing, so a client cannot pick its own throttle key.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../electron/server';
import { createTestCore, type TestCore } from '../helpers/core';

const WINDOW_MS = 15 * 60 * 1000;
/** The default per-client limit: 30 wrong passwords in 15 minutes. */
const CLIENT_LIMIT = 30;

describe('the client address behind a load balancer', () => {
  let tc: TestCore;
  const servers: RunningServer[] = [];

  async function serve(trustProxy?: string[]): Promise<string> {
    const server = await startServer({ core: tc.core, host: '127.0.0.1', port: 0, staticDir: null, ...(trustProxy ? { trustProxy } : {}) });
    servers.push(server);
    return server.url;
  }

  async function call(url: string, path: string, init: { body?: unknown; forwardedFor?: string; token?: string; method?: string } = {}) {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.forwardedFor !== undefined) headers['x-forwarded-for'] = init.forwardedFor;
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${url}${path}`, { method: init.method ?? 'POST', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    return { status: res.status, json: (await res.json()) as { data?: Record<string, unknown> } };
  }

  async function signUp(url: string, name: string) {
    const user = { firstName: 'Test', lastName: 'User', email: `${name}@example.com`, username: name, password: 'Passw0rd!long' };
    expect((await call(url, '/api/auth/signup', { body: user })).status).toBe(201);
    return user;
  }

  /** Wrong passwords for accounts that do not exist: only the client's count grows (each account has one). */
  async function guess(url: string, n: number, forwardedFor: (i: number) => string | undefined, tag: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 1) statuses.push((await call(url, '/api/auth/login', { body: { username: `${tag}-nobody-${i}`, password: 'wrong' }, forwardedFor: forwardedFor(i) })).status);
    return statuses;
  }

  beforeAll(async () => {
    tc = await createTestCore();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await tc.close();
  });

  it('behind a trusted proxy, one client guessing passwords is throttled, not everyone', async () => {
    const url = await serve(['127.0.0.1/32']);
    const alice = await signUp(url, 'alice-behind-lb');

    expect(await guess(url, CLIENT_LIMIT, () => '203.0.113.7', 'a')).toEqual(Array(CLIENT_LIMIT).fill(401));
    expect((await call(url, '/api/auth/login', { body: { username: 'a-one-more', password: 'wrong' }, forwardedFor: '203.0.113.7' })).status).toBe(429);
    // What the client sends is on the left of what the balancer appends: prepending an address changes nothing.
    expect((await call(url, '/api/auth/login', { body: { username: 'a-spoof', password: 'wrong' }, forwardedFor: '192.0.2.99, 203.0.113.7' })).status).toBe(429);

    // Another client behind the same balancer signs in.
    const login = await call(url, '/api/auth/login', { body: { username: alice.username, password: alice.password }, forwardedFor: '198.51.100.20' });
    expect(login.status).toBe(200);
    const token = login.json.data!.token as string;

    // The session records the client, and so does the request log.
    const sessions = await call(url, '/api/user/sessions', { method: 'GET', token, forwardedFor: '198.51.100.20' });
    expect(sessions.json.data!.sessions).toEqual([expect.objectContaining({ ip: '198.51.100.20', current: true })]);
    expect(tc.log.lines.some((l) => l.includes('request') && l.includes('ip=198.51.100.20'))).toBe(true);
  });

  it('from a peer that is not trusted, X-Forwarded-For does not change the throttle key', async () => {
    tc.clock.advance(WINDOW_MS + 1000);
    // By default nothing is trusted; a list that does not hold the peer (127.0.0.1) trusts it no more.
    const plain = await serve();
    const elsewhere = await serve(['10.0.0.0/8', 'fd00::/8']);
    const bob = await signUp(plain, 'bob-direct');

    const spoofed = (i: number) => `198.18.0.${i + 1}`;
    const statuses = [...(await guess(plain, CLIENT_LIMIT / 2, spoofed, 'b')), ...(await guess(elsewhere, CLIENT_LIMIT / 2, (i) => spoofed(i + 100), 'c'))];
    expect(statuses).toEqual(Array(CLIENT_LIMIT).fill(401));
    // Every request counted on the socket's address: it is now at its limit, whatever the header says.
    expect((await call(plain, '/api/auth/login', { body: { username: bob.username, password: bob.password }, forwardedFor: '198.51.100.77' })).status).toBe(429);
    expect((await call(elsewhere, '/api/auth/login', { body: { username: bob.username, password: bob.password } })).status).toBe(429);
  });
});
