// Findings repository: findings are written as a scan finds them (so details shows them while it
// runs), de-duplicated by fingerprint within a scan, and followed across scans of the same API.

import { sql, type Selectable } from 'kysely';
import type { Confidence, Severity } from '../../shared/constants';
import type { TriageMarkState } from '../../shared/constants';
import type { Finding, FindingBrief, FindingGraphql, FindingProof, FindingTriage, ScanInfo } from '../../shared/contract';
import type { Db } from './database';
import type { FindingsTable } from './schema';
import { newRowId } from './row-ids';
import { activeMarkSql } from './triage';

export type NewFinding = Omit<Finding, 'id' | 'triage'> & { scan_id: string; api_id: string };

/** The triage columns a finding is read with (a left join: all null when nobody marked it). */
export interface TriageColumns {
  triage_state: string | null;
  triage_reason: string | null;
  triage_expires_at: string | null;
  triage_set_at: string | null;
  triage_set_by: string | null;
}

export function triageOf(r: TriageColumns): FindingTriage | null {
  if (!r.triage_state || !r.triage_set_at) return null;
  return { state: r.triage_state as TriageMarkState, reason: r.triage_reason ?? '', expires_at: r.triage_expires_at, set_by: r.triage_set_by, set_at: r.triage_set_at };
}

function parseList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function toFinding(r: Selectable<FindingsTable> & TriageColumns): Finding {
  return {
    id: r.id,
    check_id: r.check_id,
    vulnerability_name: r.vulnerability_name,
    severity: r.severity as Severity,
    confidence: r.confidence as Confidence,
    owasp: r.owasp,
    cwe: r.cwe,
    description: r.description,
    recommendation: r.recommendation,
    cvss_score: r.cvss_score,
    cvss_vector: r.cvss_vector,
    method: r.method,
    path: r.path,
    parameter: r.parameter,
    evidence: r.evidence,
    curl: r.curl,
    references: parseList(r.references),
    fingerprint: r.fingerprint,
    trend: r.trend === 'recurring' ? 'recurring' : 'new',
    triage: triageOf(r),
    graphql: r.graphql ? parseGraphql(r.graphql) : null,
    proof: r.proof ? parseProof(r.proof) : null,
  };
}

/** A finding's stored replay proof (JSON text); null when unreadable or not of the shape FindingProof has. */
export function parseProof(json: string): FindingProof | null {
  try {
    const v = JSON.parse(json) as Partial<FindingProof> | null;
    if (!v || !Number.isInteger(v.step) || !Array.isArray(v.status) || !v.status.every(Number.isInteger)) return null;
    return { step: v.step!, status: v.status, marker: typeof v.marker === 'string' ? v.marker : null };
  } catch {
    return null;
  }
}

/** A finding's stored GraphQL part (JSON text); null when unreadable. */
export function parseGraphql(json: string): FindingGraphql | null {
  try {
    return JSON.parse(json) as FindingGraphql;
  } catch {
    return null;
  }
}

/** Findings with their API's triage mark and the user name of whoever set it. */
export function withTriage(db: Db) {
  return db
    .selectFrom('findings')
    .leftJoin('finding_triage as t', (j) => j.onRef('t.api_id', '=', 'findings.api_id').onRef('t.fingerprint', '=', 'findings.fingerprint'))
    .leftJoin('users as tu', 'tu.id', 't.set_by')
    .selectAll('findings')
    .select([
      't.state as triage_state',
      't.reason as triage_reason',
      't.expires_at as triage_expires_at',
      't.set_at as triage_set_at',
      'tu.username as triage_set_by',
    ]);
}

const SEVERITY_ORDER = `case severity when 'high' then 0 when 'medium' then 1 when 'low' then 2 else 3 end`;

