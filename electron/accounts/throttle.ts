// Counts failures per key (an account identifier, a client address) in a sliding window and blocks
// the key once it reaches the limit, until its oldest failure leaves the window. The counted attempts
// live in the database (store/throttle.ts) and every decision reads them there: the server nodes that
// share the database hold one limit between them, and a restart keeps lockouts.
// An attempt whose check is slow (a password hash) reserves its slot first — counted and recorded in
// one transaction no other attempt on the key interleaves with — so parallel attempts cannot all pass
// the check before the first failure is recorded.

import type { Clock } from '../clock';
import type { KeyCount, KeyWindow } from '../store/throttle';

export interface ThrottleRule {
  /** Failures allowed within the window before the key is blocked. */
  maxFailures: number;
  windowMs: number;
}

export interface ThrottleVerdict {
  blocked: boolean;
  retryAfterSeconds: number;
}

export type ThrottleKey = { kind: string; value: string };

/** A reserved attempt: blocked, or counted as a failure until `release()` takes it back. */
export type ThrottleAttempt = ThrottleVerdict & { release(): Promise<void> };

/** How often a throttle deletes the attempts of its kinds that have left their window. */
const SWEEP_INTERVAL_MS = 60_000;

/** The counted attempts (the database: store/throttle.ts). */
export interface ThrottleStore {
  counts(keys: readonly Pick<KeyWindow, 'key' | 'after'>[]): Promise<KeyCount[]>;
  take(keys: readonly KeyWindow[], at: number): Promise<{ ids: number[] } | { refused: KeyCount[] }>;
  add(key: string, at: number): Promise<void>;
  remove(ids: readonly number[]): Promise<void>;
  clear(key: string): Promise<void>;
  sweep(kind: string, upTo: number): Promise<void>;
}

export class FailureThrottle {
  private lastSweep = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<string, ThrottleRule>,
    private readonly store: ThrottleStore,
    /** Hears failed clean-up writes (taking an attempt back, a reset, the sweep); decisions throw. */
    private readonly onStoreError: (err: unknown) => void = () => undefined,
  ) {}

  /** The keys that have a rule, with their window as the store counts it at `now`. */
  private windows(keys: readonly ThrottleKey[], now: number): (KeyWindow & { rule: ThrottleRule })[] {
    return keys.flatMap(({ kind, value }) => {
      const rule = this.rules[kind];
      return rule ? [{ key: `${kind}:${value}`, after: now - rule.windowMs, max: rule.maxFailures, rule }] : [];
    });
  }

  /** Blocked while a key holds its limit, until its oldest failure leaves the window. */
  private verdict(windows: readonly { rule: ThrottleRule }[], counts: readonly KeyCount[], now: number): ThrottleVerdict {
    let retry = 0;
    counts.forEach(({ count, oldest }, i) => {
      const { rule } = windows[i]!;
      if (count >= rule.maxFailures && oldest !== null) retry = Math.max(retry, oldest + rule.windowMs - now);
    });
    return { blocked: retry > 0, retryAfterSeconds: Math.ceil(retry / 1000) };
  }

  /** At most once a minute: the attempts that left their window go (the table holds the live ones only). */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [kind, rule] of Object.entries(this.rules)) {
      await this.store.sweep(kind, now - rule.windowMs).catch((err: unknown) => this.onStoreError(err));
    }
  }

  /** Is any of the keys (kind:value) blocked now? */
  async check(keys: readonly ThrottleKey[]): Promise<ThrottleVerdict> {
    const now = this.clock.now().getTime();
    await this.sweep(now);
    const windows = this.windows(keys, now);
    return this.verdict(windows, await this.store.counts(windows), now);
  }

  /** Counts a failure now. */
  async fail(keys: readonly ThrottleKey[]): Promise<void> {
    const now = this.clock.now().getTime();
    for (const { key } of this.windows(keys, now)) await this.store.add(key, now);
  }

  /**
   * Checks and counts one attempt in one step: blocked, or counted as a failure until `release()`
   * (call it when the attempt succeeds) takes the count back.
   */
  async reserve(keys: readonly ThrottleKey[]): Promise<ThrottleAttempt> {
    const now = this.clock.now().getTime();
    await this.sweep(now);
    const windows = this.windows(keys, now);
    if (!windows.length) return { blocked: false, retryAfterSeconds: 0, release: async () => undefined };
    const taken = await this.store.take(windows, now);
    if ('refused' in taken) return { ...this.verdict(windows, taken.refused, now), release: async () => undefined };
    let released = false;
    return {
      blocked: false,
      retryAfterSeconds: 0,
      release: async () => {
        if (released) return;
        released = true;
        await this.store.remove(taken.ids).catch((err: unknown) => this.onStoreError(err));
      },
    };
  }

  /** Forgets the key's failures (a success); a failed write is reported, never thrown. */
  async reset(kind: string, value: string): Promise<void> {
    if (!this.rules[kind]) return;
    await this.store.clear(`${kind}:${value}`).catch((err: unknown) => this.onStoreError(err));
  }
}
