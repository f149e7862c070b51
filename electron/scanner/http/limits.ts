// Concurrency and pacing for the scan's HTTP client: a semaphore bounding requests in flight and a
// rate limiter spacing request starts so no second holds more than the cap. Both give up when the
// scan's signal aborts, so a cancelled scan stops waiting at once.

export class AbortedError extends Error {
  constructor(reason?: unknown) {
    super(typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : 'The scan was stopped.');
    this.name = 'AbortedError';
  }
}

/**
 * An abort controller that aborts by itself after `ms` (none when absent), with the reason in words: the
 * overall time limit of an identity test or a live import, whose single requests each have a deadline too.
 */
export function deadlineController(ms: number | undefined, what: string): { controller: AbortController; expired(): boolean; clear(): void } {
  const controller = new AbortController();
  let expired = false;
  const timer = ms
    ? setTimeout(() => {
        expired = true;
        controller.abort(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s, its time limit.`));
      }, ms)
    : null;
  timer?.unref?.();
  return { controller, expired: () => expired, clear: () => timer && clearTimeout(timer) };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Semaphore {
  private available: number;
  private readonly waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private abortReason: unknown = undefined;
  private aborted = false;

  /** With a signal, an abort rejects every waiter at once (one listener, not one per wait). */
  constructor(
    readonly size: number,
    signal?: AbortSignal,
  ) {
    this.available = size;
    signal?.addEventListener(
      'abort',
      () => {
        this.aborted = true;
        this.abortReason = signal.reason;
        for (const w of this.waiters.splice(0)) w.reject(new AbortedError(signal.reason));
      },
      { once: true },
    );
  }

  /** Takes a permit without waiting, if one is free. */
  tryAcquire(): boolean {
    if (this.available > 0) {
      this.available -= 1;
      return true;
    }
    return false;
  }

  acquire(): Promise<void> {
    if (this.aborted) return Promise.reject(new AbortedError(this.abortReason));
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.resolve();
    else this.available += 1;
  }
}

/**
 * Spaces request starts at least 1/rps apart, measured when each request actually goes: at most
 * `rps` starts in any one-second window, even when the event loop was late for a while.
 */
export class RateLimiter {
  private last = -Infinity;
  private tail: Promise<void> = Promise.resolve();
  private readonly interval: number;

  constructor(readonly rps: number) {
    this.interval = rps > 0 ? 1000 / rps : 0;
  }

  get enabled(): boolean {
    return this.interval > 0;
  }

  /** Resolves at this caller's start slot. */
  take(signal?: AbortSignal): Promise<void> {
    if (!this.interval) return Promise.resolve();
    const turn = this.tail.then(async () => {
      const wait = this.last + this.interval - performance.now();
      if (wait > 0) await sleep(wait, signal);
      if (signal?.aborted) throw new AbortedError(signal.reason);
      this.last = performance.now();
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
