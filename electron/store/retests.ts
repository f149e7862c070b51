// Re-tests repository (issue 29, item 3): a finding's re-tests, newest first, and the rule of one
// re-test of an API at a time. A re-test is written `running` when it starts (the partial unique
// index of migration 017 refuses a second one of the same API, on every node) and finished with its
// outcome; a `running` row older than a re-test can last is one a stopped process left: it is failed
// before the next re-test of its API starts.

import type { RetestOutcome } from '../../shared/constants';
import type { FindingRetest, FindingRetestSummary } from '../../shared/contract';
import type { Db } from './database';
import { isUniqueViolation } from './dialect';
import { newRowId } from './row-ids';

export interface NewRetest {
  findingId: string;
  apiId: string;
  fingerprint: string;
  userId: string | null;
}

export interface RetestResult {
  outcome: RetestOutcome;
  evidence: string | null;
  curl: string | null;
  sent: string[];
  requestsSent: number;
  reason: string | null;
}

function parseSent(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function createRetestsRepo(db: Db) {
  const withUser = () =>
    db
      .selectFrom('finding_retests as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .selectAll('r')
      .select('u.username');

  return {
    /** Is a scan of the API running (on any node)? A re-test waits for it. */
    async scanRunning(apiId: string): Promise<boolean> {
      const row = await db.selectFrom('scans').select('id').where('api_id', '=', apiId).where('status', '=', 'running').executeTakeFirst();
      return !!row;
    },

    /**
     * Starts a re-test: its row, `running`. 'busy' when another re-test of the API runs. Running rows
     * that started before `staleBefore` (their process stopped) are failed with `staleReason` first.
     */
    async begin(r: NewRetest, now: Date, staleBefore: Date, staleReason: string): Promise<string | 'busy'> {
      await db
        .updateTable('finding_retests')
        .set({ outcome: 'failed', finished_at: now.toISOString(), reason: staleReason })
        .where('api_id', '=', r.apiId)
        .where('outcome', '=', 'running')
        .where('started_at', '<', staleBefore.toISOString())
        .execute();
      const id = newRowId();
      try {
        await db
          .insertInto('finding_retests')
          .values({ id, finding_id: r.findingId, api_id: r.apiId, fingerprint: r.fingerprint, user_id: r.userId, outcome: 'running', started_at: now.toISOString(), finished_at: null, evidence: null, curl: null, reason: null })
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) return 'busy';
        throw err;
      }
      return id;
    },

    /** Ends a running re-test with its outcome. */
    async finish(id: string, result: RetestResult, now: Date, durationMs: number): Promise<void> {
      await db
        .updateTable('finding_retests')
        .set({
          outcome: result.outcome,
          finished_at: now.toISOString(),
          duration_ms: Math.max(0, Math.round(durationMs)),
          evidence: result.evidence,
          curl: result.curl,
          sent: JSON.stringify(result.sent),
          requests_sent: result.requestsSent,
          reason: result.reason,
        })
        .where('id', '=', id)
        .where('outcome', '=', 'running')
        .execute();
    },

    async findById(id: string): Promise<FindingRetest | undefined> {
      const row = await withUser().where('r.id', '=', id).executeTakeFirst();
      return row ? toRetest(row) : undefined;
    },

    /** A finding's finished re-tests, newest first (at most `limit`). */
    async listForFinding(findingId: string, limit: number): Promise<FindingRetest[]> {
      const rows = await withUser().where('r.finding_id', '=', findingId).where('r.outcome', '<>', 'running').orderBy('r.started_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
      return rows.map(toRetest);
    },

    /** The latest finished re-test of each of a scan's findings that has one. */
    async latestForScan(scanId: string): Promise<Map<string, FindingRetestSummary>> {
      const rows = await db
        .selectFrom('finding_retests as r')
        .innerJoin('findings as f', 'f.id', 'r.finding_id')
        .leftJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.finding_id', 'r.outcome', 'r.finished_at', 'r.started_at', 'u.username'])
        .where('f.scan_id', '=', scanId)
        .where('r.outcome', '<>', 'running')
        .orderBy('r.started_at')
        .orderBy('r.id')
        .execute();
      const latest = new Map<string, FindingRetestSummary>();
      // Oldest first: the last one written for a finding is its latest.
      for (const r of rows) latest.set(r.finding_id, { outcome: r.outcome as RetestOutcome, at: r.finished_at ?? r.started_at, by: r.username ?? null });
      return latest;
    },
  };
}

function toRetest(r: {
  id: string;
  finding_id: string;
  fingerprint: string;
  outcome: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number;
  evidence: string | null;
  curl: string | null;
  sent: string;
  requests_sent: number;
  reason: string | null;
  username: string | null;
}): FindingRetest {
  return {
    id: r.id,
    finding_id: r.finding_id,
    fingerprint: r.fingerprint,
    outcome: r.outcome as RetestOutcome,
    at: r.finished_at ?? r.started_at,
    by: r.username ?? null,
    started_at: r.started_at,
    duration_ms: Number(r.duration_ms),
    evidence: r.evidence,
    curl: r.curl,
    sent: parseSent(r.sent),
    requests_sent: Number(r.requests_sent),
    reason: r.reason,
  };
}

export type RetestsRepo = ReturnType<typeof createRetestsRepo>;
