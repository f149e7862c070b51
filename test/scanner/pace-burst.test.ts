// The one exception to the pace (docs/decisions.md "A burst past the pace"): a race-condition probe's
// requests start together once nothing else is in flight, past the limit and the rate, and nothing
// else starts until they have all ended.

import { describe, expect, it } from 'vitest';
import { Burst, Pace, type PaceTicket } from '../../electron/scanner/http/pace';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('Pace: a burst', () => {
  it('starts every member together past a limit of one and a slow rate, after the request in flight, and holds back others until it ends', async () => {
    const pace = new Pace({ concurrency: 1, rps: 2, timeoutMs: 10_000 }, new AbortController().signal);
    const before = await pace.enter(false);
    const burst = new Burst();
    const members: PaceTicket[] = [];
    const entering = Array.from({ length: 5 }, () => pace.enter(false, burst).then((t) => members.push(t)));
    await settle();
    // The target is not empty: the burst waits for it.
    expect(members).toHaveLength(0);
    pace.leave(before, 'ok', 5);
    const t0 = performance.now();
    await Promise.all(entering);
    // Five starts at 2 a second would take two seconds: a burst is not spaced out.
    expect(performance.now() - t0).toBeLessThan(400);
    expect(members).toHaveLength(5);
    expect(members.every((t) => t.startedAt > 0 && t.burst === burst)).toBe(true);

    let other: PaceTicket | null = null;
    const waiting = pace.enter(false).then((t) => (other = t));
    await settle();
    expect(other).toBeNull();
    for (const t of members.slice(0, 4)) pace.leave(t, 'ok', 5);
    await settle();
    expect(other).toBeNull();
    pace.leave(members[4]!, 'ok', 5);
    await waiting;
    expect(other).not.toBeNull();
    // The burst's answers taught the pace nothing: the limit is as configured.
    expect(pace.view().limit).toBe(1);
  });

  it('is not taken for a slow-down: slow answers within a burst leave the limit where it was', async () => {
    const pace = new Pace({ concurrency: 4, rps: 0, timeoutMs: 1_000 }, new AbortController().signal);
    const burst = new Burst();
    const members = await Promise.all([0, 1, 2].map(() => pace.enter(false, burst)));
    for (const t of members) pace.leave(t, 'timeout', 1_000);
    expect(pace.view().limit).toBe(4);
  });
});
