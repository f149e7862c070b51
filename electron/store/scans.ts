// Scans repository: the lifecycle rows of scans (created -> running -> completed/failed/cancelled),
// their progress, the one-running-scan-per-user rule (a unique index, migration 011), and the start-up
// recovery of scans a crash left running.

import type { CoverageSummary, ScanCoverage } from '../../shared/coverage';
import { sql, type Selectable } from 'kysely';
import type { ScanStatus } from '../../shared/constants';
import type { CreatedUserReport, LoginFailure, ScanSummary, SkippedCheck } from '../../shared/contract';
import type { IdentityReport } from '../../shared/identities';
import type { Db } from './database';
import { isoNowSql, isUniqueViolation } from './dialect';
import type { ScansTable } from './schema';

export type ScanRow = Selectable<ScansTable>;

/** Run notes kept as JSON in scans.notes. */
export interface ScanNotes {
  errors: string[];
  /** The notes among `errors` that are problems (issue 31); absent on older scans. */
  problems?: string[];
  skipped_checks: SkippedCheck[];
  /** The completed scan of the same API this one is compared with (trend, fixed findings). */
  previous_scan_id: string | null;
  /** Requests each check sent itself (baselines and creates not counted). */
  requests_by_check: Record<string, number>;
  /** For the reports (docs/report-formats.md): the checks that ran and on which endpoints. */
  checks_run?: { check_id: string; title: string; owasp: string; endpoints: string[] }[];
  /** For the reports: a snapshot of the endpoints as scanned. */
  endpoints?: { method: string; path: string; summary: string; flags: string[] }[];
  /** For the reports: findings of the previous scan that this one no longer has (completed scans). */
  fixed?: { fingerprint: string; vulnerability_name: string; method: string; path: string; severity: string }[];
  /** The identity table (no secrets). */
  identities?: IdentityReport[];
  /** The coverage ledger's summary (the whole ledger is in scans.coverage). */
  coverage?: CoverageSummary;
  /** Users the scan registered (no passwords). */
  created_users?: CreatedUserReport[];
  refreshes?: number;
  /** The identity whose login stopped the scan and the API's answer, redacted (issue 31). */
  login_failure?: LoginFailure;
}

export const EMPTY_NOTES: ScanNotes = { errors: [], skipped_checks: [], previous_scan_id: null, requests_by_check: {} };

export function parseNotes(json: string): ScanNotes {
  try {
    const v = JSON.parse(json) as Partial<ScanNotes>;
    return {
      errors: Array.isArray(v.errors) ? v.errors : [],
      ...(Array.isArray(v.problems) ? { problems: v.problems.filter((p): p is string => typeof p === 'string') } : {}),
      skipped_checks: Array.isArray(v.skipped_checks) ? v.skipped_checks : [],
      previous_scan_id: v.previous_scan_id ?? null,
      requests_by_check: v.requests_by_check && typeof v.requests_by_check === 'object' ? v.requests_by_check : {},
      ...(Array.isArray(v.checks_run) ? { checks_run: v.checks_run } : {}),
      ...(Array.isArray(v.endpoints) ? { endpoints: v.endpoints } : {}),
      ...(Array.isArray(v.fixed) ? { fixed: v.fixed } : {}),
      ...(Array.isArray(v.identities) ? { identities: v.identities } : {}),
      ...(Array.isArray(v.created_users) ? { created_users: v.created_users } : {}),
      ...(typeof v.refreshes === 'number' ? { refreshes: v.refreshes } : {}),
      ...(v.coverage && typeof v.coverage === 'object' ? { coverage: v.coverage } : {}),
      ...(v.login_failure && typeof v.login_failure === 'object' && typeof v.login_failure.identity === 'string' ? { login_failure: v.login_failure } : {}),
    };
  } catch {
    return { ...EMPTY_NOTES, requests_by_check: {} };
  }
}

