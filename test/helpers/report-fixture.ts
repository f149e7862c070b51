// Seeds realistic scans and findings straight into a real SQLite store, as the scan engine would
// leave them: an API with a Unicode name and flagged endpoints, earlier completed scans for the
// trend, a failed and a running scan, and a completed scan with varied findings (every severity,
// long evidence with unbroken 2,000-character tokens, Unicode, HTML that must stay inert).

import { createHash, randomUUID } from 'node:crypto';
import type { Flag, Severity } from '../../shared/constants';
import type { Db } from '../../electron/store/database';

export const FIXTURE_API_NAME = 'Ünïcödé Ωμέγα Payments API — 支付';
export const FIXTURE_BASE_URL = 'https://api.example.test/v2';
export const SCRIPT_PAYLOAD = '<script>alert("pwned")</script>';

export interface FixtureOptions {
  ownerId?: string;
  /** Findings of the main scan (default 40). */
  findings?: number;
  /** Earlier completed scans of the same API (default 3). */
  history?: number;
  name?: string;
  /** Completion time of the main scan. */
  completedAt?: string;
}

export interface Fixture {
  ownerId: string;
  apiId: string;
  scanId: string;
  earlierScanIds: string[];
  failedScanId: string;
  runningScanId: string;
  /** The main scan's findings as inserted. */
  findings: SeededFinding[];
}

export interface SeededFinding {
  id: string;
  check_id: string;
  fingerprint: string;
  vulnerability_name: string;
  severity: Severity;
  confidence: string;
  owasp: string;
  cwe: string | null;
  description: string;
  recommendation: string;
  cvss_vector: string;
  cvss_score: number;
  method: string;
  path: string;
  parameter: string | null;
  evidence: string;
  curl: string;
  references: string[];
  trend: 'new' | 'recurring';
}

const ENDPOINTS: { method: string; path: string; summary: string; flags: Flag[] }[] = [
  { method: 'GET', path: '/users/{id}', summary: 'Read a user', flags: ['BOLA', 'BKEN_AUTH', 'BOPLA', 'SEC_MISC', 'IIM'] },
  { method: 'PUT', path: '/users/{id}', summary: 'Update a user', flags: ['BOLA', 'BOPLA', 'BFLA', 'SEC_MISC', 'IIM'] },
  { method: 'GET', path: '/orders', summary: 'List orders', flags: ['URC', 'SEC_MISC', 'IIM'] },
  { method: 'GET', path: '/orders/{orderId}', summary: 'Read an order', flags: ['BOLA', 'SEC_MISC', 'IIM'] },
  { method: 'POST', path: '/orders/{orderId}/refund', summary: 'Refund an order', flags: ['BOLA', 'UABF', 'SEC_MISC', 'IIM'] },
  { method: 'POST', path: '/auth/login', summary: 'Log in', flags: ['BKEN_AUTH', 'UABF', 'SEC_MISC', 'IIM'] },
  { method: 'POST', path: '/checkout', summary: 'Checkout — 結帳', flags: ['UABF', 'BOPLA', 'SEC_MISC', 'IIM'] },
  { method: 'POST', path: '/webhooks/preview', summary: 'Preview a webhook', flags: ['SSRF', 'UCAPI', 'SEC_MISC', 'IIM'] },
  { method: 'GET', path: '/admin/users', summary: 'Admin: list users', flags: ['BFLA', 'URC', 'SEC_MISC', 'IIM'] },
  { method: 'DELETE', path: '/admin/users/{id}', summary: 'Admin: delete a user', flags: ['BFLA', 'BOLA', 'SEC_MISC', 'IIM'] },
  { method: 'GET', path: '/files/{name}', summary: 'Download a file', flags: ['BOLA', 'SEC_MISC', 'IIM'] },
  { method: 'GET', path: '/internal/metrics', summary: 'Metrics', flags: ['SKIP'] },
];

interface Template {
  check_id: string;
  name: string;
  severity: Severity;
  cvss: number;
  vector: string;
  owasp: string;
  cwe: string | null;
  confidence: 'high' | 'medium' | 'low';
  description: string;
  recommendation: string;
  references: string[];
}

