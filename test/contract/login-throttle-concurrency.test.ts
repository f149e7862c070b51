// Issue 18 item 1: the login throttle under concurrency. 100 guesses at one account sent at once (99
// wrong, the right password last) over real HTTP: at most the configured number of attempts may be
// evaluated, and the right password gets the lockout answer too, not a session.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../electron/clock';
import { createTestCore, openTransport, signUpAndLogin, tempDir, type TestCore, type Transport } from '../helpers/core';

/** A cost high enough that 100 hashes take a while on the server, as a real cost does. */
const SLOW_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const MAX_FAILURES = 5;

describe.each(['http', 'ipc'] as const)('login throttle under concurrency over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;

  beforeAll(async () => {
    // Room in the hash queue for every attempt (the throttle counts an attempt once it holds a place
    // there), so this tests the throttle alone (a full queue answers 503 without counting the attempt:
    // signup-throttle.test.ts and test/cluster/busy-sign-ins.test.ts cover that).
    tc = await createTestCore({ scryptCost: SLOW_SCRYPT, passwordHashing: { concurrent: 2, queued: 100 } });
    t = await openTransport(kind, tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('evaluates at most the allowed attempts of 100 parallel guesses; the right one, last, is refused too', async () => {
    const u = await signUpAndLogin(t, 'target');
    const guesses = Array.from({ length: 100 }, (_, i) => (i === 99 ? u.password : `wrong-guess-${i}`));
    const results = await Promise.all(
      guesses.map((password, i) =>
        // Username and e-mail alternate: both name one account and share one count.
        t.call<{ data?: { token?: string } }>('POST', '/api/auth/login', {
          body: i % 2 ? { email: u.email.toUpperCase(), password } : { username: u.username, password },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(100 - MAX_FAILURES);
    expect(results[99]!.status).toBe(429);
    expect(results[99]!.json.data?.token).toBeUndefined();
    expect(tc.log.lines.filter((l) => l.includes('Failed sign-in')).length).toBeLessThanOrEqual(MAX_FAILURES);
  }, 60_000);

  it('lets the owner in once the window has passed', async () => {
    tc.clock.advance(15 * 60 * 1000 + 1000); // past the client-address window of the test above
    const u = await signUpAndLogin(t, 'owner');
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      expect((await t.call('POST', '/api/auth/login', { body: { email: u.email, password: `wrong-${i}` } })).status).toBe(401);
    }
    expect((await t.call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })).status).toBe(429);
    tc.clock.advance(15 * 60 * 1000 + 1000);
    expect((await t.call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })).status).toBe(200);
  }, 60_000);
});

describe('login throttle across a restart', () => {
  it('keeps a lockout (counted by username and e-mail alike) when the server restarts on the same data dir', async () => {
    const dataDir = tempDir();
    const clock = manualClock(new Date('2026-03-02T10:00:00.000Z'));
    const first = await createTestCore({ dataDir, clock });
    const t1 = await openTransport('http', first.core);
    const u = await signUpAndLogin(t1, 'restart');
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      const body = i % 2 ? { email: u.email, password: `wrong-${i}` } : { username: u.username, password: `wrong-${i}` };
      expect((await t1.call('POST', '/api/auth/login', { body })).status).toBe(401);
    }
    await t1.close();
    await first.core.close();

    const second = await createTestCore({ dataDir, clock });
    const t2 = await openTransport('http', second.core);
    try {
      const blocked = await t2.call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } });
      expect(blocked.status).toBe(429);
      clock.advance(15 * 60 * 1000 + 1000);
      expect((await t2.call('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(200);
    } finally {
      await t2.close();
      await second.close();
    }
  }, 60_000);
});
