// Waiting for the scan's HTTP client (its pace is pace.ts): sleeps and time limits that give up when the
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