const TEMPLATES: Template[] = [
  {
    check_id: 'bola-token-swap',
    name: 'Broken object level authorization: another user’s object is readable',
    severity: 'high',
    cvss: 9.1,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
    owasp: 'API1:2023',
    cwe: 'CWE-639',
    confidence: 'high',
    description: 'The second user received the first user’s object (98 % of values equal) by replaying the request with their own key.',
    recommendation: 'Check on every request that the authenticated user owns or may access the object named by the id, in the data layer rather than the route.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/', 'https://cwe.mitre.org/data/definitions/639.html'],
  },
  {
    check_id: 'bken-auth-jwt-none',
    name: 'JWT with alg "none" accepted',
    severity: 'high',
    cvss: 9.8,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    owasp: 'API2:2023',
    cwe: 'CWE-347',
    confidence: 'high',
    description: 'A token re-signed with algorithm "none" and no signature was accepted and returned the first user’s data.',
    recommendation: 'Pin the accepted JWT algorithms on the server and reject unsigned tokens.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/'],
  },
  {
    check_id: 'bopla-mass-assignment',
    name: 'Mass assignment: "isAdmin" can be set by the client',
    severity: 'high',
    cvss: 8.1,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
    owasp: 'API3:2023',
    cwe: 'CWE-915',
    confidence: 'high',
    description: 'A PUT with "isAdmin": true was accepted and a follow-up read showed the value stuck.',
    recommendation: 'Bind request bodies to an allow-list of writable properties; never copy client input onto stored objects wholesale.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/'],
  },
  {
    check_id: 'urc-page-size',
    name: 'Page size is not capped',
    severity: 'medium',
    cvss: 5.3,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L',
    owasp: 'API4:2023',
    cwe: 'CWE-770',
    confidence: 'medium',
    description: 'limit=10000 returned 10,000 items where limit=100 returned 100: the response grows without a cap.',
    recommendation: 'Enforce a maximum page size on the server and document it.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/'],
  },
  {
    check_id: 'bfla-admin-lower-key',
    name: 'Administrative operation allowed for a regular user',
    severity: 'high',
    cvss: 8.8,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
    owasp: 'API5:2023',
    cwe: 'CWE-285',
    confidence: 'high',
    description: 'The lower-privileged key listed and deleted users through the admin routes.',
    recommendation: 'Deny by default: check the caller’s role for every administrative operation.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/'],
  },
  {
    check_id: 'uabf-no-throttle',
    name: 'Business flow is not throttled',
    severity: 'low',
    cvss: 3.7,
    vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:L/A:N',
    owasp: 'API6:2023',
    cwe: 'CWE-799',
    confidence: 'low',
    description: '50 valid requests in 5 seconds were all accepted without a 429, a challenge or a delay.',
    recommendation: 'Rate-limit sensitive flows per account and per client, and add a challenge for automated use.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa6-unrestricted-access-to-sensitive-business-flows/'],
  },
  {
    check_id: 'ssrf-callback',
    name: 'Server-side request forgery: the API fetched the scanner’s URL',
    severity: 'high',
    cvss: 8.6,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:N/A:N',
    owasp: 'API7:2023',
    cwe: 'CWE-918',
    confidence: 'high',
    description: 'The listener received a request carrying the unique token placed in the "url" field.',
    recommendation: 'Fetch only allow-listed hosts, resolve and check addresses before connecting, and never follow redirects to internal addresses.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa7-server-side-request-forgery/'],
  },
  {
    check_id: 'sec-misc-headers',
    name: 'Security headers missing',
    severity: 'low',
    cvss: 3.1,
    vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    owasp: 'API8:2023',
    cwe: 'CWE-693',
    confidence: 'high',
    description: `Responses lack X-Content-Type-Options and Cache-Control: no-store. A header value echoed ${SCRIPT_PAYLOAD} back.`,
    recommendation: 'Send X-Content-Type-Options: nosniff and Cache-Control: no-store on authenticated responses.',
    references: ['https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/', 'javascript:alert(1)'],
  },
  {
    check_id: 'sec-misc-sqli-error',
    name: `SQL error disclosed ${SCRIPT_PAYLOAD}`,
    severity: 'medium',
    cvss: 6.5,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    owasp: 'API8:2023',
    cwe: 'CWE-89',
    confidence: 'medium',
    description: 'A single quote in the id produced a PostgreSQL syntax error in the response body.',
    recommendation: 'Use parameterised queries and return generic errors; log the detail on the server.',
    references: ['https://cwe.mitre.org/data/definitions/89.html'],
  },
  {
    check_id: 'iim-docs-exposed',
    name: 'API documentation exposed',
    severity: 'info',
    cvss: 0,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
    owasp: 'API9:2023',
    cwe: 'CWE-200',
    confidence: 'high',
    description: '/openapi.json answers 200 without credentials.',
    recommendation: 'Serve documentation only to authenticated users, or only in non-production environments.',
    references: [],
  },
  {
    check_id: 'ucapi-open-redirect',
    name: 'Open redirect in the "next" parameter',
    severity: 'medium',
    cvss: 6.1,
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    owasp: 'API10:2023',
    cwe: 'CWE-601',
    confidence: 'high',
    description: 'The API redirected the client to the scanner’s listener named in "next".',
    recommendation: 'Redirect only to relative paths or allow-listed hosts.',
    references: ['https://cwe.mitre.org/data/definitions/601.html'],
  },
];

