// Time-based measurements of one scan: screened in parallel, confirmed alone.
//
// A screening probe (one delaying payload, one oversized value) runs alongside the scan's other
// requests and other screening probes: on an endpoint that does not run the payload it answers at its
// usual speed, and load only ever slows an answer down, so parallel screening never hides a real delay.
// A confirmation (the re-timed baseline, both delays, the control) runs alone: it waits for the
// screening probes in flight, and no new one starts until it ends, so a sleep on another endpoint of a
// one-worker server cannot make this one look delayed. Without this split every probe of every
// endpoint waited in one queue, and a scan of a large API was as slow as the sum of its round trips.

import { runAlone } from '../../http/pace';
import { releaseCurrentHolds } from '../../object-holds';
import type { ResourcePool } from '../../resources';

type Waiter = { exclusive: boolean; resolve: () => void };

/** A readers-writer gate, writer-preferring and first come first served: a queued confirmation holds back later screenings. */
export class TimingGate {
  private shared = 0;
  private exclusive = false;
  private readonly queue: Waiter[] = [];

  /** Screening probes in flight, and whether a confirmation holds the gate (for tests). */
  get state(): { shared: number; exclusive: boolean; waiting: number } {
    return { shared: this.shared, exclusive: this.exclusive, waiting: this.queue.length };
  }

  async run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    // A measurement is never a read-back: a task holding an object must not keep it while it waits here (object-holds.ts).
    releaseCurrentHolds();
    await this.enter(exclusive);
    try {
      return await fn();
    } finally {
      this.leave(exclusive);
    }
  }

  private enter(exclusive: boolean): Promise<void> | void {
    if (!this.queue.length && !this.exclusive && (!exclusive || this.shared === 0)) {
      this.take(exclusive);
      return;
    }
    return new Promise<void>((resolve) => this.queue.push({ exclusive, resolve }));
  }

  private take(exclusive: boolean): void {
    if (exclusive) this.exclusive = true;
    else this.shared += 1;
  }

  private leave(exclusive: boolean): void {
    if (exclusive) this.exclusive = false;
    else this.shared -= 1;
    while (this.queue.length && !this.exclusive) {
      const head = this.queue[0]!;
      if (head.exclusive && this.shared > 0) break;
      this.queue.shift();
      this.take(head.exclusive);
      head.resolve();
      if (head.exclusive) break;
    }
  }
}

const gates = new WeakMap<object, TimingGate>();

/** The scan's gate (keyed by the scan's resource pool). */
export function timingGate(ctx: { resources: ResourcePool }): TimingGate {
  let gate = gates.get(ctx.resources);
  if (!gate) gates.set(ctx.resources, (gate = new TimingGate()));
  return gate;
}

// A confirmation's requests also run alone toward the target (pace.ts): they are built to make the server
// work (sleeps, deep or batched queries, backtracking or oversized values), and on a server with one worker
// the requests queued behind them would wait (and time out) while their own times would include those
// requests'. Screening stays parallel: alone, every screening probe of every endpoint would wait for the
// requests in flight, one after the other; its delay is short (1 s), and the pace absorbs what it costs.

/** Runs a screening probe: in parallel with other screenings, never during a confirmation. */
export function timingScreen<T>(ctx: { resources: ResourcePool }, fn: () => Promise<T>): Promise<T> {
  return timingGate(ctx).run(false, fn);
}

/** Runs a confirmation alone: no other time-based measurement of the scan, and no other request to the target, in flight meanwhile. */
export function withTimingLock<T>(ctx: { resources: ResourcePool }, fn: () => Promise<T>): Promise<T> {
  return timingGate(ctx).run(true, () => runAlone(fn));
}

/** Confirmations of one timing proof, at most: with the screening that asked for it, three verdicts, so two always agree. */
export const MAX_CONFIRMATIONS = 2;

/**
 * A timing proof repeated until two verdicts agree (issue 27): the screening that found the slow answer
 * is the first vote for a finding, a confirmation that agrees ends it, and one that does not is followed
 * by one more, which decides. A load spike during one confirmation (a slow baseline sample raises the
 * bar, a slowed control looks delayed) then no longer decides whether a finding exists. Each attempt runs
 * alone; `attempt` (0, 1) lets the second ask for more headroom over the noise.
 */
export async function confirmUntilAgreed<T>(ctx: { resources: ResourcePool }, confirm: (attempt: number) => Promise<T | null>): Promise<T | null> {
  for (let attempt = 0; attempt < MAX_CONFIRMATIONS; attempt += 1) {
    const proof = await withTimingLock(ctx, () => confirm(attempt));
    if (proof) return proof;
  }
  return null;
}
