// Findings repository: findings are written as a scan finds them (so details shows them while it
// runs), de-duplicated by fingerprint within a scan, and followed across scans of the same API.

import { sql } from 'kysely';
import type { Confidence, Severity } from '../../shared/constants';
import type { Finding, ScanInfo } from '../../shared/contract';
import type { Db } from './database';
import type { FindingsTable } from './schema';
import { newRowId } from './row-ids';

export type NewFinding = Omit<Finding, 'id'> & { scan_id: string; api_id: string };

function parseList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function toFinding(r: FindingsTable): Finding {
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
  };
}

const SEVERITY_ORDER = `case severity when 'high' then 0 when 'medium' then 1 when 'low' then 2 else 3 end`;

export function createFindingsRepo(db: Db) {
  return {
    /** Inserts the finding unless the scan already has one with its fingerprint. True when inserted. */
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
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['scan_id', 'fingerprint']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The scan's findings, most severe first. */
    async listForScan(scanId: string): Promise<Finding[]> {
      const rows = await db
        .selectFrom('findings')
        .selectAll()
        .where('scan_id', '=', scanId)
        .orderBy(sql.raw(SEVERITY_ORDER))
        .orderBy('cvss_score', 'desc')
        .orderBy('path')
        .orderBy('method')
        .execute();
      return rows.map(toFinding);
    },

    async fingerprints(scanId: string): Promise<Set<string>> {
      const rows = await db.selectFrom('findings').select('fingerprint').where('scan_id', '=', scanId).execute();
      return new Set(rows.map((r) => r.fingerprint));
    },

    async severities(scanId: string): Promise<{ severity: string; cvss_score: number }[]> {
      return db.selectFrom('findings').select(['severity', 'cvss_score']).where('scan_id', '=', scanId).execute();
    },

    /** Findings of the previous scan whose fingerprint this scan no longer has. */
    async fixedSince(previousScanId: string, scanId: string): Promise<ScanInfo['fixed']> {
      const rows = await db
        .selectFrom('findings as p')
        .select(['p.fingerprint', 'p.vulnerability_name', 'p.method', 'p.path', 'p.severity'])
        .where('p.scan_id', '=', previousScanId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('findings as c').select('c.id').where('c.scan_id', '=', scanId).whereRef('c.fingerprint', '=', 'p.fingerprint'))),
        )
        .orderBy('p.path')
        .execute();
      return rows.map((r) => ({ ...r, severity: r.severity as Severity }));
    },
  };
}

export type FindingsRepo = ReturnType<typeof createFindingsRepo>;