/** A small deterministic PRNG so fixtures are the same on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An unbroken token of `n` characters (no spaces, nothing a line breaker could break at). */
export function longToken(n: number, seed = 1): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const rnd = prng(seed);
  let out = '';
  for (let i = 0; i < n; i += 1) out += alphabet[Math.floor(rnd() * alphabet.length)];
  return out;
}

function evidenceFor(t: Template, method: string, path: string, i: number): string {
  const token = longToken(2000, i + 7);
  const lines = [
    `Method: ${method}`,
    `Path: ${path}`,
    '',
    '--- Baseline (key 1) ---',
    `${method} ${path.replace('{id}', '1001').replace('{orderId}', 'A-77').replace('{name}', 'report.pdf')} HTTP/1.1`,
    'Host: api.example.test',
    'Authorization: Bearer [redacted]',
    '',
    'HTTP/1.1 200 OK',
    'Content-Type: application/json; charset=utf-8',
    '',
    `{"id": 1001, "owner": "alice", "name": "Ålice Ünïcödé Ωμέγα 名前", "session": "${i % 3 === 0 ? token : 'ok'}"}`,
    '',
    '--- Attack (key 2) ---',
    `${method} ${path} HTTP/1.1`,
    'Authorization: Bearer [redacted]',
    '',
    'HTTP/1.1 200 OK',
    `{"id": 1001, "owner": "alice", "note": "${t.severity === 'medium' ? SCRIPT_PAYLOAD : 'same object'}"}`,
  ];
  if (i % 5 === 0) lines.push('', `X-Trace: ${longToken(2000, i + 99)}`);
  return lines.join('\n');
}

