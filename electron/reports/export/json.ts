// The JSON export: a stable, versioned document of one scan (docs/report-formats.md). Fields are
// only ever added within a major version; a breaking change bumps `version`.

import { PRODUCT_NAME } from '../../../shared/constants';
import { durationSeconds, findingNumbers, summarize, triagedNumbers, type ReportFinding, type ReportInput } from '../model';
import { checkCategory } from '../owasp';
import { TOOL_VERSION } from '../version';

export const JSON_FORMAT = 'portcullis-report';
export const JSON_VERSION = 1;

export function jsonDocument(input: ReportInput) {
  const s = summarize(input);
  const numbers = findingNumbers(input.findings);
  const triaged = triagedNumbers(input.triaged);
  return {
    format: JSON_FORMAT,
    version: JSON_VERSION,
    generator: { name: PRODUCT_NAME, version: TOOL_VERSION },
    api: { id: input.api.id, name: input.api.name, base_url: input.api.base_url, source_format: input.api.source_format, owner: input.api.owner_name },
    scan: {
      id: input.scan.id,
      status: input.scan.status,
      profile: input.scan.profile,
      created_at: input.scan.created_at,
      started_at: input.scan.started_at,
      completed_at: input.scan.completed_at,
      duration_seconds: durationSeconds(input.scan),
      progress: input.scan.progress,
      requests_sent: input.scan.requests_sent,
      score: input.scan.score,
      score_source: input.scan.score_source,
      failure_reason: input.scan.failure_reason,
      errors: input.scan.errors,
      /** The notes among `errors` that are problems (part of the scan did not run as asked); the rest are information. */
      problems: input.scan.problems,
      skipped_checks: input.scan.skipped_checks.map((c) => ({ check_id: c.check_id, title: c.title, reason: c.reason, owasp: checkCategory(c.check_id, c.owasp) })),
      identities: input.scan.identities,
      created_users: input.scan.created_users,
      refreshes: input.scan.refreshes,
    },
    summary: {
      total: s.total,
      /** The one count (shared/severity.ts): findings neither informational nor set aside, as every screen shows it. */
      vulnerabilities: s.vulnerabilities,
      /** Per level: critical (CVSS 9.0 or more) apart from high. */
      by_severity: s.by_severity,
      critical: s.critical,
      new: s.new,
      recurring: s.recurring,
      fixed: s.fixed,
      triaged: input.triaged.length,
      endpoints: { total: s.endpoints_total, tested: s.endpoints_tested, skipped: s.endpoints_skipped },
      score_change: s.score_change,
    },
    coverage: input.coverage.map((c) => ({
      category: c.id,
      title: c.title,
      flag: c.flag,
      status: c.status,
      endpoints_tested: c.endpoints_tested,
      findings: c.findings,
      tested: c.tested,
      skipped: c.skipped,
      note: c.note,
    })),
    /** What the scan reached and exercised, per operation, identity and check (issue 26); null for scans from before it. */
    operations_coverage: input.operations_coverage,
    findings: input.findings.map((f) => findingEntry(f, numbers)),
    /** Set aside in triage (false positives, accepted risks): not in the summary, the score or --fail-on. */
    triaged: input.triaged.map((f) => findingEntry(f, triaged)),
    fixed: input.fixed,
    history: input.history,
    endpoints: { source: input.endpoints_source, items: input.endpoints },
    checks: input.checks,
  };
}

function findingEntry(f: ReportFinding, numbers: Map<string, string>) {
  return {
    number: numbers.get(f.id)!,
    id: f.id,
    check_id: f.check_id,
    fingerprint: f.fingerprint,
    vulnerability_name: f.vulnerability_name,
    severity: f.severity,
    confidence: f.confidence,
    owasp: f.owasp,
    cwe: f.cwe,
    cvss: { score: f.cvss_score, vector: f.cvss_vector },
    method: f.method,
    path: f.path,
    parameter: f.parameter,
    description: f.description,
    recommendation: f.recommendation,
    evidence: f.evidence,
    curl: f.curl,
    references: f.references,
    trend: f.trend,
    triage: f.triage,
    /** A GraphQL finding's operation, query, variables and batch size; null for REST findings. */
    graphql: f.graphql ?? null,
  };
}

export type JsonReport = ReturnType<typeof jsonDocument>;

export function toJson(input: ReportInput): string {
  return `${JSON.stringify(jsonDocument(input), null, 2)}\n`;
}