export function createFindingsRepo(db: Db) {
  return {
    /**
     * Inserts the finding unless the scan already has one with its fingerprint. True when inserted. A
     * triage mark on its API and fingerprint sets it aside from the start.
     */
    async insert(f: NewFinding, now: Date): Promise<boolean> {
      const res = await db
        .insertInto('findings')
        .values({
          id: newRowId(),
          scan_id: f.scan_id,
          api_id: f.api_id,
          check_id: f.check_id,
          fingerprint: f.fingerprint,
          vulnerability_name: f.vulnerability_name,
          severity: f.severity,
          confidence: f.confidence,
          owasp: f.owasp,
          cwe: f.cwe,
          description: f.description,
          recommendation: f.recommendation,
          cvss_vector: f.cvss_vector,
          cvss_score: f.cvss_score,
          method: f.method,
          path: f.path,
          parameter: f.parameter,
          evidence: f.evidence,
          curl: f.curl,
          references: JSON.stringify(f.references),
          trend: f.trend,
          graphql: f.graphql ? JSON.stringify(f.graphql) : null,
          proof: f.proof ? JSON.stringify({ step: f.proof.step, status: f.proof.status, marker: f.proof.marker }) : null,
          created_at: now.toISOString(),
          suppressed: activeMarkSql(f.api_id, f.fingerprint, now.toISOString()),
        })
        .onConflict((oc) => oc.columns(['scan_id', 'fingerprint']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The scan's findings, most severe first. */
    async listForScan(scanId: string): Promise<Finding[]> {
      const rows = await withTriage(db)
        .where('findings.scan_id', '=', scanId)
        .orderBy(sql.raw(SEVERITY_ORDER))
        .orderBy('cvss_score', 'desc')
        .orderBy('path')
        .orderBy('method')
        .execute();
      return rows.map(toFinding);
    },

    /** The scan's findings as the list reads them (no long texts), in the order of listForScan. */
    async listBriefsForScan(scanId: string): Promise<FindingBrief[]> {
      const rows = await db
        .selectFrom('findings')
        .leftJoin('finding_triage as t', (j) => j.onRef('t.api_id', '=', 'findings.api_id').onRef('t.fingerprint', '=', 'findings.fingerprint'))
        .leftJoin('users as tu', 'tu.id', 't.set_by')
        .select([
          'findings.id',
          'findings.check_id',
          'findings.vulnerability_name',
          'findings.severity',
          'findings.confidence',
          'findings.owasp',
          'findings.cwe',
          'findings.cvss_score',
          'findings.method',
          'findings.path',
          'findings.parameter',
          'findings.fingerprint',
          'findings.trend',
          'findings.graphql',
          't.state as triage_state',
          't.reason as triage_reason',
          't.expires_at as triage_expires_at',
          't.set_at as triage_set_at',
          'tu.username as triage_set_by',
        ])
        .where('findings.scan_id', '=', scanId)
        .orderBy(sql.raw(SEVERITY_ORDER))
        .orderBy('cvss_score', 'desc')
        .orderBy('path')
        .orderBy('method')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        check_id: r.check_id,
        vulnerability_name: r.vulnerability_name,
        severity: r.severity as Severity,
        confidence: r.confidence as Confidence,
        owasp: r.owasp,
        cwe: r.cwe,
        cvss_score: r.cvss_score,
        method: r.method,
        path: r.path,
        parameter: r.parameter,
        fingerprint: r.fingerprint,
        trend: r.trend === 'recurring' ? 'recurring' : 'new',
        triage: triageOf(r),
        graphql: r.graphql ? { operation: parseGraphql(r.graphql)?.operation ?? null } : null,
      }));
    },

    /** One finding of the scan, whole; null when the scan has no finding with this id. */
    async findInScan(scanId: string, findingId: string): Promise<Finding | null> {
      const row = await withTriage(db).where('findings.scan_id', '=', scanId).where('findings.id', '=', findingId).executeTakeFirst();
      return row ? toFinding(row) : null;
    },

    /** One finding with its scan and API (a re-test looks its finding up by id). */
    async findById(id: string): Promise<(Finding & { scan_id: string; api_id: string }) | undefined> {
      const row = await withTriage(db).where('findings.id', '=', id).executeTakeFirst();
      return row ? { ...toFinding(row), scan_id: row.scan_id, api_id: row.api_id } : undefined;
    },

    async fingerprints(scanId: string): Promise<Set<string>> {
      const rows = await db.selectFrom('findings').select('fingerprint').where('scan_id', '=', scanId).execute();
      return new Set(rows.map((r) => r.fingerprint));
    },

    /** Findings a baseline already knew (the CLI's --baseline): recurring, as a rescan in the app would have them. */
    async markRecurring(scanId: string, fingerprints: readonly string[]): Promise<void> {
      // In slices: SQLite caps the number of bound values of one statement.
      for (let i = 0; i < fingerprints.length; i += 500) {
        const slice = fingerprints.slice(i, i + 500);
        await db.updateTable('findings').set({ trend: 'recurring' }).where('scan_id', '=', scanId).where('fingerprint', 'in', slice).execute();
      }
    },

    /** What the score counts: the scan's findings nobody set aside. */
    async severities(scanId: string): Promise<{ severity: string; cvss_score: number }[]> {
      return db.selectFrom('findings').select(['severity', 'cvss_score']).where('scan_id', '=', scanId).where('suppressed', '=', 0).execute();
    },

    /** Findings of the previous scan whose fingerprint this scan no longer has. */
    async fixedSince(previousScanId: string, scanId: string): Promise<ScanInfo['fixed']> {
      const rows = await db
        .selectFrom('findings as p')
        .select(['p.fingerprint', 'p.vulnerability_name', 'p.method', 'p.path', 'p.severity', 'p.cvss_score'])
        .where('p.scan_id', '=', previousScanId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('findings as c').select('c.id').where('c.scan_id', '=', scanId).whereRef('c.fingerprint', '=', 'p.fingerprint'))),
        )
        .orderBy('p.path')
        .execute();
      return rows.map((r) => ({ ...r, severity: r.severity as Severity, cvss_score: Number(r.cvss_score) }));
    },
  };
}

export type FindingsRepo = ReturnType<typeof createFindingsRepo>;
