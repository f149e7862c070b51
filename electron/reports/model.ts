// The report model: everything a report says about one scan, read once from the store by
// loadReportInput(). Every renderer (PDFs, JSON, SARIF, HTML, JUnit) is a pure function of it,
// so the same scan always gives the same report.

import { CRITICAL_CVSS, SEVERITIES, type Flag, type Severity } from '../../shared/constants';
import type { CreatedUserReport, Finding } from '../../shared/contract';
import { severityBucket } from '../../shared/display';
import type { ScanCoverage } from '../../shared/coverage';
import type { IdentityReport } from '../../shared/identities';
import { securityScore } from '../scanner/findings';

export type ReportFinding = Finding;
/** One row of the identity table: name, role, how obtained, who the API said it is, refreshes, failed logins. */
export type ReportIdentity = IdentityReport;
/** A user the scan registered for itself (never its password). */
export type ReportCreatedUser = CreatedUserReport;

export interface ReportApi {
  id: string;
  name: string;
  base_url: string;
  source_format: string;
  owner_name: string;
}

export interface ReportSkippedCheck {
  check_id: string;
  title: string;
  reason: string;
  /** OWASP category id ("API1:2023") when known; else inferred from the check id. */
  owasp: string | null;
}

export interface ReportScan {
  id: string;
  status: string;
  profile: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  failure_reason: string | null;
  progress: { done: number; total: number };
  requests_sent: number;
  /** The score the engine stored; null when it did not (see `score`). */
  stored_score: number | null;
  /** 0-100: the stored score, else computed from the findings with the DESIGN.md section 6 formula. */
  score: number;
  score_source: 'stored' | 'computed';
  errors: string[];
  skipped_checks: ReportSkippedCheck[];
  /** Who the scan spoke as; empty for scans from before identities. */
  identities: ReportIdentity[];
  created_users: ReportCreatedUser[];
  /** Credentials renewed during the scan, all identities together. */
  refreshes: number;
}

/** An endpoint of the API as the scan saw it; endpoints flagged SKIP got no requests. */
export interface ReportEndpoint {
  method: string;
  path: string;
  summary: string;
  flags: Flag[];
}

/** A check the report knows about: from the run notes, from a finding, or from a skipped check. */
export interface ReportCheck {
  check_id: string;
  title: string;
  /** OWASP category id ("API1:2023"), or "Other". */
  category: string;
  status: 'run' | 'skipped';
  reason: string | null;
  /** "METHOD path" of each endpoint it ran against, when the engine recorded it; null: unknown. */
  endpoints: string[] | null;
}

export interface FixedFinding {
  fingerprint: string;
  vulnerability_name: string;
  method: string;
  path: string;
  severity: Severity | null;
}

/** An earlier completed scan of the same API (for the trend). */
export interface HistoryPoint {
  scan_id: string;
  completed_at: string;
  score: number | null;
  findings: number;
  by_severity: Record<Severity, number>;
}

export type CoverageStatus = 'tested' | 'partial' | 'skipped' | 'not_tested';

export interface CategoryCoverage {
  /** "API1:2023". */
  id: string;
  title: string;
  flag: Exclude<Flag, 'SKIP'>;
  status: CoverageStatus;
  endpoints_tested: number;
  findings: number;
  /** What was tested, in a sentence. */
  tested: string;
  /** What was tested, in a few words (with the endpoint count). */
  tested_short: string;
  /** Checks of this category that did not run, with why. */
  skipped: { check_id: string; title: string; reason: string }[];
  /** Why the status is what it is (coverage honesty). */
  note: string;
}

export interface ReportInput {
  api: ReportApi;
  scan: ReportScan;
  /** In report order: severity, then CVSS (highest first), then category, name, method, path. */
  findings: ReportFinding[];
  /** Findings set aside in triage (false positives, accepted risks): listed apart, never scored or counted. */
  triaged: ReportFinding[];
  endpoints: ReportEndpoint[];
  /** Where the endpoint list came from: the scan's own record, or the API's current endpoints. */
  endpoints_source: 'scan' | 'api';
  checks: ReportCheck[];
  coverage: CategoryCoverage[];
  /** What the scan reached and exercised, per operation, identity and check (issue 26); null for scans from before it. */
  operations_coverage: ScanCoverage | null;
  /** Earlier completed scans of the same API, oldest first (at most HISTORY_LIMIT). */
  history: HistoryPoint[];
  /** Whether the findings were compared with earlier ones (an earlier scan, or the CLI's --baseline): their trend means something. */
  compared: boolean;
  /** Findings of the previous completed scan this scan no longer sees. */
  fixed: FixedFinding[];
}

/** How many earlier scans the trend shows. */
export const HISTORY_LIMIT = 11;

export const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2, info: 3 };

