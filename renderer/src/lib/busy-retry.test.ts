import { describe, expect, it } from 'vitest';
import { SIGN_IN_BUSY_RETRY } from '../../../shared/constants';
import { retryAfterMs, retryWhileBusy } from './busy-retry';

/** A clock the sleeps move, and the waits they were asked for. */
function fakeTime(random = 0) {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    deps: {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
      random: () => random,
    },
  };
}

type Answer = { status: number; retryAfterMs?: number };
const busyFor = (a: Answer) => (a.status === 503 && a.retryAfterMs !== undefined ? a.retryAfterMs : null);

describe('retryWhileBusy', () => {
  it('waits the time the server names, spread, and answers the first answer that is not busy', async () => {
    const answers: Answer[] = [{ status: 503, retryAfterMs: 1000 }, { status: 503, retryAfterMs: 2000 }, { status: 200 }];
    const t = fakeTime(0.5);
    const told: number[] = [];
    const result = await retryWhileBusy(async () => answers.shift()!, busyFor, SIGN_IN_BUSY_RETRY, { ...t.deps, onWait: (ms) => told.push(ms) });
    expect(result).toEqual({ status: 200 });
    expect(t.waits).toEqual([1500, 3000]);
    expect(told).toEqual([1500, 3000]);
  });

  it('never retries an answer that is not a busy one (wrong password, 500 without Retry-After)', async () => {
    for (const answer of [{ status: 401 }, { status: 500 }, { status: 503 }] as Answer[]) {
      let tries = 0;
      const t = fakeTime();
      expect(await retryWhileBusy(async () => (tries++, answer), busyFor, SIGN_IN_BUSY_RETRY, t.deps)).toBe(answer);
      expect(tries).toBe(1);
    }
  });

  it('stops at the cap on tries and on the whole wait, answering the last busy answer', async () => {
    let tries = 0;
    const t = fakeTime(0);
    const busy = { status: 503, retryAfterMs: 1000 };
    expect(await retryWhileBusy(async () => (tries++, busy), busyFor, SIGN_IN_BUSY_RETRY, t.deps)).toBe(busy);
    expect(tries).toBe(SIGN_IN_BUSY_RETRY.maxTries);

    // Retry-After: 120 is held to the longest single wait, and no wait passes 30 s in all.
    tries = 0;
    const slow = fakeTime(0.99);
    await retryWhileBusy(async () => (tries++, { status: 503, retryAfterMs: 120_000 }), busyFor, SIGN_IN_BUSY_RETRY, slow.deps);
    expect(Math.max(...slow.waits)).toBeLessThanOrEqual(2 * SIGN_IN_BUSY_RETRY.maxWaitMs);
    expect(slow.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SIGN_IN_BUSY_RETRY.maxTotalMs);
    expect(tries).toBeGreaterThan(1);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs(' 3 ')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
