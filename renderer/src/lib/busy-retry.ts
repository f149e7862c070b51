// Waiting out a busy server (issue 31, item 6): when many people sign in at once the server refuses the
// surplus with 503 and Retry-After instead of queueing them; the page waits the time it names (spread
// a little, so the refused do not all come back in the same millisecond) and tries again, within a
// cap on the tries and on the whole wait.

export interface BusyRetryLimits {
  /** Tries in all, the first included. */
  maxTries: number;
  /** No wait that would end later than this after the first try starts. */
  maxTotalMs: number;
  /** The shortest and longest single wait, whatever Retry-After says. */
  minWaitMs: number;
  maxWaitMs: number;
}

export interface BusyRetryDeps {
  sleep(ms: number): Promise<void>;
  now(): number;
  /** 0 <= x < 1: spreads each wait over [Retry-After, 2 × Retry-After). */
  random(): number;
  /** Told before each wait (the page says it is still signing in). */
  onWait?(ms: number, tries: number): void;
}

/**
 * Runs `attempt` until `busyFor` says its result is not "busy, come back in N ms" (null), the tries run
 * out or the next wait would pass the cap; answers the last result.
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, busyFor: (result: T) => number | null, limits: BusyRetryLimits, deps: BusyRetryDeps): Promise<T> {
  const started = deps.now();
  let tries = 0;
  for (;;) {
    const result = await attempt();
    tries += 1;
    const retryAfter = busyFor(result);
    if (retryAfter === null || tries >= limits.maxTries) return result;
    const base = Math.min(limits.maxWaitMs, Math.max(limits.minWaitMs, retryAfter));
    const wait = Math.round(base * (1 + deps.random()));
    if (deps.now() - started + wait > limits.maxTotalMs) return result;
    deps.onWait?.(wait, tries);
    await deps.sleep(wait);
  }
}

/**
 * Retry-After in milliseconds: delta-seconds ("3") or an HTTP date; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
