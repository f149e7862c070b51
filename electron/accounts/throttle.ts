// Counts failures per key (an account identifier, a client address) in a sliding window and blocks
// the key once it reaches the limit, until its oldest failure leaves the window.
// An attempt whose check is slow (a password hash) reserves its slot first, synchronously, so
// parallel attempts cannot all pass the check before the first failure is recorded.

import type { Clock } from '../clock';

export interface ThrottleRule {
  /** Failures allowed within the window before the key is blocked. */
  maxFailures: number;
  windowMs: number;
}

export interface ThrottleVerdict {
  blocked: boolean;
  retryAfterSeconds: number;
}

const MAX_KEYS = 50_000;

/** The durable copy of the counted attempts (the database), so a restart keeps lockouts. */
export interface ThrottleStore {
  add(key: string, at: number): Promise<void>;
  removeOne(key: string, at: number): Promise<void>;
  clear(key: string): Promise<void>;
  /** The attempts of one kind since `since` (epoch ms). */
  recent(kind: string, since: number): Promise<{ key: string; at: number }[]>;
}

export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();
  private loading: Promise<void> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<string, ThrottleRule>,
    private readonly store: ThrottleStore | null = null,
    private readonly onStoreError: (err: unknown) => void = () => undefined,
  ) {}

  /** Loads the attempts still in their window from the store, once; await it before the first check. */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      if (!this.store) return;
      const now = this.clock.now().getTime();
      for (const [kind, rule] of Object.entries(this.rules)) {
        for (const { key, at } of await this.store.recent(kind, now - rule.windowMs)) {
          const list = this.failures.get(key) ?? [];
          list.push(at);
          list.sort((a, b) => a - b);
          this.failures.set(key, list);
        }
      }
    })().catch((err: unknown) => this.onStoreError(err));
    return this.loading;
  }

  /** Runs a store write; a failed write is reported, never thrown at the caller. */
  private persist(write: (store: ThrottleStore) => Promise<void>): Promise<void> {
    if (!this.store) return Promise.resolve();
    return write(this.store).catch((err: unknown) => this.onStoreError(err));
  }

  private recent(key: string, rule: ThrottleRule, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < rule.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Is any of the keys (kind:value) blocked now? */
  check(keys: { kind: string; value: string }[]): ThrottleVerdict {
    const now = this.clock.now().getTime();
    let retry = 0;
    for (const { kind, value } of keys) {
      const rule = this.rules[kind];
      if (!rule) continue;
      const list = this.recent(`${kind}:${value}`, rule, now);
      if (list.length >= rule.maxFailures) retry = Math.max(retry, list[0]! + rule.windowMs - now);
    }
    return { blocked: retry > 0, retryAfterSeconds: Math.ceil(retry / 1000) };
  }

  /** Counts a failure now; the returned promise settles once the store has it. */
  fail(keys: { kind: string; value: string }[]): Promise<void> {
    const now = this.clock.now().getTime();
    const writes: Promise<void>[] = [];
    for (const { kind, value } of keys) {
      if (!this.rules[kind]) continue;
      const key = `${kind}:${value}`;
      const list = this.failures.get(key) ?? [];
      list.push(now);
      this.failures.delete(key);
      this.failures.set(key, list);
      writes.push(this.persist((store) => store.add(key, now)));
    }
    // Bound memory: forget the least recently failed keys first.
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
    return Promise.all(writes).then(() => undefined);
  }

  /**
   * Checks and counts one attempt in one synchronous step: blocked, or counted as a failure until
   * `release()` (call it when the attempt succeeds) takes the count back.
   */
  reserve(keys: { kind: string; value: string }[]): ThrottleVerdict & { saved: Promise<void>; release(): void } {
    const verdict = this.check(keys);
    if (verdict.blocked) return { ...verdict, saved: Promise.resolve(), release: () => undefined };
    const now = this.clock.now().getTime();
    const saved = this.fail(keys);
    let released = false;
    return {
      ...verdict,
      saved,
      release: () => {
        if (released) return;
        released = true;
        for (const { kind, value } of keys) {
          if (!this.rules[kind]) continue;
          const key = `${kind}:${value}`;
          const list = this.failures.get(key);
          const at = list?.lastIndexOf(now) ?? -1;
          if (list && at >= 0) list.splice(at, 1);
          void saved.then(() => this.persist((store) => store.removeOne(key, now)));
        }
      },
    };
  }

  reset(kind: string, value: string): void {
    const key = `${kind}:${value}`;
    this.failures.delete(key);
    if (this.rules[kind]) void this.persist((store) => store.clear(key));
  }
}
