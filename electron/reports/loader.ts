// The one place reports read the store: loadReportInput(db, scanId) gathers the scan, its API,
// findings, endpoints, run notes and the earlier scans of the same API into a ReportInput.

import { CONFIDENCES, CRITICAL_CVSS, type Confidence } from '../../shared/constants';
import { splitNotes } from '../../shared/scan-notes';
import { severityBucket, severityLevel } from '../../shared/severity';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../store/database';
import { parseGraphql, triageOf, withTriage, type TriageColumns } from '../store/findings';
import { parseCoverage } from '../store/scans';
import type { FindingsTable } from '../store/schema';
import {
  HISTORY_LIMIT,
  categoryOrder,
  compareFindings,
  computeScore,
  countBySeverity,
  type FixedFinding,
  type HistoryPoint,
  type ReportCheck,
  type ReportEndpoint,
  type ReportFinding,
  type ReportInput,
} from './model';
import { parseScanNotes, type ScanNotes } from './notes';
import { checkCategory, computeCoverage } from './owasp';

/** The notes in the scan page's two kinds: the scanner's own record, else (older scans) their wording. */
function noteKinds(notes: ScanNotes): { problems: string[]; info_notes: string[] } {
  const { problems, info } = splitNotes(notes.errors, notes.problems);
  return { problems, info_notes: info };
}

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

const CONFIDENCE_SET = new Set<string>(CONFIDENCES);

export function toReportFinding(r: Selectable<FindingsTable> & TriageColumns): ReportFinding {
  const confidence = r.confidence.toLowerCase();
  return {
    id: r.id,
    check_id: r.check_id,
    vulnerability_name: r.vulnerability_name,
    severity: severityBucket(r.severity),
    confidence: (CONFIDENCE_SET.has(confidence) ? confidence : 'low') as Confidence,
    owasp: r.owasp,
    cwe: r.cwe,
    description: r.description,
    recommendation: r.recommendation,
    cvss_score: Number.isFinite(r.cvss_score) ? Math.min(10, Math.max(0, r.cvss_score)) : 0,
    cvss_vector: r.cvss_vector,
    method: r.method.toUpperCase(),
    path: r.path,
    parameter: r.parameter,
    evidence: r.evidence,
    curl: r.curl,
    references: parseList(r.references),
    fingerprint: r.fingerprint,
    trend: r.trend === 'recurring' ? 'recurring' : 'new',
    triage: triageOf(r),
    graphql: r.graphql ? parseGraphql(r.graphql) : null,
  };
}

async function endpointsOf(db: Db, apiId: string): Promise<ReportEndpoint[]> {
  const rows = await db.selectFrom('endpoints').select(['id', 'method', 'path', 'summary']).where('api_id', '=', apiId).orderBy('position').execute();
  const flags = await db
    .selectFrom('endpoint_flags')
    .innerJoin('endpoints', 'endpoints.id', 'endpoint_flags.endpoint_id')
    .select(['endpoint_flags.endpoint_id', 'endpoint_flags.flag'])
    .where('endpoints.api_id', '=', apiId)
    .orderBy('endpoint_flags.flag')
    .execute();
  const byId = new Map<string, string[]>();
  for (const f of flags) byId.set(f.endpoint_id, [...(byId.get(f.endpoint_id) ?? []), f.flag]);
  return rows.map((r) => ({ method: r.method.toUpperCase(), path: r.path, summary: r.summary, flags: (byId.get(r.id) ?? []) as ReportEndpoint['flags'] }));
}

function checksOf(notes: ScanNotes, findings: ReportFinding[]): ReportCheck[] {
  const checks = new Map<string, ReportCheck>();
  const firstFinding = new Map<string, ReportFinding>();
  for (const f of findings) if (!firstFinding.has(f.check_id)) firstFinding.set(f.check_id, f);
  for (const c of notes.checks_run ?? []) {
    const f = firstFinding.get(c.check_id);
    checks.set(c.check_id, {
      check_id: c.check_id,
      title: c.title ?? f?.vulnerability_name ?? c.check_id,
      category: checkCategory(c.check_id, c.owasp ?? f?.owasp),
      status: 'run',
      reason: null,
      endpoints: c.endpoints,
    });
  }
  for (const [id, f] of firstFinding) {
    if (!checks.has(id)) {
      checks.set(id, { check_id: id, title: f.vulnerability_name, category: checkCategory(id, f.owasp), status: 'run', reason: null, endpoints: null });
    }
  }
  for (const s of notes.skipped_checks) {
    if (!checks.has(s.check_id)) {
      checks.set(s.check_id, { check_id: s.check_id, title: s.title, category: checkCategory(s.check_id, s.owasp), status: 'skipped', reason: s.reason, endpoints: null });
    }
  }
  return [...checks.values()].sort((a, b) => categoryOrder(a.category) - categoryOrder(b.category) || (a.check_id < b.check_id ? -1 : a.check_id > b.check_id ? 1 : 0));
}

/** Just enough of a scan to authorise a download: which API it belongs to and its status. */
export async function findScanRef(db: Db, scanId: string): Promise<{ id: string; api_id: string; status: string } | undefined> {
  return db.selectFrom('scans').select(['id', 'api_id', 'status']).where('id', '=', scanId).executeTakeFirst();
}

