// Recurring scans. Due schedules start a scan with the owner's last scan configuration and keys;
// a run missed while the app was closed runs once at the next start, then the schedule continues
// from now; a run due while the owner's scan is active waits for it to finish. One timer (a
// node-schedule job) wakes the scheduler at the soonest next run, and is re-armed after every change.
// With several nodes on one database every node runs the timer; each due run is claimed in the
// database (a compare-and-set of its next run) and only the node that wins starts it. A change on one
// node re-arms every node's timer; the queue behind an active scan is the claiming node's own.

import schedule from 'node-schedule';
import { SCAN_MESSAGES } from '../../shared/messages';
import type { ScheduleFrequency } from '../../shared/constants';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { Notifier } from '../store/notify';
import type { ScanEvents } from '../scanner/events';
import { ScanError, type ScanService } from '../scanner/service';
import type { Repos } from '../store/index';
import type { ScheduleRow } from '../store/schedules';
import { nextRunAt } from './next-run';

/** Where the wake-up timer comes from; tests drive runDue() with a manual clock instead. */
export interface Timer {
  at(when: Date, run: () => void): { cancel(): void };
}

export const nodeScheduleTimer: Timer = {
  at(when, run) {
    const job = schedule.scheduleJob(when, run);
    return { cancel: () => job?.cancel() };
  },
};

export interface SchedulerDeps {
  repos: Repos;
  scans: ScanService;
  scanEvents: ScanEvents;
  clock: Clock;
  logger: Logger;
  timer?: Timer;
  /** Tells the other nodes of schedule changes and hears of theirs; without one, this process only. */
  notifier?: Notifier;
}

export function createScheduler({ repos, scans, scanEvents, clock, logger, timer = nodeScheduleTimer, notifier }: SchedulerDeps) {
  /** Due runs waiting for their owner's active scan to finish: user id -> API ids, in order. */
  const waiting = new Map<string, string[]>();
  let wake: { cancel(): void } | null = null;
  let wakeAt: Date | null = null;
  let stopped = true;
  let unsubscribe: (() => void)[] = [];
  /** Runs are processed one at a time, so two wake-ups never start the same schedule twice. */
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = chain.then(task, task);
    chain = next.catch(() => undefined);
    return next;
  };

  function wait(userId: string, apiId: string): void {
    const list = waiting.get(userId) ?? [];
    if (!list.includes(apiId)) list.push(apiId);
    waiting.set(userId, list);
  }

  const nextAfter = (row: ScheduleRow, now: Date): Date => nextRunAt(row.frequency as ScheduleFrequency, new Date(row.anchor_at ?? row.created_at), now, row.zone);

  async function advance(row: ScheduleRow, now: Date, scanId: string | null, error: string | null): Promise<void> {
    await repos.schedules.recordRun(row.api_id, { at: now, next: nextAfter(row, now), scanId, error });
  }

  /** The user's scan finished (on any node): the first run waiting behind it starts. */
  function finished(userId: string): void {
    const queue = waiting.get(userId);
    const apiId = queue?.shift();
    if (!queue?.length) waiting.delete(userId);
    if (!apiId) return;
    void serial(async () => {
      const row = await repos.schedules.get(apiId);
      if (row?.is_enabled) await runOne(row);
    }).catch((err) => logger.error('Queued scheduled scan failed', { error: err }));
  }

  /** Drops a changed or deleted schedule's waiting run. */
  function unqueue(apiId: string): void {
    for (const list of waiting.values()) list.splice(0, list.length, ...list.filter((id) => id !== apiId));
  }

  /** Starts the schedule's scan now, or queues it behind the owner's active scan. */
  async function runOne(row: ScheduleRow): Promise<void> {
    const now = clock.now();
    if (scans.isUserBusy(row.user_id)) {
      wait(row.user_id, row.api_id);
      logger.info('Scheduled scan waits for the running scan', { api_id: row.api_id, user_id: row.user_id });
      return;
    }
    try {
      const scanId = await scans.createFromPrevious(row.user_id, row.api_id);
      await scans.start(row.user_id, { apiId: row.api_id, scanId });
      await advance(row, now, scanId, null);
      logger.info('Scheduled scan started', { api_id: row.api_id, scan_id: scanId });
    } catch (err) {
      // Started elsewhere in the meantime (another process, a click): wait for it like above.
      if (err instanceof ScanError && err.status === 409 && err.message === SCAN_MESSAGES.anotherInProgress) {
        wait(row.user_id, row.api_id);
        return;
      }
      const reason = err instanceof Error ? err.message : String(err);
      await advance(row, now, null, reason);
      logger.warn('Scheduled scan could not start', { api_id: row.api_id, reason });
    }
  }

  async function arm(): Promise<void> {
    wake?.cancel();
    wake = null;
    wakeAt = null;
    if (stopped) return;
    const at = await repos.schedules.nextWake();
    if (!at) return;
    wakeAt = at;
    wake = timer.at(at, () => {
      void api.runDue().catch((err) => logger.error('Scheduler run failed', { error: err }));
    });
  }

  const api = {
    /** Catch-up for runs missed while closed, then the timer. */
    async start(): Promise<void> {
      stopped = false;
      if (!unsubscribe.length) {
        unsubscribe = [
          scanEvents.subscribe((event) => {
            if (event.type === 'scan:finished') finished(event.userId);
          }),
        ];
        if (notifier) {
          unsubscribe.push(
            notifier.subscribe('schedules_changed', (payload, origin) => {
              if (origin === 'local') return;
              const apiId = (payload as { apiId?: unknown } | null)?.apiId;
              void serial(async () => {
                if (typeof apiId === 'string') unqueue(apiId);
                await arm();
              }).catch((err) => logger.error('Scheduler re-arm failed', { error: err }));
            }),
            // A scan finished on another node while the notifications connection was down went unheard.
            notifier.onReconnect(() => {
              void (async () => {
                for (const userId of [...waiting.keys()]) if (!(await repos.scans.runningForUser(userId))) finished(userId);
                await serial(arm);
              })().catch((err) => logger.error('Scheduler catch-up after reconnect failed', { error: err }));
            }),
          );
        }
      }
      await api.runDue();
    },

    /**
     * Runs every schedule due at the clock's now (each once, on whichever node claims it first), then
     * re-arms the timer.
     */
    runDue(): Promise<void> {
      return serial(async () => {
        for (const row of await repos.schedules.due(clock.now())) {
          if (!(await repos.schedules.claim(row.api_id, row.next_run_at!, nextAfter(row, clock.now())))) continue;
          await runOne(row);
        }
        await arm();
      });
    },

    /** After a schedule was saved or deleted. */
    changed(apiId?: string): Promise<void> {
      notifier?.publish('schedules_changed', { apiId: apiId ?? null });
      return serial(async () => {
        if (apiId) unqueue(apiId);
        await arm();
      });
    },

    /** When the timer will next fire (for tests and diagnostics). */
    nextWake(): Date | null {
      return wakeAt;
    },

    /** API ids waiting behind their owner's active scan. */
    waitingFor(userId: string): string[] {
      return [...(waiting.get(userId) ?? [])];
    },

    async stop(): Promise<void> {
      stopped = true;
      for (const off of unsubscribe) off();
      unsubscribe = [];
      wake?.cancel();
      wake = null;
      await chain;
    },
  };
  return api;
}

export type Scheduler = ReturnType<typeof createScheduler>;
