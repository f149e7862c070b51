// The SARIF 2.1.0 export for code-scanning tools: one rule per check id (name, descriptions, help,
// `security-severity` as the CVSS score and tags, which GitHub uses to rank alerts), one result per
// finding, located at "METHOD path" (a logical location, and the path under the API's base URL as
// the artifact), with the finding's fingerprint as a partial fingerprint so alerts track across scans.

import { PRODUCT_NAME, type Severity } from '../../../shared/constants';
import { coverageHeadline } from '../../../shared/coverage';
import { findingLocation, safeUrl } from '../format';
import { findingNumbers, triagedNumbers, type ReportFinding, type ReportInput } from '../model';
import { checkCategory, owaspCategory } from '../owasp';
import { TOOL_VERSION } from '../version';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

type Level = 'error' | 'warning' | 'note' | 'none';

export const SARIF_LEVELS: Record<Severity, Level> = { high: 'error', medium: 'warning', low: 'note', info: 'note' };
const PROBLEM_SEVERITY: Record<Severity, string> = { high: 'error', medium: 'warning', low: 'recommendation', info: 'recommendation' };
const PRECISION: Record<string, string> = { high: 'high', medium: 'medium', low: 'low' };

/** "bola-token-swap" -> "BolaTokenSwap". */
export function ruleName(checkId: string): string {
  const words = checkId.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') || 'Check';
}

