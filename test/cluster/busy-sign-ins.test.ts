// Issue 30 item 4: on PostgreSQL a sign-in refused as busy (503) must not count as an attempt. Many users
// with the right password sign in at once through one address (a load balancer's without --trust-proxy,
// here 127.0.0.1) and retry each 503 after its Retry-After: every one ends signed in, none locked out.
// Before, each sign-in was counted first and refused as busy after, so the refused ones held the
// address's count while they were refused; on PostgreSQL, where those counts run side by side, a burst
// took the address to its limit (30) and the rest got 429 for 15 minutes. On SQLite: none.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../electron/accounts/passwords';
import { createTestCore, newTestDatabase, openTransport, TEST_SHARED_SECRET_KEY, type TestCore, type Transport } from '../helpers/core';
import { postgresSkipReason } from '../helpers/postgres';

const USERS = 120;
/** Slow enough that the hash queue (one per core, one waiting behind each) turns most of a burst away. */
const SLOW_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const PASSWORD = 'Passw0rd!long';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'sign-ins refused as busy on PostgreSQL', () => {
  let tc: TestCore;
  let t: Transport;

  beforeAll(async () => {
    tc = await createTestCore({ databaseUrl: await newTestDatabase(), secretKey: TEST_SHARED_SECRET_KEY, scryptCost: SLOW_SCRYPT, passwordHashing: { concurrent: 2, queued: 2 } });
    t = await openTransport('http', tc.core);
    // Users written directly: 120 sign-ups would be 120 hashes of set-up.
    const passwordHash = await hashPassword(PASSWORD, SLOW_SCRYPT);
    for (let i = 0; i < USERS; i += 1) {
      await tc.core.services.repos.users.create({ firstName: 'B', lastName: 'Usy', email: `busy${i}@example.com`, username: `busy${i}`, passwordHash }, tc.clock.now());
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await tc?.close();
  });

  it('signs in every user who retries after 503 with the right password; none is locked out', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        let busy = 0;
        for (;;) {
          const res = await t.call('POST', '/api/auth/login', { body: { username: `busy${i}`, password: PASSWORD } });
          if (res.status !== 503) return { status: res.status, busy };
          busy += 1;
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
        }
      }),
    );
    expect(outcomes.map((o) => o.status).filter((s) => s !== 200)).toEqual([]);
    // The burst did meet a full queue: this is about the refused sign-ins.
    expect(outcomes.reduce((n, o) => n + o.busy, 0)).toBeGreaterThan(USERS);
    // Nothing of the burst is left counted against the address.
    expect((await tc.core.services.repos.throttle.counts([{ key: 'client:127.0.0.1', after: 0 }]))[0]!.count).toBe(0);
  }, 120_000);
});
