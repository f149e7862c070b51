// The scan page's reads over both transports: POST /api/scan/details/brief gives the details with each
// finding's brief (no evidence, curl or long texts, same findings, same order, the triage mark), and
// POST /api/scan/finding gives one finding whole, only through the scan it belongs to.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewFinding } from '../../electron/store/findings';
import type { Finding, FindingBrief, ScanDetails } from '../../shared/contract';
import { FINDING_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { seedApi, seedScan } from '../helpers/seed';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T };

const LONG_FIELDS = ['description', 'recommendation', 'evidence', 'curl', 'references', 'cvss_vector', 'proof'] as const;

function draft(scanId: string, apiId: string, n: number, graphql = false): NewFinding {
  return {
    scan_id: scanId,
    api_id: apiId,
    check_id: `check-${n % 2}`,
    vulnerability_name: n % 2 ? 'Object read with another key' : 'Verbose error',
    severity: n % 2 ? 'high' : 'medium',
    confidence: 'high',
    owasp: 'API1:2023',
    cwe: 'CWE-639',
    description: `Finding ${n} description.`,
    recommendation: 'Check the owner.',
    cvss_score: n % 2 ? 8.1 : 5.3,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
    method: 'GET',
    path: `/items/${n}`,
    parameter: null,
    evidence: `Method: GET\nPath: /items/${n}\n\n> GET /items/${n}\n< HTTP/1.1 200 OK`,
    curl: `curl -i 'http://127.0.0.1/items/${n}'`,
    references: ['https://owasp.org/API-Security/'],
    fingerprint: `fp-${n}`,
    trend: 'new',
    graphql: graphql ? { operation: 'Query.item', query: 'query { item(id: 1) { id } }', variables: null, batch: null } : null,
    // The replay proof: some findings have one, a status-only one, and none (a finding from before proofs were kept).
    proof: n % 3 === 0 ? { step: 1, status: [200], marker: `"owner": "user-${n}"` } : n % 3 === 1 ? { step: 1, status: [200, 204], marker: null } : null,
  };
}

describe.each(['http', 'ipc'] as const)('scan brief and one finding over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let stranger: TestUser;
  let scanId: string;
  let otherScanId: string;

  const brief = (u: TestUser, id: string) => t.call<Json<ScanDetails<FindingBrief>>>('POST', '/api/scan/details/brief', { token: u.token, body: { scan_id: id } });
  const whole = (u: TestUser, id: string) => t.call<Json<ScanDetails>>('POST', '/api/scan/details', { token: u.token, body: { scan_id: id } });
  const one = (u: TestUser | null, body: Record<string, unknown>) => t.call<Json<{ finding: Finding }>>('POST', '/api/scan/finding', { token: u?.token, body });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    stranger = await signUpAndLogin(t, 'stranger');
    const apiId = await seedApi(tc.core.store.db, owner.id, 'Shop API');
    const otherApiId = await seedApi(tc.core.store.db, owner.id, 'Other API');
    scanId = await seedScan(tc.core.store.db, apiId, owner.id, { status: 'completed', created_at: '2026-03-01T09:00:00.000Z', completed_at: '2026-03-01T09:01:00.000Z', score: 50 });
    otherScanId = await seedScan(tc.core.store.db, otherApiId, owner.id, { status: 'completed', created_at: '2026-03-01T09:00:00.000Z', completed_at: '2026-03-01T09:01:00.000Z', score: 50 });
    for (let n = 0; n < 6; n++) await tc.core.services.repos.findings.insert(draft(scanId, apiId, n, n === 5), tc.clock.now());
    await tc.core.services.repos.findings.insert(draft(otherScanId, otherApiId, 9), tc.clock.now());
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
  });

  it('gives the same findings in the same order as the details, without their long texts', async () => {
    const b = await brief(owner, scanId);
    const w = await whole(owner, scanId);
    expect(b.status).toBe(200);
    expect(b.json.data.results.scan_info).toEqual(w.json.data.results.scan_info);
    expect(b.json.data.results.results.map((f) => f.id)).toEqual(w.json.data.results.results.map((f) => f.id));
    for (const [i, f] of b.json.data.results.results.entries()) {
      const full = w.json.data.results.results[i]!;
      for (const field of LONG_FIELDS) expect(f, field).not.toHaveProperty(field);
      const { description: _d, recommendation: _r, evidence: _e, curl: _c, references: _x, cvss_vector: _v, proof: _p, graphql, ...rest } = full;
      expect(f).toEqual({ ...rest, graphql: graphql ? { operation: graphql.operation } : null });
    }
    expect(b.json.data.results.results.find((f) => f.graphql)?.graphql).toEqual({ operation: 'Query.item' });
  });

  it('carries the triage mark set on a finding', async () => {
    const id = (await brief(owner, scanId)).json.data.results.results[0]!.id;
    const marked = await t.call<Json>('POST', '/api/findings/triage', { token: owner.token, body: { finding_id: id, state: 'false_positive', reason: 'Test data' } });
    expect(marked.status).toBe(200);
    const f = (await brief(owner, scanId)).json.data.results.results.find((x) => x.id === id)!;
    expect(f.triage).toMatchObject({ state: 'false_positive', reason: 'Test data', set_by: owner.username });
  });

  it('gives one finding whole, as the details have it', async () => {
    const w = (await whole(owner, scanId)).json.data.results.results;
    for (const f of w) {
      const res = await one(owner, { scan_id: scanId, finding_id: f.id });
      expect(res.status).toBe(200);
      expect(res.json.data.finding).toEqual(f);
    }
    // The proof a replay must show again comes back whole (docs/api.md), null for a finding without one.
    const byPath = (n: number) => w.find((f) => f.path === `/items/${n}`)!;
    expect(byPath(3).proof).toEqual({ step: 1, status: [200], marker: '"owner": "user-3"' });
    expect(byPath(4).proof).toEqual({ step: 1, status: [200, 204], marker: null });
    expect(byPath(5).proof).toBeNull();
  });

  it('reads a finding only through its own scan, for whoever may see that scan', async () => {
    const otherFinding = (await whole(owner, otherScanId)).json.data.results.results[0]!;
    const elsewhere = await one(owner, { scan_id: scanId, finding_id: otherFinding.id });
    expect([elsewhere.status, elsewhere.json.message]).toEqual([404, FINDING_MESSAGES.notFound]);
    const id = (await brief(owner, scanId)).json.data.results.results[0]!.id;
    expect((await one(stranger, { scan_id: scanId, finding_id: id })).status).toBe(404);
    expect((await brief(stranger, scanId)).status).toBe(404);
    expect((await one(null, { scan_id: scanId, finding_id: id })).status).toBe(401);
    expect((await one(owner, { scan_id: scanId })).status).toBe(400);
    expect((await one(owner, { scan_id: scanId, finding_id: 'x'.repeat(500) })).status).toBe(400);
  });
});
