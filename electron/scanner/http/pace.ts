// The adaptive pace of one target (issue 27): how many requests may be in flight to it and how fast they
// start, adjusted to what it shows. It starts at the configured concurrency and rate; an answer that comes
// back far slower than usual or a dropped connection halves the requests in flight (down to one) and the
// rate with them, once per round of requests, and a timeout drops them to one at once (the target may still
// be working on the request given up on); answers at the usual speed win them back one at a time (AIMD,
// docs/decisions.md "Adaptive pace"). A 429 is left to the request it answered (engine.ts:
// it waits the Retry-After and is sent again). A heavy probe runs alone: it waits for what is in flight, and
// nothing else starts until it ends.

import { AsyncLocalStorage } from 'node:async_hooks';
import { AbortedError, sleep } from './limits';

/** How an attempt ended, as the pace reads it. */
export type PaceOutcome = 'ok' | 'slow' | 'timeout' | 'throttled' | 'failed' | 'none';

/** What the live view shows of a target's pace. */
export interface PaceView {
  /** Requests that may be in flight now. */
  limit: number;
  /** The configured concurrency: where the pace started and what it recovers to. */
  max: number;
  /** Request starts per second allowed now (0: no cap). */
  rps: number;
  /** A heavy probe runs alone now. */
  alone: boolean;
}

/** One change of pace, for the scan notes. */
export interface PaceChange {
  /** Milliseconds since the pace was made (the scan's start). */
  atMs: number;
  from: number;
  to: number;
  rps: number;
  /** Why: "2 requests timed out", "an answer took 12.3 s (usually 40 ms)", "back at the usual speed". */
  reason: string;
}

/** An admitted request: released with leave(). */
export interface PaceTicket {
  readonly alone: boolean;
  readonly epoch: number;
  /** When it left the scanner (after the pacing wait); 0 until then. */
  startedAt: number;
  /** When it ended (answered or given up on); 0 until then. */
  endedAt: number;
  /** It ended with an answer (not a timeout, not a lost connection). */
  answered: boolean;
  /** The requests to the target already in flight when it started: a server that answers in order served them first. */
  ahead: PaceTicket[];
  /** Requests given up on before it started with no answer since: the target may still have been working on them. */
  abandoned: Abandoned[];
  released: boolean;
  /** The burst it belongs to (started past the limit and the rate), or null. */
  burst?: Burst | null;
}

/** A request given up on (timed out): the target may go on working on it until a later request's answer shows it has moved on. */
interface Abandoned {
  startedAt: number;
  /** The first answer to a request that started after it (on a server that answers in order, it had ended by then). */
  clearedAt: number | null;
}

/** An answer this many times slower than the target's usual one (and past SLOW_FLOOR_MS, or a quarter of a shorter timeout) is a sign of load. */
export const SLOW_FACTOR = 8;
export const SLOW_FLOOR_MS = 2_000;
/** Answers needed before "usual" means anything; until then only an answer past half the timeout is slow. */
const MIN_SAMPLES = 5;
const SAMPLES = 32;
/** One more request in flight after this many rounds (the current limit's worth of answers) at the usual speed. */
export const RECOVERY_ROUNDS = 2;
/** The longest Retry-After a request waits before it is sent again (longer: it is given up as refused). */
export const MAX_RETRY_AFTER_MS = 30_000;
/** A 429 without Retry-After is sent again after this long. */
export const DEFAULT_THROTTLE_PAUSE_MS = 1_000;

type Waiter = { alone: boolean; burst: Burst | null; resolve: (t: PaceTicket) => void; reject: (e: Error) => void };

/**
 * Requests meant to reach the target at the same moment (a race-condition probe, docs/decisions.md "A burst
 * past the pace"): the one exception to the pace. The group waits for an empty target like a heavy probe, then
 * its members start together, past the requests-in-flight limit and the rate; nothing else starts until they
 * have all ended. Their times teach the pace nothing (a burst is meant to load the target).
 */
export class Burst {
  /** Members admitted and not yet ended. */
  inFlight = 0;
}

const aloneScope = new AsyncLocalStorage<boolean>();

/**
 * Runs `fn` with every request it sends to the scan's targets marked alone: nothing else in flight to the
 * target meanwhile (timing proofs, depth, size, batching and complexity probes).
 */
export function runAlone<T>(fn: () => Promise<T>): Promise<T> {
  return aloneScope.run(true, fn);
}

/** Whether the caller runs inside runAlone. */
export function sendsAlone(): boolean {
  return aloneScope.getStore() === true;
}

