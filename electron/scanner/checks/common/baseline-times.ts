// Slowdowns judged against the unchanged request re-timed next to the probes, not against fixed times.
//
// A confirmation interleaves samples of the unchanged request with its probes (under the timing lock):
// a probe counts as slow only past the slowest of those samples by a margin that grows with their
// spread, so a loaded scanner or a noisy target raises the bar instead of faking (or hiding) a slowdown.

import type { Exchange } from '../../http/exchange';

/** The margin is at least this many times the spread of the baseline samples (their slowest minus fastest). */
const SPREAD_FACTOR = 2;

export interface SlowBar {
  /** The least extra time worth reporting, whatever the noise (a slowdown a user would notice). */
  floorMs: number;
  /** And this many times the slowest baseline sample. */
  ratio: number;
}

/** Answer times of the unchanged request, sampled between the probes. */
export class BaselineTimes {
  private readonly samples: number[] = [];

  /** Adds an answer of the unchanged request; false when it did not answer (nothing to time). */
  add(ex: Exchange | null): boolean {
    if (!ex?.response) return false;
    this.samples.push(ex.durationMs);
    return true;
  }

  get count(): number {
    return this.samples.length;
  }

  get fastest(): number {
    return this.samples.length ? Math.min(...this.samples) : 0;
  }

  get slowest(): number {
    return this.samples.length ? Math.max(...this.samples) : 0;
  }

  /** How much the unchanged request's time varies right now (the machine's load and the target's own noise). */
  get spread(): number {
    return this.slowest - this.fastest;
  }

  /** The time an answer must reach to count as slowed down. */
  bar(b: SlowBar): number {
    return Math.max(this.slowest + Math.max(b.floorMs, SPREAD_FACTOR * this.spread), b.ratio * this.slowest);
  }

  /** Whether an answer came back past the bar (a timeout counts when `timeoutIsSlow`). */
  slow(ex: Exchange | null, b: SlowBar, timeoutIsSlow = false): boolean {
    if (!ex) return false;
    if (!ex.response) return timeoutIsSlow && ex.error === 'timeout';
    return ex.durationMs >= this.bar(b);
  }

  /**
   * The share of a larger input's extra time (over the fastest baseline) that a smaller input took: about
   * half for a cost in proportion to the size, 0 or 1 for a server that is merely slow at times.
   */
  shareOf(smallMs: number, largeMs: number): number {
    const base = this.fastest;
    return largeMs > base ? (smallMs - base) / (largeMs - base) : 1;
  }

  describe(): string {
    return this.samples.map((n) => `${Math.round(n)} ms`).join(', ');
  }
}

/** Of several timings of the same request, the fastest that answered: load only ever slows a sample down. */
export function fastestAnswer(samples: readonly (Exchange | null)[]): Exchange | null {
  let best: Exchange | null = null;
  for (const ex of samples) if (ex?.response && (!best || ex.durationMs < best.durationMs)) best = ex;
  return best;
}