export const SEVERITY_LABELS: Record<Severity, string> = { high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

export function isCritical(f: Pick<ReportFinding, 'cvss_score'>): boolean {
  return f.cvss_score >= CRITICAL_CVSS;
}

/** The scan's security score (the scanner's securityScore, DESIGN.md section 6), each fingerprint counted once. */
export function computeScore(findings: Pick<ReportFinding, 'severity' | 'cvss_score' | 'fingerprint'>[]): number {
  const unique = new Map<string, { severity: Severity; cvss_score: number }>();
  for (const f of findings) if (!unique.has(f.fingerprint)) unique.set(f.fingerprint, { severity: severityBucket(f.severity), cvss_score: f.cvss_score });
  return securityScore([...unique.values()]);
}

export function countBySeverity(findings: Pick<ReportFinding, 'severity'>[]): Record<Severity, number> {
  const out = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) out[severityBucket(f.severity)] += 1;
  return out;
}

/** "API1:2023" from "API1:2023", "api1", "API1:2023 Broken Object Level Authorization"; null otherwise. */
export function categoryId(owasp: string | null | undefined): string | null {
  const m = /\bAPI\s*(\d{1,2})\b/i.exec(owasp ?? '');
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 10 ? `API${n}:2023` : null;
}

/** Category number for ordering ("API3:2023" -> 3); 99 for anything else. */
export function categoryOrder(id: string | null): number {
  const m = /^API(\d+):/.exec(id ?? '');
  return m ? Number(m[1]) : 99;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Report order: severity, CVSS (highest first), category, name, method, path, fingerprint. */
export function compareFindings(a: ReportFinding, b: ReportFinding): number {
  return (
    SEVERITY_RANK[severityBucket(a.severity)] - SEVERITY_RANK[severityBucket(b.severity)] ||
    b.cvss_score - a.cvss_score ||
    categoryOrder(categoryId(a.owasp)) - categoryOrder(categoryId(b.owasp)) ||
    cmp(a.vulnerability_name, b.vulnerability_name) ||
    cmp(a.method, b.method) ||
    cmp(a.path, b.path) ||
    cmp(a.fingerprint, b.fingerprint) ||
    cmp(a.id, b.id)
  );
}

/** Stable display number of each finding ("F-001"), by position in report order. */
function numbered(findings: ReportFinding[], prefix: string): Map<string, string> {
  const width = Math.max(3, String(findings.length).length);
  return new Map(findings.map((f, i) => [f.id, `${prefix}-${String(i + 1).padStart(width, '0')}`]));
}

export function findingNumbers(findings: ReportFinding[]): Map<string, string> {
  return numbered(findings, 'F');
}

/** Findings set aside in triage are numbered apart (T-001...), so the F- numbers match the counts. */
export function triagedNumbers(findings: ReportFinding[]): Map<string, string> {
  return numbered(findings, 'T');
}

export interface ReportSummary {
  total: number;
  by_severity: Record<Severity, number>;
  critical: number;
  new: number;
  recurring: number;
  fixed: number;
  endpoints_total: number;
  endpoints_tested: number;
  endpoints_skipped: number;
  /** Change against the previous completed scan, when there is one with a score. */
  score_change: { previous: number; previous_at: string; delta: number } | null;
}

export function summarize(input: ReportInput): ReportSummary {
  const skipped = input.endpoints.filter((e) => e.flags.includes('SKIP')).length;
  const prev = [...input.history].reverse().find((h) => h.score !== null);
  return {
    total: input.findings.length,
    by_severity: countBySeverity(input.findings),
    critical: input.findings.filter(isCritical).length,
    new: input.findings.filter((f) => f.trend !== 'recurring').length,
    recurring: input.findings.filter((f) => f.trend === 'recurring').length,
    fixed: input.fixed.length,
    endpoints_total: input.endpoints.length,
    endpoints_tested: input.endpoints.length - skipped,
    endpoints_skipped: skipped,
    score_change: prev && prev.score !== null ? { previous: prev.score, previous_at: prev.completed_at, delta: input.scan.score - prev.score } : null,
  };
}

/** Findings grouped by OWASP category, in category order; findings keep report order inside a group. */
export function groupByCategory(findings: ReportFinding[]): { category: string; findings: ReportFinding[] }[] {
  const groups = new Map<string, ReportFinding[]>();
  for (const f of findings) {
    const key = categoryId(f.owasp) ?? 'Other';
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => categoryOrder(a) - categoryOrder(b) || cmp(a, b))
    .map(([category, list]) => ({ category, findings: list }));
}

/** Scan duration in seconds, or null without both times. */
export function durationSeconds(scan: Pick<ReportScan, 'started_at' | 'completed_at'>): number | null {
  if (!scan.started_at || !scan.completed_at) return null;
  const ms = Date.parse(scan.completed_at) - Date.parse(scan.started_at);
  return Number.isNaN(ms) ? null : Math.max(0, ms) / 1000;
}

/** The instant a report is "of": the scan's completion, else its start, else its creation. */
export function reportInstant(scan: Pick<ReportScan, 'completed_at' | 'started_at' | 'created_at'>): Date {
  return new Date(scan.completed_at ?? scan.started_at ?? scan.created_at);
}
