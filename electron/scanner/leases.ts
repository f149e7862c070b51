// The lease keeping of scans on a database shared by several nodes (issue 19, docs/decisions.md "Scans
// across nodes"): a heartbeat renews the leases of the scans running here and stops those ended
// elsewhere; a sweep fails the running scans whose node stopped renewing, and announces them.

import type { Clock } from '../clock';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import { databaseTroubleOf } from '../store/health';
import type { Repos } from '../store/index';
import type { ScanEvents } from './events';
import type { StopReason } from './run';

export interface LeaseKeeperDeps {
  repos: Repos;
  config: CoreConfig;
  logger: Logger;
  clock: Clock;
  events: ScanEvents;
  /** The scans running on this node, by id (the service's own map: the keeper only reads it). */
  active: ReadonlyMap<string, { controller: AbortController }>;
  /** How a scan stopped here or failed by a sweep is told: the service's texts, which live with it. */
  reasons: { nodeLost: string; userCancelled: string; apiDeleted: StopReason };
}

export function createLeaseKeeper(deps: LeaseKeeperDeps) {
  const { repos, config, logger, clock, events, active, reasons } = deps;
  const { leaseMs, heartbeatMs } = config.scanLease;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  /** The heartbeat or sweep in flight (one at a time; shutdown waits for it). */
  let tick: Promise<void> = Promise.resolve();
  let closing = false;

  /** Timer tasks queued or running: a slow database skips a beat rather than queueing them up. */
  const pending = new Set<string>();

  /** Runs one timer task after the one before, logging its failure (a database hiccup must not stop the timers). */
  function serially(name: string, task: () => Promise<unknown>): void {
    if (pending.has(name)) return;
    pending.add(name);
    tick = tick.then(async () => {
      try {
        if (!closing) await task();
      } catch (err) {
        // While the database is down every beat fails: the outage is logged once (store/health.ts).
        logger[databaseTroubleOf(err) ? 'debug' : 'warn'](`Scan ${name} failed`, { error: (err as Error)?.message });
      } finally {
        pending.delete(name);
      }
    });
  }

  /**
   * A scan of ours whose row is no longer running was ended elsewhere (a cancel on another node, a
   * sweep that took this node for dead) or deleted with its API: stop sending its requests.
   */
  async function stopIfEnded(scanId: string): Promise<void> {
    const entry = active.get(scanId);
    if (!entry || entry.controller.signal.aborted) return;
    const row = await repos.scans.findById(scanId);
    if (row?.status === 'running' || entry.controller.signal.aborted) return;
    const reason: StopReason = !row
      ? reasons.apiDeleted
      : row.status === 'cancelled'
        ? { status: 'cancelled', message: row.failure_reason ?? reasons.userCancelled }
        : { status: 'failed', message: row.failure_reason ?? reasons.nodeLost };
    logger.info('Scan ended elsewhere: stopping it here', { scan_id: scanId, status: row?.status ?? 'deleted' });
    entry.controller.abort(reason);
  }

  /** Renews the leases of the scans running here; stops those whose row says they ended. */
  async function heartbeat(): Promise<void> {
    const ids = [...active.keys()];
    if (!ids.length) return;
    const renewed = await repos.scans.renewLeases(ids, config.nodeId, leaseMs);
    for (const id of ids) if (!renewed.has(id)) await stopIfEnded(id);
  }

  /**
   * Fails the running scans whose node stopped renewing their lease (`unleased`: and those never
   * leased), never one running here, and announces each as a finished scan.
   */
  async function sweepExpired(unleased: boolean): Promise<string[]> {
    const failed = await repos.scans.failExpiredLeases(clock.now(), reasons.nodeLost, { unleased, except: [...active.keys()] });
    for (const scan of failed) {
      logger.warn('Scan marked failed: the node running it stopped', { scan_id: scan.id });
      events.emit({ type: 'scan:finished', scanId: scan.id, apiId: scan.api_id, userId: scan.user_id, status: 'failed', failureReason: reasons.nodeLost, findings: scan.findings, score: null });
    }
    return failed.map((s) => s.id);
  }

  return {
    stopIfEnded,
    sweepExpired,

    /** Leases a scan to this node for one lease time. */
    async take(scanId: string): Promise<void> {
      await repos.scans.takeLease(scanId, config.nodeId, leaseMs);
    },

    /** Starts the heartbeat if it is not beating; it stops itself once no scan runs here. */
    arm(): void {
      if (heartbeatTimer || closing) return;
      heartbeatTimer = setInterval(() => {
        if (!active.size && heartbeatTimer) {
          clearInterval(heartbeatTimer);
          heartbeatTimer = null;
          return;
        }
        serially('heartbeat', heartbeat);
      }, heartbeatMs);
      heartbeatTimer.unref();
    },

    /** Sweeps for expired leases every half lease (never more often than the heartbeat). */
    startSweeping(): void {
      sweepTimer ??= setInterval(() => serially('sweep', () => sweepExpired(false)), Math.max(heartbeatMs, Math.round(leaseMs / 2)));
      sweepTimer.unref();
    },

    /** Stops the timers and waits for the heartbeat or sweep in flight; none runs after. */
    async stop(): Promise<void> {
      closing = true;
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      if (sweepTimer) clearInterval(sweepTimer);
      heartbeatTimer = sweepTimer = null;
      await tick;
    },
  };
}

export type LeaseKeeper = ReturnType<typeof createLeaseKeeper>;
