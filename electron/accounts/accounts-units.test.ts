import { describe, expect, it } from 'vitest';
import { manualClock, type Clock } from '../clock';
import { createMemoryLogger } from '../log';
import { openStore } from '../store/database';
import { createThrottleRepo } from '../store/throttle';
import { hashPassword, verifyPassword } from './passwords';
import { FailureThrottle } from './throttle';
import { hashToken, newToken } from './tokens';

describe('passwords', () => {
  const cost = { N: 2 ** 12, r: 8, p: 1 };
  it('hashes with a per-user salt and verifies', async () => {
    const a = await hashPassword('correct horse', cost);
    const b = await hashPassword('correct horse', cost);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$4096\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
  });
  it('rejects malformed stored hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$a$b$c$d$e')).toBe(false);
  });
  it('uses the OWASP cost by default', async () => {
    expect(await hashPassword('x')).toMatch(/^scrypt\$131072\$8\$1\$/);
  });
});

describe('tokens', () => {
  it('are 32 random bytes, stored as their SHA-256', () => {
    const t = newToken();
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    expect(newToken()).not.toBe(t);
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).toBe(hashToken(t));
  });
});

describe('FailureThrottle', () => {
  // The counts live in the database (throttle-shared.test.ts runs the throttle on both databases).
  async function throttleOn(clock: Clock, maxFailures: number) {
    const store = await openStore(':memory:');
    return { store, throttle: new FailureThrottle(clock, { account: { maxFailures, windowMs: 60_000 } }, createThrottleRepo(store.db)) };
  }
  it('blocks a key at the limit until its oldest failure leaves the window', async () => {
    const clock = manualClock(new Date('2026-01-01T00:00:00Z'));
    const { store, throttle: t } = await throttleOn(clock, 3);
    const key = [{ kind: 'account', value: 'ada' }];
    await t.fail(key);
    clock.advance(10_000);
    await t.fail(key);
    await t.fail(key);
    expect(await t.check(key)).toEqual({ blocked: true, retryAfterSeconds: 50 });
    expect((await t.check([{ kind: 'account', value: 'bob' }])).blocked).toBe(false);
    clock.advance(50_000);
    expect((await t.check(key)).blocked).toBe(false);
    await t.fail(key);
    expect((await t.check(key)).blocked).toBe(true);
    await t.reset('account', 'ada');
    expect((await t.check(key)).blocked).toBe(false);
    await store.close();
  });
  it('reserves a slot per attempt in one step, and takes it back on release', async () => {
    const { store, throttle: t } = await throttleOn(manualClock(new Date('2026-01-01T00:00:00Z')), 2);
    const key = [{ kind: 'account', value: 'ada' }];
    const attempts = await Promise.all([t.reserve(key), t.reserve(key), t.reserve(key)]);
    expect(attempts.map((x) => x.blocked).sort()).toEqual([false, false, true]);
    const a = attempts.find((x) => !x.blocked)!;
    await a.release();
    await a.release();
    expect((await t.reserve(key)).blocked).toBe(false);
    expect((await t.reserve(key)).blocked).toBe(true);
    await store.close();
  });
});

describe('logger', () => {
  it('redacts secret-looking fields at any depth and keeps the rest', () => {
    const log = createMemoryLogger();
    log.info('login', { user: 'u1', password: 'hunter2', nested: { api_key_1: 'k1', Authorization: 'Bearer t', ok: 1 }, list: [{ token: 't2' }] });
    const line = log.lines[0]!;
    expect(line).toContain('user=u1');
    expect(line).toContain('"ok":1');
    for (const secret of ['hunter2', 'k1', 'Bearer t', 't2']) expect(line).not.toContain(secret);
  });
  it('drops lines below the level', () => {
    const log = createMemoryLogger('warn');
    log.info('quiet');
    log.warn('loud');
    expect(log.lines).toHaveLength(1);
  });
});