export class Pace {
  private limit: number;
  private rpsNow: number;
  private inFlight = 0;
  private aloneHeld = false;
  /** The burst whose members are in flight: nothing else starts meanwhile. */
  private burstHeld: Burst | null = null;
  private readonly queue: Waiter[] = [];
  private epoch = 0;
  private credit = 0;
  private readonly samples: number[] = [];
  private usual = 0;
  private sinceMedian = 0;
  private lastStart = -Infinity;
  private rateTail: Promise<void> = Promise.resolve();
  private readonly born = performance.now();
  private aborted = false;
  /** Requests started and not yet ended, in the order they started. */
  private readonly running = new Set<PaceTicket>();
  /** Requests given up on that no later answer has cleared yet. */
  private pendingAbandoned: Abandoned[] = [];

  constructor(
    private readonly settings: { concurrency: number; rps: number; timeoutMs: number },
    private readonly signal: AbortSignal,
    private readonly onChange: (change: PaceChange) => void = () => undefined,
  ) {
    this.limit = Math.max(1, settings.concurrency);
    this.rpsNow = settings.rps;
    signal.addEventListener(
      'abort',
      () => {
        this.aborted = true;
        for (const w of this.queue.splice(0)) w.reject(new AbortedError(signal.reason));
      },
      { once: true },
    );
  }

  view(): PaceView {
    return { limit: this.limit, max: Math.max(1, this.settings.concurrency), rps: this.rpsNow, alone: this.aloneHeld };
  }

  /** The answer time the target usually gives (the median of the latest answers; 0 before any). */
  get usualMs(): number {
    return this.usual;
  }

  /** Waits for a place (alone: for an empty target) and for the rate's next start; the ticket goes back with leave(). */
  async enter(alone: boolean, burst: Burst | null = null): Promise<PaceTicket> {
    if (this.aborted) throw new AbortedError(this.signal.reason);
    const ticket =
      this.admissible(alone, burst) && (!this.queue.length || (burst !== null && burst === this.burstHeld))
        ? this.admit(alone, burst)
        : await new Promise<PaceTicket>((resolve, reject) => this.queue.push({ alone, burst, resolve, reject }));
    try {
      // A burst's members start together: the rate would space them out.
      if (!burst) await this.startSlot();
    } catch (err) {
      this.leave(ticket, 'none', 0);
      throw err;
    }
    ticket.startedAt = performance.now();
    ticket.ahead = [...this.running];
    ticket.abandoned = [...this.pendingAbandoned];
    this.running.add(ticket);
    return ticket;
  }

  /** Whether an answer this late is a sign of load. */
  isSlow(durationMs: number, timeoutMs = this.settings.timeoutMs): boolean {
    if (durationMs >= timeoutMs / 2) return true;
    return this.samples.length >= MIN_SAMPLES && durationMs >= Math.max(Math.min(SLOW_FLOOR_MS, timeoutMs / 4), SLOW_FACTOR * this.usual);
  }

  /**
   * Gives the ticket back with how the attempt ended. A heavy probe's time says nothing about load, and a
   * request started before the last slow-down is not counted again (one slow-down per round). Returns the
   * part of its duration that was its own (ownTime), null when that cannot be told.
   */
  leave(ticket: PaceTicket, outcome: PaceOutcome, durationMs: number): number | null {
    if (ticket.released) return null;
    ticket.released = true;
    const started = this.running.delete(ticket);
    ticket.endedAt = performance.now();
    ticket.answered = outcome === 'ok' || outcome === 'slow' || outcome === 'throttled';
    const own = started ? this.ownTime(ticket) : null;
    // Its ahead list is only needed for its own time: dropping it keeps finished tickets from holding each other.
    ticket.ahead = [];
    ticket.abandoned = [];
    if (started && outcome === 'timeout') this.pendingAbandoned.push({ startedAt: ticket.startedAt, clearedAt: null });
    if (ticket.answered && this.pendingAbandoned.length) {
      for (const a of this.pendingAbandoned) if (a.clearedAt === null && ticket.startedAt > a.startedAt) a.clearedAt = ticket.endedAt;
      this.pendingAbandoned = this.pendingAbandoned.filter((a) => a.clearedAt === null);
    }
    if (ticket.burst) {
      ticket.burst.inFlight -= 1;
      if (ticket.burst.inFlight <= 0 && this.burstHeld === ticket.burst) this.burstHeld = null;
    } else if (ticket.alone) this.aloneHeld = false;
    else this.inFlight -= 1;
    if (!ticket.alone && !ticket.burst && outcome !== 'none') this.learn(ticket, outcome, durationMs);
    this.pump();
    return own;
  }