/** scans.coverage as the ledger; null when absent (older scans, running ones) or not a ledger's shape. */
export function parseCoverage(json: string | null | undefined): ScanCoverage | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Partial<ScanCoverage> | null;
    return v && typeof v === 'object' && v.summary && typeof v.summary === 'object' && Array.isArray(v.operations) ? (v as ScanCoverage) : null;
  } catch {
    return null;
  }
}

export interface NewScan {
  id: string;
  apiId: string;
  userId: string;
  profile: string;
  config: Record<string, unknown>;
  secretRef: string;
}

/** Kept by the findings triggers of migration 002, the same figure the API list and the dashboard show. */
const VULN = sql<number>`scans.findings_count`;

export function createScansRepo(db: Db) {
  return {
    async create(input: NewScan, now: Date): Promise<void> {
      await db
        .insertInto('scans')
        .values({
          id: input.id,
          api_id: input.apiId,
          user_id: input.userId,
          profile: input.profile,
          status: 'created',
          created_at: now.toISOString(),
          started_at: null,
          completed_at: null,
          failure_reason: null,
          progress_done: 0,
          progress_total: 0,
          requests_sent: 0,
          score: null,
          config: JSON.stringify(input.config),
          secret_ref: input.secretRef,
          notes: JSON.stringify(EMPTY_NOTES),
        })
        .execute();
    },

    async findById(id: string): Promise<ScanRow | undefined> {
      return db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The newest scan this user created for the API and has not started. */
    async latestCreated(apiId: string, userId: string): Promise<ScanRow | undefined> {
      return db
        .selectFrom('scans')
        .selectAll()
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .where('status', '=', 'created')
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .executeTakeFirst();
    },

    async runningForUser(userId: string): Promise<ScanRow | undefined> {
      return db.selectFrom('scans').selectAll().where('user_id', '=', userId).where('status', '=', 'running').executeTakeFirst();
    },

    /**
     * created -> running, only if the user has no other scan running. The condition alone does not
     * hold it on a PostgreSQL pool (two starts of two scans can both see none running); the unique
     * index of migration 011 does, on both databases: the start that loses is told busy.
     */
    async markRunning(id: string, userId: string, now: Date, total: number): Promise<'ok' | 'busy' | 'not-created'> {
      let updated: number;
      try {
        const res = await db
          .updateTable('scans')
          .set({ status: 'running', started_at: now.toISOString(), progress_done: 0, progress_total: total, requests_sent: 0 })
          .where('id', '=', id)
          .where('status', '=', 'created')
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('scans as other').select('other.id').where('other.user_id', '=', userId).where('other.status', '=', 'running'))),
          )
          .executeTakeFirst();
        updated = Number(res.numUpdatedRows);
      } catch (err) {
        if (isUniqueViolation(err, 'scans.user_id')) return 'busy';
        throw err;
      }
      if (updated === 1) return 'ok';
      const row = await this.findById(id);
      return row?.status === 'created' ? 'busy' : 'not-created';
    },

    /** False when the scan is no longer running (or no longer exists). `current`: what it checks now (kept for every node's details). */
    async updateProgress(id: string, p: { done: number; total: number; requestsSent: number }, current?: { check: string; endpoint: string | null } | null): Promise<boolean> {
      const res = await db
        .updateTable('scans')
        .set({
          progress_done: p.done,
          progress_total: p.total,
          requests_sent: p.requestsSent,
          ...(current !== undefined ? { current_check: current?.check ?? null, current_endpoint: current?.endpoint ?? null } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** The coverage ledger of a finished scan; null before issue 26, while it runs, or when none was kept. */
    async coverageOf(id: string): Promise<ScanCoverage | null> {
      const row = await db.selectFrom('scans').select('coverage').where('id', '=', id).executeTakeFirst();
      return parseCoverage(row?.coverage);
    },

    async setNotes(id: string, notes: ScanNotes): Promise<void> {
      await db.updateTable('scans').set({ notes: JSON.stringify(notes) }).where('id', '=', id).execute();
    },

    /** running -> a final status. Only a running scan is finished (a cancel that won the race is kept). */
    async finish(
      id: string,
      result: {
        status: Exclude<ScanStatus, 'created' | 'running'>;
        failureReason: string | null;
        score: number | null;
        notes: ScanNotes;
        done: number;
        total: number;
        requestsSent: number;
        /** What the scan reached and exercised (absent: none was kept). */
        coverage?: ScanCoverage | null;
      },
      now: Date,
    ): Promise<boolean> {
      const res = await db
        .updateTable('scans')
        .set({
          status: result.status,
          completed_at: now.toISOString(),
          failure_reason: result.failureReason,
          score: result.score,
          notes: JSON.stringify(result.notes),
          progress_done: result.done,
          progress_total: result.total,
          requests_sent: result.requestsSent,
          current_check: null,
          current_endpoint: null,
          ...(result.coverage ? { coverage: JSON.stringify(result.coverage) } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /**
     * Before a node starts a created scan: it names itself the owner, with a lease of `leaseMs` from the
     * database's now, so the scan is never running without a lease (a node dying right after the start
     * leaves a lease that expires). Only a created scan is touched.
     */
    async takeLease(id: string, nodeId: string, leaseMs: number): Promise<void> {
      await db.updateTable('scans').set({ owner_node: nodeId, lease_until: isoNowSql(db, leaseMs) }).where('id', '=', id).where('status', '=', 'created').execute();
    },

    /**
     * The heartbeat of the node running `ids`: each still running gets the node as owner and a lease of
     * `leaseMs` from the database's now. Returns the ids renewed; the others were cancelled, failed or
     * deleted elsewhere.
     */
    async renewLeases(ids: string[], nodeId: string, leaseMs: number): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const rows = await db
        .updateTable('scans')
        .set({ owner_node: nodeId, lease_until: isoNowSql(db, leaseMs) })
        .where('id', 'in', ids)
        .where('status', '=', 'running')
        .returning('id')
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Running scans whose lease has expired (their node stopped) become failed with the reason, in one
     * statement, so nodes sweeping at once fail each scan once. `unleased`: also running scans no node
     * ever leased (from before migration 012, or copied); `except`: the scans running in the caller.
     * Returns what the scan:finished events need.
     */
    async failExpiredLeases(
      now: Date,
      reason: string,
      options: { unleased: boolean; except: string[] },
    ): Promise<{ id: string; api_id: string; user_id: string; findings: number }[]> {
      const rows = await db
        .updateTable('scans')
        .set({ status: 'failed', completed_at: now.toISOString(), failure_reason: reason, current_check: null, current_endpoint: null })
        .where('status', '=', 'running')
        .where((eb) => {
          const expired = eb('lease_until', '<', isoNowSql(db));
          return options.unleased ? eb.or([expired, eb('lease_until', 'is', null)]) : expired;
        })
        .$if(options.except.length > 0, (q) => q.where('id', 'not in', options.except))
        .returning(['id', 'api_id', 'user_id', VULN.as('vulns')])
        .execute();
      return rows.map((r) => ({ id: r.id, api_id: r.api_id, user_id: r.user_id, findings: Number(r.vulns) }));
    },

    /**
     * The owner lets go of a scan it no longer runs (its requests have stopped): the lease is cleared.
     * Only the owner's, and never a running scan's (a scan is never running without a lease).
     */
    async releaseLease(id: string, nodeId: string): Promise<void> {
      await db.updateTable('scans').set({ lease_until: null }).where('id', '=', id).where('owner_node', '=', nodeId).where('status', '!=', 'running').execute();
    },

    /**
     * A scan's lease as the other nodes see it: `released` by its owner (it stopped), `expired` by the
     * database's clock (its owner stopped renewing: gone), or `held`; null when the scan does not exist.
     */
    async leaseState(id: string): Promise<'held' | 'released' | 'expired' | null> {
      const row = await db.selectFrom('scans').select(['lease_until', isoNowSql(db).as('now')]).where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      if (row.lease_until === null) return 'released';
      return row.lease_until < row.now ? 'expired' : 'held';
    },

    /** created -> cancelled (a scan that never started). */
    async cancelCreated(id: string, now: Date): Promise<boolean> {
      const res = await db
        .updateTable('scans')
        .set({ status: 'cancelled', completed_at: now.toISOString(), failure_reason: 'Cancelled before it started.' })
        .where('id', '=', id)
        .where('status', '=', 'created')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Scans left running by a crash or a hard stop become failed, with the reason. Returns their ids. */
    async failInterrupted(now: Date, reason: string): Promise<string[]> {
      const rows = await db.selectFrom('scans').select('id').where('status', '=', 'running').execute();
      if (!rows.length) return [];
      await db
        .updateTable('scans')
        .set({ status: 'failed', completed_at: now.toISOString(), failure_reason: reason, current_check: null, current_endpoint: null })
        .where('status', '=', 'running')
        .execute();
      return rows.map((r) => r.id);
    },

    /** The latest completed scan of the API other than this one (the comparison point for trends). */
    async previousCompleted(apiId: string, excludeId: string): Promise<ScanRow | undefined> {
      return db
        .selectFrom('scans')
        .selectAll()
        .where('api_id', '=', apiId)
        .where('status', '=', 'completed')
        .where('id', '<>', excludeId)
        .orderBy('completed_at', 'desc')
        .orderBy('seq', 'desc')
        .executeTakeFirst();
    },

    /** Earlier scans of this API by this user that still hold keys (not running), for clean-up. */
    async olderHoldingSecrets(apiId: string, userId: string, exceptId: string): Promise<ScanRow[]> {
      return db
        .selectFrom('scans')
        .selectAll()
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .where('id', '<>', exceptId)
        .where('status', '<>', 'running')
        .where('secret_ref', 'is not', null)
        .execute();
    },

    /** This user's newest scan of the API that still holds its keys (what a scheduled scan repeats). */
    async latestHoldingSecret(apiId: string, userId: string): Promise<ScanRow | undefined> {
      return db
        .selectFrom('scans')
        .selectAll()
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .where('secret_ref', 'is not', null)
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .executeTakeFirst();
    },

    async clearSecretRef(id: string): Promise<void> {
      await db.updateTable('scans').set({ secret_ref: null }).where('id', '=', id).execute();
    },

    /** Drafts (created, never started) are superseded by a newer create of the same user and API. */
    async deleteDrafts(apiId: string, userId: string, exceptId: string): Promise<void> {
      await db
        .deleteFrom('scans')
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .where('status', '=', 'created')
        .where('id', '<>', exceptId)
        .execute();
    },

    async listForApi(apiId: string): Promise<ScanSummary[]> {
      const rows = await db
        .selectFrom('scans')
        .selectAll()
        .select(VULN.as('vulns'))
        .where('api_id', '=', apiId)
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        api_id: r.api_id,
        status: r.status as ScanStatus,
        scan_profile: r.profile,
        created_at: r.created_at,
        started_at: r.started_at,
        completed_at: r.completed_at,
        vulnerabilities: Number(r.vulns),
        score: r.score,
        failure_reason: r.failure_reason,
      }));
    },

    /** Secret references still used by some scan (the rest are orphans). */
    async liveSecretRefs(): Promise<Set<string>> {
      const rows = await db.selectFrom('scans').select('secret_ref').where('secret_ref', 'is not', null).execute();
      // Identity setups that worked keep their secrets under the same prefix (scan:setup:<id>).
      const setups = await db.selectFrom('identity_setups').select('secret_ref').execute();
      return new Set([...rows.map((r) => r.secret_ref!), ...setups.map((r) => r.secret_ref)]);
    },
  };
}

export type ScansRepo = ReturnType<typeof createScansRepo>;