export async function seedReportFixture(db: Db, options: FixtureOptions = {}): Promise<Fixture> {
  const rnd = prng(42);
  const count = options.findings ?? 40;
  const historyCount = options.history ?? 3;
  const completedAt = options.completedAt ?? '2026-03-02T09:41:07.000Z';
  let ownerId = options.ownerId;
  if (!ownerId) {
    ownerId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: ownerId,
        email: `${ownerId}@example.com`,
        username: `owner-${ownerId.slice(0, 8)}`,
        first_name: 'Zoë',
        last_name: 'Åström',
        password_hash: null,
        profile_picture: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
  }
  const apiId = randomUUID();
  const created = '2026-01-05T08:00:00.000Z';
  await db
    .insertInto('apis')
    .values({
      id: apiId,
      owner_id: ownerId,
      name: options.name ?? FIXTURE_API_NAME,
      base_url: FIXTURE_BASE_URL,
      status: 'Active',
      source_format: 'openapi-3.1',
      source_filename: 'payments.yaml',
      spec_version: '3.1.0',
      security_schemes: '{}',
      created_at: created,
      updated_at: created,
    })
    .execute();
  for (const [position, e] of ENDPOINTS.entries()) {
    const id = randomUUID();
    await db
      .insertInto('endpoints')
      .values({ id, api_id: apiId, position, method: e.method, path: e.path, summary: e.summary, operation_id: null, tags: '[]', parameters: '[]', request_body: 'null', responses: '{}', security: 'null', created_at: created })
      .execute();
    if (e.flags.length) await db.insertInto('endpoint_flags').values(e.flags.map((flag) => ({ endpoint_id: id, flag }))).execute();
  }

  const scan = async (status: string, startedAt: string | null, doneAt: string | null, score: number | null, notes: unknown, extra: Partial<{ failure_reason: string }> = {}) => {
    const id = randomUUID();
    await db
      .insertInto('scans')
      .values({
        id,
        api_id: apiId,
        user_id: ownerId!,
        profile: 'OWASP_API_10',
        status,
        created_at: startedAt ?? completedAt,
        started_at: startedAt,
        completed_at: doneAt,
        failure_reason: extra.failure_reason ?? null,
        progress_done: status === 'completed' ? 96 : 40,
        progress_total: 96,
        requests_sent: status === 'completed' ? 1834 : 300,
        score,
        config: '{}',
        secret_ref: null,
        notes: JSON.stringify(notes),
      })
      .execute();
    return id;
  };

  const findingRow = (scanId: string, t: Template, e: (typeof ENDPOINTS)[number], i: number, trend: 'new' | 'recurring'): SeededFinding & { scan_id: string; api_id: string; created_at: string } => {
    const cvss = Math.max(0, Math.min(10, Math.round((t.cvss - (i >= TEMPLATES.length ? rnd() * 0.8 : 0)) * 10) / 10));
    return {
      id: randomUUID(),
      scan_id: scanId,
      api_id: apiId,
      check_id: t.check_id,
      fingerprint: createHash('sha256').update(`${t.check_id}|${e.method}|${e.path}|${i % 4 === 0 ? 'id' : ''}|${i}`).digest('hex').slice(0, 32),
      vulnerability_name: t.name,
      severity: t.severity,
      confidence: t.confidence,
      owasp: t.owasp,
      cwe: t.cwe,
      description: t.description,
      recommendation: `${t.recommendation} (${e.method} ${e.path})`,
      cvss_vector: t.vector,
      cvss_score: cvss,
      method: e.method,
      path: e.path,
      parameter: i % 4 === 0 ? 'id' : null,
      evidence: evidenceFor(t, e.method, e.path, i),
      curl: i % 7 === 6 ? '' : `curl -sS -X ${e.method} 'https://api.example.test/v2${e.path}' -H 'Authorization: Bearer [redacted]' -H 'Accept: application/json'`,
      references: t.references,
      trend,
      created_at: completedAt,
    };
  };

  const insertFindings = async (rows: ReturnType<typeof findingRow>[]) => {
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('findings')
        .values(rows.slice(i, i + 200).map((r) => ({ ...r, references: JSON.stringify(r.references) })))
        .execute();
    }
  };

  // The (check, endpoint) pairs of the main scan: distinct fingerprints, varied categories.
  const active = ENDPOINTS.filter((e) => !e.flags.includes('SKIP'));
  const pairs: { t: Template; e: (typeof ENDPOINTS)[number]; i: number }[] = [];
  for (let i = 0; pairs.length < count; i += 1) {
    const t = TEMPLATES[i % TEMPLATES.length]!;
    const e = active[(i * 7 + Math.floor(i / TEMPLATES.length)) % active.length]!;
    pairs.push({ t, e, i });
  }

  // Earlier scans: scores improving, the last one sharing half its findings with the main scan.
  const earlierScanIds: string[] = [];
  const base = Date.parse(completedAt);
  const scores = [48, 55, 62, 70, 74, 77, 81, 79, 83, 85, 88];
  for (let h = 0; h < historyCount; h += 1) {
    const doneAt = new Date(base - (historyCount - h) * 7 * 24 * 3600 * 1000).toISOString();
    const startAt = new Date(Date.parse(doneAt) - 95_000).toISOString();
    const id = await scan('completed', startAt, doneAt, scores[h % scores.length]!, { errors: [], skipped_checks: [] });
    earlierScanIds.push(id);
    const last = h === historyCount - 1;
    const rows = pairs.slice(0, Math.min(pairs.length, 12 + h * 3)).filter((_, k) => !last || k % 2 === 0).map((p) => findingRow(id, p.t, p.e, p.i, 'new'));
    if (last) rows.push(findingRow(id, TEMPLATES[1]!, active[0]!, 9999, 'new'));
    await insertFindings(rows);
  }
  const recurring = new Set<string>();
  if (historyCount > 0) {
    const lastRows = await db.selectFrom('findings').select('fingerprint').where('scan_id', '=', earlierScanIds[earlierScanIds.length - 1]!).execute();
    for (const r of lastRows) recurring.add(r.fingerprint);
  }

  const failedScanId = await scan('failed', '2026-03-01T12:00:00.000Z', null, null, { errors: ['Key 1 stopped working (401) during the scan.'] }, { failure_reason: 'Key 1 was rejected' });
  const runningScanId = await scan('running', '2026-03-02T11:00:00.000Z', null, null, {});
  const startedAt = new Date(base - 128_430).toISOString();
  const scanId = await scan('completed', startedAt, completedAt, null, {
    errors: ['Timeout after 10 s: GET /files/{name} (attempt 3 of 3)', 'Connection reset by peer: POST /checkout'],
    skipped_checks: [
      { check_id: 'bola-create-then-steal', title: 'BOLA create-then-steal', reason: 'No second API key was given, so cross-user tests could not run.', owasp: 'API1:2023' },
      { check_id: 'ucapi-webhook-signature', title: 'Unsigned webhook payloads', reason: 'No endpoint is tagged as a callback receiver.' },
      { check_id: 'api-level-graphql', title: 'GraphQL introspection', reason: 'The API has no GraphQL endpoint.' },
    ],
    unknown_field: { kept: false },
  });
  const rows = pairs.map((p) => findingRow(scanId, p.t, p.e, p.i, 'new'));
  for (const r of rows) r.trend = recurring.has(r.fingerprint) ? 'recurring' : 'new';
  await insertFindings(rows);
  return {
    ownerId,
    apiId,
    scanId,
    earlierScanIds,
    failedScanId,
    runningScanId,
    findings: rows.map(({ scan_id: _s, api_id: _a, created_at: _c, ...f }) => f),
  };
}