/** Everything a report of this scan needs; undefined when there is no such scan. */
export async function loadReportInput(db: Db, scanId: string): Promise<ReportInput | undefined> {
  const scan = await db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirst();
  if (!scan) return undefined;
  const api = await db
    .selectFrom('apis')
    .innerJoin('users', 'users.id', 'apis.owner_id')
    .select(['apis.id', 'apis.name', 'apis.base_url', 'apis.source_format', 'users.first_name', 'users.last_name', 'users.username'])
    .where('apis.id', '=', scan.api_id)
    .executeTakeFirst();
  if (!api) return undefined;

  // Findings set aside in triage are listed apart: they leave the score, the counts and the risks.
  const rows = await withTriage(db).where('findings.scan_id', '=', scanId).execute();
  const findings = rows.filter((r) => !r.suppressed).map(toReportFinding).sort(compareFindings);
  const triaged = rows.filter((r) => r.suppressed).map(toReportFinding).sort(compareFindings);
  const notes = parseScanNotes(scan.notes);
  const endpoints = notes.endpoints ?? (await endpointsOf(db, api.id));

  // Earlier completed scans of the same API, newest first, then turned oldest first for the trend.
  const before = scan.completed_at ?? scan.started_at ?? scan.created_at;
  const earlier = await db
    .selectFrom('scans')
    .select(['id', 'completed_at', 'score'])
    .where('api_id', '=', api.id)
    .where('status', '=', 'completed')
    .where('id', '!=', scan.id)
    .where('completed_at', 'is not', null)
    .where('completed_at', '<', before)
    .orderBy('completed_at', 'desc')
    .orderBy('id')
    .limit(HISTORY_LIMIT)
    .execute();
  // Per scan, severity and critical or not: each group's level (shared/severity.ts) without reading every finding.
  const critical = sql<number>`CASE WHEN cvss_score >= ${sql.lit(CRITICAL_CVSS)} THEN 1 ELSE 0 END`;
  const counts = earlier.length
    ? await db
        .selectFrom('findings')
        .select(['scan_id', 'severity'])
        .select(critical.as('critical'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'scan_id',
          'in',
          earlier.map((e) => e.id),
        )
        .where('suppressed', '=', 0)
        .groupBy(['scan_id', 'severity', critical])
        .execute()
    : [];
  const history: HistoryPoint[] = earlier.reverse().map((e) => {
    const rows = counts.filter((c) => c.scan_id === e.id);
    const by = countBySeverity([]);
    for (const r of rows) by[severityLevel({ severity: r.severity, cvss_score: Number(r.critical) ? CRITICAL_CVSS : 0 })] += Number(r.n);
    const findings = rows.reduce((sum, r) => sum + Number(r.n), 0);
    return { scan_id: e.id, completed_at: e.completed_at!, score: e.score, findings, vulnerabilities: findings - by.info, by_severity: by };
  });

  let fixed: FixedFinding[];
  if (notes.fixed) fixed = notes.fixed;
  else {
    const previous = history[history.length - 1];
    // A finding set aside is still there: not fixed.
    const current = new Set(rows.map((f) => f.fingerprint));
    const prevRows = previous ? await db.selectFrom('findings').selectAll().where('scan_id', '=', previous.scan_id).execute() : [];
    fixed = prevRows
      .filter((r) => !current.has(r.fingerprint))
      .map((r) => ({ fingerprint: r.fingerprint, vulnerability_name: r.vulnerability_name, method: r.method.toUpperCase(), path: r.path, severity: severityBucket(r.severity), cvss_score: r.cvss_score }));
  }
  fixed.sort((a, b) => (a.vulnerability_name < b.vulnerability_name ? -1 : a.vulnerability_name > b.vulnerability_name ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : a.fingerprint < b.fingerprint ? -1 : 1));

  const checks = checksOf(notes, findings);
  const storedScore = scan.score === null || scan.score === undefined ? null : Math.min(100, Math.max(0, Math.round(scan.score)));
  return {
    api: {
      id: api.id,
      name: api.name,
      base_url: api.base_url,
      source_format: api.source_format,
      owner_name: [api.first_name, api.last_name].filter(Boolean).join(' ') || api.username,
    },
    scan: {
      id: scan.id,
      status: scan.status,
      profile: scan.profile,
      created_at: scan.created_at,
      started_at: scan.started_at,
      completed_at: scan.completed_at,
      failure_reason: scan.failure_reason,
      progress: { done: scan.progress_done, total: scan.progress_total },
      requests_sent: scan.requests_sent,
      stored_score: storedScore,
      score: storedScore ?? computeScore(findings),
      score_source: storedScore === null ? 'computed' : 'stored',
      errors: notes.errors,
      ...noteKinds(notes),
      skipped_checks: notes.skipped_checks.map((s) => ({ ...s, owasp: s.owasp ?? null })),
      identities: notes.identities,
      created_users: notes.created_users,
      refreshes: notes.refreshes,
    },
    findings,
    triaged,
    endpoints,
    endpoints_source: notes.endpoints ? 'scan' : 'api',
    checks,
    coverage: computeCoverage(endpoints, findings, checks),
    operations_coverage: parseCoverage(scan.coverage),
    history,
    compared: history.length > 0,
    fixed,
  };
}
