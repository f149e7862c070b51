// Issue 18 item 2: sign-up and password hashing as a denial of service. Over real HTTP (and the IPC
// bridge): sign-ups beyond the per-address limit answer 429, and password hashes beyond the bound in
// flight (plus its short queue) answer 503 with Retry-After at once, while the admitted ones succeed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type Transport } from '../helpers/core';

const SIGNUP_LIMIT = 3;
const WINDOW_MS = 10 * 60 * 1000;

function newUser(tag: string) {
  const name = `${tag}${Math.random().toString(36).slice(2, 8)}`;
  return { firstName: 'Sign', lastName: 'Up', email: `${name}@example.com`, username: name, password: 'Passw0rd!long' };
}

describe.each(['http', 'ipc'] as const)('sign-up throttle over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;

  beforeAll(async () => {
    tc = await createTestCore({ signupThrottle: { maxFailures: SIGNUP_LIMIT, windowMs: WINDOW_MS } });
    t = await openTransport(kind, tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('refuses sign-ups from one address beyond the limit with 429 and Retry-After, until the window passes', async () => {
    for (let i = 0; i < SIGNUP_LIMIT; i += 1) {
      expect((await t.call('POST', '/api/auth/signup', { body: newUser(`ok${i}`) })).status).toBe(201);
    }
    const refused = await t.call<{ success: boolean; message: string }>('POST', '/api/auth/signup', { body: newUser('over') });
    expect(refused.status).toBe(429);
    expect(refused.json.success).toBe(false);
    expect(refused.json.message).toBe(SERVER_MESSAGES.tooManySignups);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Parallel sign-ups do not slip past the count either.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('POST', '/api/auth/signup', { body: newUser(`b${i}`) })));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(429));

    tc.clock.advance(WINDOW_MS + 1000);
    expect((await t.call('POST', '/api/auth/signup', { body: newUser('later') })).status).toBe(201);
  });
});

describe('password hashes in flight over http', () => {
  let tc: TestCore;
  let t: Transport;
  const CONCURRENT = 1;
  const QUEUED = 1;

  beforeAll(async () => {
    // A cost high enough that each hash takes a while, as the real cost does.
    tc = await createTestCore({ scryptCost: { N: 2 ** 15, r: 8, p: 1 }, passwordHashing: { concurrent: CONCURRENT, queued: QUEUED } });
    t = await openTransport('http', tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('answers 503 with Retry-After beyond the bound, and the admitted sign-ins succeed', async () => {
    const users = [];
    for (let i = 0; i < 8; i += 1) users.push(await signUpAndLogin(t, `hash${i}`));
    const results = await Promise.all(
      users.map((u) => t.call<{ data?: { token?: string } }>('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503), statuses.join()).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(CONCURRENT + QUEUED);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status === 503)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.json.data?.token).toBeUndefined();
    }
    // A busy answer is not a failed guess: every user signs in once the hashes are done.
    for (const u of users) {
      expect((await t.call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })).status).toBe(200);
    }
  }, 60_000);

  it('bounds concurrent sign-ups too', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => t.call('POST', '/api/auth/signup', { body: newUser(`par${i}`) })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 503), statuses.join()).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(CONCURRENT + QUEUED);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(results.find((r) => r.status === 503)!.headers.get('retry-after')).toBe('1');
  }, 60_000);
});
