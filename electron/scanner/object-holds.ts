// Holds on the objects a check writes, so that a check which writes an object and reads it back sees its own
// write. Checks run side by side; two of them often write the same object (the caller's own record above all:
// one stores a marker through an undeclared method, another tries extra properties) and, without a hold, which
// write the read-back sees depends on timing: a finding comes and goes between two scans of the same API.
//
// A task's write (PUT, PATCH, DELETE) to an object's address takes the address until the task's next request has
// been answered (the read-back, of the object or of a listing) or the task ends: a check that goes on elsewhere
// does not keep the object. Another task's write to a held address waits its turn,
// in order of arrival; reads never wait. A task that writes the same address again while others wait lets them
// go first (a long run of writes without a read-back does not keep the object), except inside a burst (a race
// check's requests must leave together). A wait that would close a circle (each task waiting for the other's
// address) is not entered, and no wait lasts longer than MAX_WAIT_MS: the write then goes as it would have
// without holds (a read-back takes one round trip; a hold that old means its task waits for something else).
// A task entering a timing measurement gives up its holds first (timing-gate.ts): it may wait there for a
// screening that waits for its object. Holds apply to every request sent on a task's behalf (its own, and the
// baselines and objects it asks for: engine.ts reads the task from an AsyncLocalStorage scope). POST is never
// held, so GraphQL (one address for every operation) is not either.

import { AsyncLocalStorage } from 'node:async_hooks';

export const MAX_WAIT_MS = 5_000;

const HELD_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** Who holds an address: one task of the scan. */
export type Holder = object;

interface Waiter {
  holder: Holder;
  resolve: () => void;
}

export class ObjectHolds {
  private readonly holders = new Map<string, Holder>();
  private readonly queues = new Map<string, Waiter[]>();
  /** The address each waiting task waits for. */
  private readonly waiting = new Map<Holder, string>();
  /** Which of its requests took each held address (its holder's count of requests). */
  private readonly takenAt = new Map<string, number>();
  private readonly seqs = new WeakMap<Holder, number>();

  constructor(private readonly signal?: AbortSignal) {
    signal?.addEventListener('abort', () => this.releaseEveryone(), { once: true });
  }

  /** The address a request writes or reads, for holds: the URL without its query or fragment. */
  static addressOf(url: string | URL): string {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.origin}${u.pathname}`;
  }

  /** Whether a request by this method takes a hold. */
  static holds(method: string): boolean {
    return HELD_METHODS.has(method.toUpperCase());
  }

  /** Who holds an address now (tests and notes). */
  holderOf(address: string): Holder | undefined {
    return this.holders.get(address);
  }

  /**
   * Before `holder` sends a request to `address`: a write waits for the address and takes it; a read goes at
   * once. Returns what to call once the request has been answered: it ends the task's holds taken before it.
   */
  async before(holder: Holder, address: string, method: string, opts: { burst?: boolean } = {}): Promise<() => void> {
    const seq = this.nextSeq(holder);
    if (ObjectHolds.holds(method)) {
      const current = this.holders.get(address);
      if (current === holder && !opts.burst && this.queues.get(address)?.length) this.release(address);
      await this.take(holder, address);
      if (this.holders.get(address) === holder) this.takenAt.set(address, Math.max(seq, this.takenAt.get(address) ?? 0));
    }
    return () => this.answered(holder, seq);
  }

  /** The task ended: every address it holds goes to the next in line. */
  releaseAll(holder: Holder): void {
    for (const [address, h] of [...this.holders]) if (h === holder) this.release(address);
  }

  private nextSeq(holder: Holder): number {
    const seq = (this.seqs.get(holder) ?? 0) + 1;
    this.seqs.set(holder, seq);
    return seq;
  }

  /** A request of `holder` was answered: the addresses it took before that request are free for the others. */
  private answered(holder: Holder, seq: number): void {
    if (!this.holders.size) return;
    for (const [address, h] of [...this.holders]) if (h === holder && (this.takenAt.get(address) ?? 0) < seq) this.release(address);
  }

  private async take(holder: Holder, address: string): Promise<void> {
    if (this.signal?.aborted) return;
    const current = this.holders.get(address);
    if (current === undefined) {
      this.holders.set(address, holder);
      return;
    }
    if (current === holder || this.closesCircle(holder, current)) return;
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        holder,
        resolve: () => {
          clearTimeout(timer);
          this.waiting.delete(holder);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const queue = this.queues.get(address);
        const at = queue?.indexOf(waiter) ?? -1;
        if (at >= 0) queue!.splice(at, 1);
        waiter.resolve();
      }, MAX_WAIT_MS);
      timer.unref?.();
      this.waiting.set(holder, address);
      const queue = this.queues.get(address) ?? [];
      queue.push(waiter);
      this.queues.set(address, queue);
    });
  }

  /** Hands the address to the first task waiting for it (which now holds it), or frees it. */
  private release(address: string): void {
    this.takenAt.delete(address);
    const queue = this.queues.get(address);
    const next = queue?.shift();
    // The same task's other writes waiting for it (a check sending several at once) go with it: it holds the address now.
    const together = next && queue ? queue.filter((w) => w.holder === next.holder) : [];
    if (together.length) this.queues.set(address, queue!.filter((w) => w.holder !== next!.holder));
    if (!this.queues.get(address)?.length) this.queues.delete(address);
    if (next && !this.signal?.aborted) {
      this.holders.set(address, next.holder);
      next.resolve();
      for (const w of together) w.resolve();
    } else {
      this.holders.delete(address);
      next?.resolve();
    }
  }

  /** Whether `holder` waiting for what `current` holds would wait for itself: current waits, through others, for holder's address. */
  private closesCircle(holder: Holder, current: Holder): boolean {
    const seen = new Set<Holder>();
    let at: Holder | undefined = current;
    while (at !== undefined && !seen.has(at)) {
      if (at === holder) return true;
      seen.add(at);
      const wanted = this.waiting.get(at);
      at = wanted === undefined ? undefined : this.holders.get(wanted);
    }
    return false;
  }

  private releaseEveryone(): void {
    for (const queue of this.queues.values()) for (const w of queue.splice(0)) w.resolve();
    this.queues.clear();
    this.holders.clear();
    this.takenAt.clear();
  }
}

/** The task a request is sent for, and its scan's holds: set around each task, read where requests leave (engine.ts). */
export interface HoldScope {
  holder: Holder;
  holds: ObjectHolds;
}

const holdScope = new AsyncLocalStorage<HoldScope>();

/** Runs a task with its holds: every request sent on its behalf (its own, the baselines and objects it asks for) takes part. */
export function runWithHolds<T>(scope: HoldScope, fn: () => Promise<T>): Promise<T> {
  return holdScope.run(scope, fn);
}

/** The current task's holds, if a task is running. */
export function currentHolds(): HoldScope | undefined {
  return holdScope.getStore();
}

/** The current task goes to wait for something else (a timing measurement): the objects it holds are free for the others. */
export function releaseCurrentHolds(): void {
  const scope = holdScope.getStore();
  scope?.holds.releaseAll(scope.holder);
}
