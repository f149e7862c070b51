// Counts failures per key (an account identifier, a client address) in a sliding window and blocks
// the key once it reaches the limit, until its oldest failure leaves the window.

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

export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<string, ThrottleRule>,
  ) {}

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

  fail(keys: { kind: string; value: string }[]): void {
    const now = this.clock.now().getTime();
    for (const { kind, value } of keys) {
      if (!this.rules[kind]) continue;
      const key = `${kind}:${value}`;
      const list = this.failures.get(key) ?? [];
      list.push(now);
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    // Bound memory: forget the least recently failed keys first.
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  reset(kind: string, value: string): void {
    this.failures.delete(`${kind}:${value}`);
  }
}
