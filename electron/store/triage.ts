// Triage repository (issue 17): one mark per API and finding fingerprint, so a finding set aside as a
// false positive or an accepted risk stays set aside in later scans of the API. Setting a mark flags
// the API's findings with that fingerprint (`suppressed`, which the counting triggers of migration 009
// read) and re-scores the completed scans that had it, in one transaction.

import { sql } from 'kysely';
import type { TriageMarkState } from '../../shared/constants';
import type { FindingTriage } from '../../shared/contract';
import type { Db } from './database';
import { boolToIntSql } from './dialect';

/** A completed scan's score from its findings that still count (electron/scanner/findings.ts securityScore). */
export type ScoreOf = (findings: { severity: string; cvss_score: number }[]) => number;

export interface TriageMark {
  apiId: string;
  fingerprint: string;
  state: TriageMarkState;
  reason: string;
  expiresAt: string | null;
  userId: string | null;
}

/**
 * SQL: 1 when an active mark (not open, not expired at `nowIso`) covers this API and fingerprint, else 0
 * (a value for the integer `suppressed` column on either database). A `fixed` mark never sets aside a
 * finding a scan writes now: found again, it was not fixed (the scan service opens the mark again).
 */
export function activeMarkSql(apiId: string, fingerprint: string, nowIso: string) {
  return boolToIntSql(sql`EXISTS (SELECT 1 FROM finding_triage t WHERE t.api_id = ${apiId} AND t.fingerprint = ${fingerprint}
    AND t.state <> 'open' AND t.state <> 'fixed' AND (t.expires_at IS NULL OR t.expires_at > ${nowIso}))`);
}

export function createTriageRepo(db: Db) {
  /** Flags the API's findings with this fingerprint and re-scores the completed scans that have one. */
  async function apply(trx: Db, apiId: string, fingerprint: string, suppressed: boolean, score: ScoreOf): Promise<number> {
    await trx.updateTable('findings').set({ suppressed: suppressed ? 1 : 0 }).where('api_id', '=', apiId).where('fingerprint', '=', fingerprint).execute();
    const scans = await trx
      .selectFrom('findings')
      .innerJoin('scans', 'scans.id', 'findings.scan_id')
      .select('scans.id')
      .distinct()
      .where('findings.api_id', '=', apiId)
      .where('findings.fingerprint', '=', fingerprint)
      .where('scans.status', '=', 'completed')
      .execute();
    for (const { id } of scans) {
      const counted = await trx.selectFrom('findings').select(['severity', 'cvss_score']).where('scan_id', '=', id).where('suppressed', '=', 0).execute();
      await trx.updateTable('scans').set({ score: score(counted) }).where('id', '=', id).execute();
    }
    return scans.length;
  }

  async function markOf(trx: Db, apiId: string, fingerprint: string): Promise<FindingTriage> {
    const row = await trx
      .selectFrom('finding_triage as t')
      .leftJoin('users as u', 'u.id', 't.set_by')
      .select(['t.state', 't.reason', 't.expires_at', 't.set_at', 'u.username'])
      .where('t.api_id', '=', apiId)
      .where('t.fingerprint', '=', fingerprint)
      .executeTakeFirstOrThrow();
    return { state: row.state as TriageMarkState, reason: row.reason, expires_at: row.expires_at, set_by: row.username ?? null, set_at: row.set_at };
  }

  return {
    /** Sets (or replaces) the mark; returns it and how many completed scans were re-scored. */
    async set(mark: TriageMark, now: Date, score: ScoreOf): Promise<{ triage: FindingTriage; affectedScans: number }> {
      return db.transaction().execute(async (trx) => {
        const values = { state: mark.state, reason: mark.reason, expires_at: mark.expiresAt, set_by: mark.userId, set_at: now.toISOString() };
        await trx
          .insertInto('finding_triage')
          .values({ api_id: mark.apiId, fingerprint: mark.fingerprint, ...values })
          .onConflict((oc) => oc.columns(['api_id', 'fingerprint']).doUpdateSet(values))
          .execute();
        const affectedScans = await apply(trx, mark.apiId, mark.fingerprint, mark.state !== 'open', score);
        return { triage: await markOf(trx, mark.apiId, mark.fingerprint), affectedScans };
      });
    },

    /**
     * A finding closed as fixed was found again: its mark is open again (with `reason`, no setter) and its
     * findings count again, as an accepted risk's do when it ends. False when no fixed mark covered it.
     */
    async reopenFixed(apiId: string, fingerprint: string, reason: string, now: Date, score: ScoreOf): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('finding_triage')
          .set({ state: 'open', reason, set_by: null, set_at: now.toISOString(), expires_at: null })
          .where('api_id', '=', apiId)
          .where('fingerprint', '=', fingerprint)
          .where('state', '=', 'fixed')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return false;
        await apply(trx, apiId, fingerprint, false, score);
        return true;
      });
    },

    /**
     * Accepted risks whose end has come are open again (the reason stays, the setter is cleared), and
     * their findings count again. Returns how many marks expired.
     */
    async expireDue(now: Date, score: ScoreOf): Promise<number> {
      const nowIso = now.toISOString();
      const due = await db
        .selectFrom('finding_triage')
        .select(['api_id', 'fingerprint', 'expires_at'])
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', nowIso)
        .where('state', '<>', 'open')
        .execute();
      for (const d of due) {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('finding_triage')
            .set({ state: 'open', set_by: null, set_at: d.expires_at! })
            .where('api_id', '=', d.api_id)
            .where('fingerprint', '=', d.fingerprint)
            .where('state', '<>', 'open')
            .execute();
          await apply(trx, d.api_id, d.fingerprint, false, score);
        });
      }
      return due.length;
    },

    /** Every mark of an API (the UI's triage export, the CLI's --baseline). */
    async listForApi(apiId: string): Promise<({ fingerprint: string } & FindingTriage)[]> {
      const rows = await db
        .selectFrom('finding_triage as t')
        .leftJoin('users as u', 'u.id', 't.set_by')
        .select(['t.fingerprint', 't.state', 't.reason', 't.expires_at', 't.set_at', 'u.username'])
        .where('t.api_id', '=', apiId)
        .orderBy('t.set_at')
        .execute();
      return rows.map((r) => ({ fingerprint: r.fingerprint, state: r.state as TriageMarkState, reason: r.reason, expires_at: r.expires_at, set_by: r.username ?? null, set_at: r.set_at }));
    },
  };
}

export type TriageRepo = ReturnType<typeof createTriageRepo>;