/** The path as a relative URI reference: each segment percent-encoded, "{id}" -> "%7Bid%7D". */
export function pathUri(path: string): string {
  const clean = path.split(/[?#]/)[0]!.replace(/^\/+/, '');
  return clean.split('/').map((s) => encodeURIComponent(s)).join('/') || '.';
}

/** The base URL with a trailing slash, as SARIF's uriBaseId needs; null when it is not absolute. */
function baseUri(baseUrl: string): string | null {
  const url = safeUrl(baseUrl);
  if (!url) return null;
  return url.endsWith('/') ? url : `${url}/`;
}

function cweTags(cwe: string | null): string[] {
  const m = /CWE-?(\d+)/i.exec(cwe ?? '');
  return m ? [`CWE-${m[1]}`, `external/cwe/cwe-${m[1]}`] : [];
}

function helpMarkdown(f: ReportFinding): string {
  const refs = f.references.map((r) => (safeUrl(r) ? `- <${safeUrl(r)}>` : `- ${r.replace(/[<>[\]()`*_]/g, '')}`));
  return [`**Recommendation:** ${f.recommendation}`, '', f.description, ...(refs.length ? ['', '**References**', ...refs] : [])].join('\n');
}

/**
 * A finding set aside in triage, as SARIF says it: suppressed outside the log (`external`), with the
 * reason as justification; an accepted risk that ends says so in the suppression's properties.
 */
function suppressionsOf(f: ReportFinding) {
  const t = f.triage;
  if (!t || t.state === 'open') return [];
  const why = t.reason || (t.state === 'false_positive' ? 'Marked a false positive' : 'Accepted risk');
  return [
    {
      kind: 'external' as const,
      status: 'accepted' as const,
      justification: why,
      properties: { state: t.state, set_by: t.set_by, set_at: t.set_at, ...(t.expires_at ? { expires_at: t.expires_at } : {}) },
    },
  ];
}

export function sarifDocument(input: ReportInput) {
  const numbers = new Map([...findingNumbers(input.findings), ...triagedNumbers(input.triaged)]);
  // Every result, the ones set aside in triage last (suppressed, so code scanning hides them).
  const all = [...input.findings, ...input.triaged];
  // One rule per check id, described by its worst finding (findings are in report order).
  const rules: { id: string; worst: ReportFinding; maxCvss: number }[] = [];
  const ruleIndex = new Map<string, number>();
  for (const f of all) {
    const i = ruleIndex.get(f.check_id);
    if (i === undefined) {
      ruleIndex.set(f.check_id, rules.length);
      rules.push({ id: f.check_id, worst: f, maxCvss: f.cvss_score });
    } else rules[i]!.maxCvss = Math.max(rules[i]!.maxCvss, f.cvss_score);
  }
  const base = baseUri(input.api.base_url);
  const hasBaseline = input.compared;

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0' as const,
    runs: [
      {
        tool: {
          driver: {
            name: PRODUCT_NAME,
            fullName: `${PRODUCT_NAME} API security scanner`,
            version: TOOL_VERSION,
            semanticVersion: TOOL_VERSION,
            rules: rules.map((r) => {
              const f = r.worst;
              const cat = owaspCategory(f.owasp) ?? owaspCategory(checkCategory(r.id, f.owasp));
              const helpUri = f.references.map(safeUrl).find((u): u is string => u !== null);
              const tags = [...new Set(['security', 'api', 'owasp-api-top10-2023', ...(cat ? [cat.id] : []), ...cweTags(f.cwe)])];
              return {
                id: r.id,
                name: ruleName(r.id),
                shortDescription: { text: f.vulnerability_name },
                fullDescription: { text: f.description || f.vulnerability_name },
                help: { text: `${f.recommendation}${f.references.length ? `\n\nReferences:\n${f.references.join('\n')}` : ''}`, markdown: helpMarkdown(f) },
                ...(helpUri ? { helpUri } : {}),
                defaultConfiguration: { level: SARIF_LEVELS[f.severity] },
                properties: {
                  tags,
                  'security-severity': r.maxCvss.toFixed(1),
                  precision: PRECISION[f.confidence] ?? 'low',
                  'problem.severity': PROBLEM_SEVERITY[f.severity],
                  ...(cat ? { owasp: `${cat.id} ${cat.title}` } : {}),
                },
              };
            }),
          },
        },
        invocations: [
          {
            executionSuccessful: input.scan.status === 'completed',
            ...(input.scan.started_at ? { startTimeUtc: input.scan.started_at } : {}),
            ...(input.scan.completed_at ? { endTimeUtc: input.scan.completed_at } : {}),
            toolExecutionNotifications: [
              // What the scan reached: the header line, so a reader of the log knows how much a clean result covers.
              ...(input.operations_coverage
                ? [{ level: 'note' as Level, message: { text: `Coverage: ${coverageHeadline(input.operations_coverage.summary)}.` }, descriptor: { id: 'coverage' } }]
                : []),
              // Problems are "error": SARIF's word for a condition that may leave the results incomplete (§3.58.6,
              // appendix I); information is "note", a condition that is no problem.
              ...input.scan.problems.map((e) => ({ level: 'error' as Level, message: { text: e } })),
              ...input.scan.info_notes.map((e) => ({ level: 'note' as Level, message: { text: e } })),
              ...input.scan.skipped_checks.map((c) => ({
                level: 'note' as Level,
                message: { text: `Check skipped: ${c.title} (${c.check_id}). ${c.reason}` },
                descriptor: { id: c.check_id },
              })),
            ],
          },
        ],
        automationDetails: {
          id: `portcullis/${input.api.id}/${input.scan.id}`,
          description: { text: `${PRODUCT_NAME} scan ${input.scan.id} of ${input.api.name} (${input.api.base_url})` },
        },
        ...(base ? { originalUriBaseIds: { APIROOT: { uri: base, description: { text: `Base URL of ${input.api.name}` } } } } : {}),
        columnKind: 'utf16CodeUnits' as const,
        results: all.map((f) => {
          const where = findingLocation(f);
          return {
            ruleId: f.check_id,
            ruleIndex: ruleIndex.get(f.check_id)!,
            kind: 'fail' as const,
            level: SARIF_LEVELS[f.severity],
            message: { text: `${f.vulnerability_name} at ${where}${f.parameter ? ` (parameter ${f.parameter})` : ''}. ${f.description}`.trim() },
            locations: [
              {
                physicalLocation: { artifactLocation: { uri: pathUri(f.path), ...(base ? { uriBaseId: 'APIROOT' } : {}) } },
                logicalLocations: [{ name: where, fullyQualifiedName: `${f.method.toUpperCase()} ${input.api.base_url.replace(/\/+$/, '')}${f.path}`, kind: 'function' }],
                message: { text: where },
              },
            ],
            partialFingerprints: { 'portcullis/v1': f.fingerprint },
            ...(hasBaseline ? { baselineState: f.trend === 'recurring' ? ('unchanged' as const) : ('new' as const) } : {}),
            ...(suppressionsOf(f).length ? { suppressions: suppressionsOf(f) } : {}),
            properties: {
              'security-severity': f.cvss_score.toFixed(1),
              finding: numbers.get(f.id)!,
              finding_id: f.id,
              severity: f.severity,
              confidence: f.confidence,
              cvss_score: f.cvss_score,
              cvss_vector: f.cvss_vector,
              owasp: f.owasp,
              ...(f.cwe ? { cwe: f.cwe } : {}),
              ...(f.parameter ? { parameter: f.parameter } : {}),
              method: f.method,
              path: f.path,
              ...(f.graphql
                ? { graphql_operation: f.graphql.operation, graphql_query: f.graphql.query, graphql_variables: f.graphql.variables, graphql_batch: f.graphql.batch }
                : {}),
            },
          };
        }),
        properties: {
          api: { id: input.api.id, name: input.api.name, base_url: input.api.base_url },
          // Who the scan spoke as: context for every result, not a result itself.
          scan: {
            id: input.scan.id,
            score: input.scan.score,
            requests_sent: input.scan.requests_sent,
            identities: input.scan.identities,
            created_users: input.scan.created_users,
            refreshes: input.scan.refreshes,
          },
        },
      },
    ],
  };
}

export function toSarif(input: ReportInput): string {
  return `${JSON.stringify(sarifDocument(input), null, 2)}\n`;
}