  /**
   * How long the target spent on this request alone: from when every request ahead of it had been answered
   * (and every request given up on before it had been cleared by a later answer) to its end. On a server that
   * answers one request at a time in order, the rest of its time was spent on those; requests started after it
   * do not delay it there. null when a request ahead of it was given up on or is still in flight, or when a
   * request given up on before it had no later answer but its own: the target may have been on that all along.
   */
  private ownTime(ticket: PaceTicket): number | null {
    let clear = ticket.startedAt;
    for (const a of ticket.ahead) {
      if (!a.released || !a.answered) return null;
      clear = Math.max(clear, a.endedAt);
    }
    for (const a of ticket.abandoned) {
      if (a.clearedAt === null) return null;
      clear = Math.max(clear, a.clearedAt);
    }
    return Math.max(0, ticket.endedAt - clear);
  }

  private learn(ticket: PaceTicket, outcome: PaceOutcome, durationMs: number): void {
    if (outcome === 'ok' || outcome === 'slow') {
      this.samples.push(durationMs);
      if (this.samples.length > SAMPLES) this.samples.shift();
      // The median moves slowly: sorting every eighth answer is enough (and keeps thousands of requests a second cheap).
      if (this.samples.length < MIN_SAMPLES * 2 || ++this.sinceMedian >= 8) {
        this.sinceMedian = 0;
        const sorted = [...this.samples].sort((x, y) => x - y);
        this.usual = sorted[Math.floor(sorted.length / 2)]!;
      }
    }
    // A 429 is the answer of one route's limit more often than the target's load: its request waits (engine.ts), the pace stays.
    if (ticket.epoch !== this.epoch || outcome === 'throttled') return;
    if (outcome === 'ok') {
      if (this.limit >= this.settings.concurrency) return;
      this.credit += 1;
      if (this.credit < this.limit * RECOVERY_ROUNDS) return;
      this.change(this.limit + 1, 'answers came back at the usual speed');
      return;
    }
    // A timeout: the target may still be working on the request given up on, and on a server that answers one
    // request at a time everything sent meanwhile waits behind it (and times out too): one request at a time until
    // answers come back at the usual speed.
    if (outcome === 'timeout') {
      this.change(1, 'a request timed out (the target may still be working on it)', true);
      return;
    }
    const why = outcome === 'failed' ? 'the target dropped a connection' : `an answer took ${seconds(durationMs)}${this.usual ? ` (usually ${seconds(this.usual)})` : ''}`;
    this.change(Math.max(1, Math.floor(this.limit / 2)), why, true);
  }

  private change(to: number, reason: string, down = false): void {
    const from = this.limit;
    // A slow-down at one request in flight still starts a new round: the next sign of load counts again.
    if (down) this.epoch += 1;
    this.credit = 0;
    if (to === from) return;
    this.limit = to;
    const max = Math.max(1, this.settings.concurrency);
    this.rpsNow = this.settings.rps > 0 ? Math.max(1, (this.settings.rps * to) / max) : 0;
    this.onChange({ atMs: performance.now() - this.born, from, to, rps: this.rpsNow, reason });
  }

  private admissible(alone: boolean, burst: Burst | null = null): boolean {
    if (burst && burst === this.burstHeld) return true;
    if (this.aloneHeld || this.burstHeld) return false;
    return alone || burst ? this.inFlight === 0 : this.inFlight < this.limit;
  }

  private admit(alone: boolean, burst: Burst | null = null): PaceTicket {
    if (burst) {
      this.burstHeld = burst;
      burst.inFlight += 1;
    } else if (alone) this.aloneHeld = true;
    else this.inFlight += 1;
    return { alone: alone && !burst, epoch: this.epoch, startedAt: 0, endedAt: 0, answered: false, ahead: [], abandoned: [], released: false, burst };
  }

  /** Admits waiters in order: one waiting alone holds back those behind it until the target is empty; a burst's members go together. */
  private pump(): void {
    while (this.queue.length && this.admissible(this.queue[0]!.alone, this.queue[0]!.burst)) {
      const w = this.queue.shift()!;
      w.resolve(this.admit(w.alone, w.burst));
      if (w.burst) this.admitRest(w.burst);
    }
  }

  /** The members of a burst that started, wherever they wait in the queue. */
  private admitRest(burst: Burst): void {
    for (let i = 0; i < this.queue.length; ) {
      const w = this.queue[i]!;
      if (w.burst !== burst) {
        i += 1;
        continue;
      }
      this.queue.splice(i, 1);
      w.resolve(this.admit(w.alone, burst));
    }
  }

  /** The rate's next start: starts are spaced 1/rps apart, in order. */
  private startSlot(): Promise<void> {
    if (!this.rpsNow) return Promise.resolve();
    const turn = this.rateTail.then(async () => {
      for (;;) {
        const now = performance.now();
        const interval = this.rpsNow > 0 ? 1000 / this.rpsNow : 0;
        const wait = this.lastStart + interval - now;
        if (wait <= 0) break;
        await sleep(wait, this.signal);
      }
      this.lastStart = performance.now();
    });
    this.rateTail = turn.catch(() => undefined);
    return turn;
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
