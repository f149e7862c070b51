// Concurrency and pacing for the scan's HTTP client: a semaphore bounding requests in flight and a
// rate limiter spacing request starts so no second holds more than the cap. Both give up when the
// scan's signal aborts, so a cancelled scan stops waiting at once.

export class AbortedError extends Error {
  constructor(reason?: unknown) {
    super(typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : 'The scan was stopped.');
    this.name = 'AbortedError';
  }
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

  constructor(readonly size: number) {
    this.available = size;
  }

  /** Takes a permit without waiting, if one is free. */
  tryAcquire(): boolean {
    if (this.available > 0) {
      this.available -= 1;
      return true;
    }
    return false;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(new AbortedError(signal.reason));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new AbortedError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.resolve();
    else this.available += 1;
  }
}

/** Spaces request starts 1/rps apart (no bursts): at most `rps` starts in any one-second window. */
export class RateLimiter {
  private next = 0;
  private readonly interval: number;

  constructor(readonly rps: number) {
    this.interval = rps > 0 ? 1000 / rps : 0;
  }

  get enabled(): boolean {
    return this.interval > 0;
  }

  /** Resolves at this caller's start slot. */
  async take(signal?: AbortSignal): Promise<void> {
    if (!this.interval) return;
    const now = performance.now();
    const slot = Math.max(now, this.next);
    this.next = slot + this.interval;
    if (slot > now) await sleep(slot - now, signal);
  }
}
