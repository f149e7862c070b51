// Triage over both transports (issue 17): POST /api/findings/triage marks a finding open, a false
// positive or an accepted risk (owner and manage; read 403; strangers 404); the mark follows the
// fingerprint into later scans of the API, shows on every finding with who set it and when, and takes
// the finding out of the score, the scan's counts and the dashboard; an accepted risk that ends counts
// again; the export carries every mark; JSON and SARIF reports say which findings are set aside.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpiry } from '../../electron/api/routes/findings';
import type { NewFinding } from '../../electron/store/findings';
import type { DashboardOverview, Finding, ScanDetails, TriageExport } from '../../shared/contract';
import { TRIAGE_MESSAGES } from '../../shared/messages';
import { addDays, dayEndingAt, endOfDayInZone } from '../../shared/zone-days';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { seedApi, seedScan } from '../helpers/seed';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T; errors?: { field: string; message: string }[] };

const SQLI = { fingerprint: 'fp-sqli', name: 'SQL injection', severity: 'high', cvss: 8.8 } as const;
const HEADERS = { fingerprint: 'fp-headers', name: 'Missing security headers', severity: 'medium', cvss: 5.3 } as const;
const NOTE = { fingerprint: 'fp-note', name: 'Server banner', severity: 'info', cvss: 0 } as const;

function draft(scanId: string, apiId: string, f: { fingerprint: string; name: string; severity: 'high' | 'medium' | 'info'; cvss: number }): NewFinding {
  return {
    scan_id: scanId,
    api_id: apiId,
    check_id: `check-${f.fingerprint}`,
    vulnerability_name: f.name,
    severity: f.severity,
    confidence: 'high',
    owasp: 'API8:2023',
    cwe: null,
    description: `${f.name} found.`,
    recommendation: 'Fix it.',
    cvss_score: f.cvss,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    method: 'GET',
    path: `/items/${f.fingerprint}`,
    parameter: null,
    evidence: 'Method: GET',
    curl: '',
    references: [],
    fingerprint: f.fingerprint,
    trend: 'new',
  };
}

describe('parseExpiry', () => {
  const now = new Date('2026-03-02T10:00:00.000Z');
  it('takes a date as the end of that day in the user zone, or an ISO time, in the future, at most five years ahead', () => {
    expect(parseExpiry('2026-03-02', now, 'Etc/UTC')).toBe('2026-03-03T00:00:00.000Z');
    expect(parseExpiry('2026-12-31', now, 'Etc/UTC')).toBe('2027-01-01T00:00:00.000Z');
    expect(parseExpiry('2026-03-02', now, 'Pacific/Honolulu')).toBe('2026-03-03T10:00:00.000Z');
    expect(parseExpiry('2026-03-03', now, 'Pacific/Kiritimati')).toBe('2026-03-03T10:00:00.000Z');
    expect(parseExpiry('2026-03-29', now, 'Europe/Berlin')).toBe('2026-03-29T22:00:00.000Z');
    expect(parseExpiry('2026-03-02T12:30:00+02:00', now, 'Etc/UTC')).toBe('2026-03-02T10:30:00.000Z');
    for (const bad of ['2026-03-01', '2026-02-30', '2026-03-02T09:00:00Z', '2031-04-01', 'tomorrow', '03/04/2026', '2026-13-01']) expect(parseExpiry(bad, now, 'Etc/UTC'), bad).toBeNull();
    // At 10:00Z, 2026-03-02 has just ended in UTC+14 and still has 14 hours to go in UTC.
    expect(parseExpiry('2026-03-02', now, 'Pacific/Kiritimati')).toBeNull();
  });
});

describe.each(['http', 'ipc'] as const)('finding triage over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let manager: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;
  const scans: string[] = [];

  const triage = (u: TestUser | null, body: Record<string, unknown>) => t.call<Json>('POST', '/api/findings/triage', { token: u?.token, body });
  const details = async (scanId: string) => (await t.call<Json<ScanDetails>>('POST', '/api/scan/details', { token: owner.token, body: { scan_id: scanId } })).json.data;
  const byFp = (d: ScanDetails, fp: string): Finding => d.results.results.find((f) => f.fingerprint === fp)!;
  /** The counts the triggers keep (not in the Kysely schema: only SQL reads them) and the stored score. */
  const counts = async (scanId: string) => {
    const { rows } = await sql<{ findings_count: number; critical_count: number; score: number }>`
      SELECT findings_count, critical_count, score FROM scans WHERE id = ${scanId}`.execute(tc.core.store.db);
    return rows[0];
  };
  const dashboard = async () => (await t.call<Json<DashboardOverview>>('GET', '/api/dashboard/overview', { token: owner.token })).json.data;

  /** A completed scan of the API with these findings, scored as the service scores it. */
  async function completedScan(findings: (typeof SQLI | typeof HEADERS | typeof NOTE)[], minutes: number): Promise<string> {
    const at = new Date(tc.clock.now().getTime() - (10 - minutes) * 60_000).toISOString();
    const scanId = await seedScan(tc.core.store.db, apiId, owner.id, { status: 'completed', created_at: at, completed_at: at, score: null });
    for (const f of findings) await tc.core.services.repos.findings.insert(draft(scanId, apiId, f), tc.clock.now());
    const { securityScore } = await import('../../electron/scanner/findings');
    const score = securityScore(await tc.core.services.repos.findings.severities(scanId));
    await tc.core.services.db.updateTable('scans').set({ score }).where('id', '=', scanId).execute();
    scans.push(scanId);
    return scanId;
  }

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    manager = await signUpAndLogin(t, 'manager');
    reader = await signUpAndLogin(t, 'reader');
    stranger = await signUpAndLogin(t, 'stranger');
    apiId = await seedApi(tc.core.store.db, owner.id, 'Shop API');
    for (const [u, permission] of [
      [manager, 'manage'],
      [reader, 'read'],
    ] as const) {
      await tc.core.services.repos.shares.upsert(apiId, u.id, permission, tc.clock.now());
    }
    await completedScan([SQLI, HEADERS, NOTE], 1);
    await completedScan([SQLI, HEADERS, NOTE], 2);
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
  });

  it('starts with every finding open and counted', async () => {
    const d = await details(scans[1]!);
    expect(d.results.results.map((f) => f.triage)).toEqual([null, null, null]);
    expect(await counts(scans[1]!)).toEqual({ findings_count: 2, critical_count: 0, score: 100 - 15 - 7 });
  });

  it('refuses readers, strangers, no session and bad input', async () => {
    const id = byFp(await details(scans[1]!), SQLI.fingerprint).id;
    expect((await triage(reader, { finding_id: id, state: 'false_positive' })).status).toBe(403);
    const hidden = await triage(stranger, { finding_id: id, state: 'false_positive' });
    expect([hidden.status, hidden.json.message]).toEqual([404, TRIAGE_MESSAGES.findingNotFound]);
    expect((await triage(null, { finding_id: id, state: 'false_positive' })).status).toBe(401);
    const unknown = await triage(owner, { finding_id: 'no-such-finding', state: 'open' });
    expect([unknown.status, unknown.json.message]).toEqual([404, TRIAGE_MESSAGES.findingNotFound]);
    const badState = await triage(owner, { finding_id: id, state: 'ignored' });
    expect(badState.status).toBe(400);
    expect(badState.json.errors?.[0]?.message).toBe(TRIAGE_MESSAGES.stateInvalid);
    const expiryOnFp = await triage(owner, { finding_id: id, state: 'false_positive', expires_at: '2030-01-01' });
    expect([expiryOnFp.status, expiryOnFp.json.message]).toEqual([400, TRIAGE_MESSAGES.expiryOnlyForAcceptedRisk]);
    for (const expires_at of ['2020-01-01', '2026-02-30', 'next week', '2040-01-01']) {
      const bad = await triage(owner, { finding_id: id, state: 'accepted_risk', expires_at });
      expect([bad.status, bad.json.message], expires_at).toEqual([400, TRIAGE_MESSAGES.expiryInvalid]);
    }
    expect((await triage(owner, { finding_id: id, state: 'false_positive', reason: 'x'.repeat(1001) })).status).toBe(400);
    expect(byFp(await details(scans[1]!), SQLI.fingerprint).triage).toBeNull();
  });

  it('sets a false positive: listed with who and why, out of the score, counts and dashboard of every scan', async () => {
    const id = byFp(await details(scans[1]!), SQLI.fingerprint).id;
    const res = await triage(owner, { finding_id: id, state: 'false_positive', reason: 'The \u202equery\r\n is a constant' });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe(TRIAGE_MESSAGES.saved);
    expect(res.json.data).toMatchObject({ finding_id: id, fingerprint: SQLI.fingerprint, affected_scans: 2 });
    const expected = { state: 'false_positive', reason: 'The query  is a constant', expires_at: null, set_by: owner.username, set_at: tc.clock.now().toISOString() };
    expect(res.json.data.triage).toEqual(expected);
    for (const scanId of scans) {
      const d = await details(scanId);
      expect(d.results.results).toHaveLength(3);
      expect(byFp(d, SQLI.fingerprint).triage).toEqual(expected);
      expect(byFp(d, HEADERS.fingerprint).triage).toBeNull();
      expect(d.results.scan_info.score).toBe(100 - 7);
      expect(await counts(scanId)).toEqual({ findings_count: 1, critical_count: 0, score: 100 - 7 });
    }
    const dash = await dashboard();
    expect(dash.total_vulnerabilities).toBe(1);
    expect(dash.top_vuln_types.map((x) => x.type)).toEqual([HEADERS.name]);
  });

  it('follows the fingerprint into a later scan: set aside from the start', async () => {
    const later = await completedScan([SQLI, HEADERS], 3);
    expect(byFp(await details(later), SQLI.fingerprint).triage?.state).toBe('false_positive');
    expect(await counts(later)).toEqual({ findings_count: 1, critical_count: 0, score: 93 });
  });

  it('lets a manager accept a risk until a date; at its end the finding counts again', async () => {
    const latest = scans[scans.length - 1]!;
    const id = byFp(await details(latest), HEADERS.fingerprint).id;
    // Ten minutes ahead (sessions stay alive while the clock moves past it).
    const endsAt = tc.clock.now().getTime() + 10 * 60_000;
    const res = await triage(manager, { finding_id: id, state: 'accepted_risk', reason: 'Behind the VPN until the gateway ships', expires_at: new Date(endsAt).toISOString() });
    expect(res.status).toBe(200);
    expect(res.json.data.triage).toMatchObject({ state: 'accepted_risk', set_by: manager.username, expires_at: new Date(endsAt).toISOString() });
    expect(await counts(latest)).toEqual({ findings_count: 0, critical_count: 0, score: 100 });
    expect((await dashboard()).total_vulnerabilities).toBe(0);

    tc.clock.set(new Date(endsAt + 1000));
    const d = await details(latest);
    expect(byFp(d, HEADERS.fingerprint).triage).toMatchObject({ state: 'open', set_by: null, reason: 'Behind the VPN until the gateway ships' });
    expect(await counts(latest)).toEqual({ findings_count: 1, critical_count: 0, score: 93 });
    expect((await dashboard()).total_vulnerabilities).toBe(1);
  });

  it('exports every mark for the CLI baseline (readers too), never another API', async () => {
    const res = await t.call<Json<TriageExport>>('GET', `/api/findings/triage/export?api_id=${apiId}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ format: 'portcullis-triage', version: 1, api: { id: apiId, name: 'Shop API' } });
    expect(res.json.data.triage.map((m) => [m.fingerprint, m.state])).toEqual([
      [SQLI.fingerprint, 'false_positive'],
      [HEADERS.fingerprint, 'open'],
    ]);
    expect((await t.call<Json>('GET', `/api/findings/triage/export?api_id=${apiId}`, { token: stranger.token })).status).toBe(404);
  });

  it('marks set-aside findings in the JSON and SARIF reports', async () => {
    const latest = scans[scans.length - 1]!;
    const json = await t.call<Json>('GET', `/api/reports/download?scan_id=${latest}&report_type=json`, { token: owner.token });
    const report = JSON.parse(Buffer.from(json.body).toString('utf8')) as {
      summary: { total: number; triaged: number };
      findings: { fingerprint: string; triage: unknown }[];
      triaged: { number: string; fingerprint: string; triage: { state: string; reason: string } }[];
    };
    expect(report.summary).toMatchObject({ total: 1, triaged: 1 });
    expect(report.findings.map((f) => f.fingerprint)).toEqual([HEADERS.fingerprint]);
    expect(report.triaged).toEqual([expect.objectContaining({ number: 'T-001', fingerprint: SQLI.fingerprint, triage: expect.objectContaining({ state: 'false_positive' }) })]);

    const sarif = await t.call<Json>('GET', `/api/reports/download?scan_id=${latest}&report_type=sarif`, { token: owner.token });
    const results = (JSON.parse(Buffer.from(sarif.body).toString('utf8')) as { runs: { results: { partialFingerprints: Record<string, string>; suppressions?: unknown[] }[] }[] }).runs[0]!.results;
    const sqli = results.find((r) => r.partialFingerprints['portcullis/v1'] === SQLI.fingerprint)!;
    expect(sqli.suppressions).toEqual([expect.objectContaining({ kind: 'external', status: 'accepted', justification: 'The query  is a constant' })]);
    expect(results.find((r) => r.partialFingerprints['portcullis/v1'] === HEADERS.fingerprint)!.suppressions).toBeUndefined();

    // The technical PDF lists them in an appendix, with who set them aside and why.
    const pdf = await t.call<Json>('GET', `/api/reports/download?scan_id=${latest}&report_type=technical`, { token: owner.token });
    expect(pdf.status).toBe(200);
    const file = path.join(os.tmpdir(), `portcullis-triage-${kind}-${process.pid}.pdf`);
    fs.writeFileSync(file, pdf.body);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8').replace(/\s+/g, ' ');
    expect(text).toContain('Set aside in triage 1 (listed in the appendix)');
    expect(text).toContain('Appendix. Findings set aside in triage');
    expect(text).toMatch(/T-001 SQL injection GET \/items\/fp-sqli False positive by owner\S* on 2026-03-02\. The query is a constant/);

    // The executive PDF ends with the same appendix.
    const exec = await t.call<Json>('GET', `/api/reports/download?scan_id=${latest}&report_type=executive`, { token: owner.token });
    fs.writeFileSync(file, exec.body);
    const execText = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8').replace(/\s+/g, ' ');
    fs.rmSync(file);
    expect(execText).toContain('Appendix. Findings set aside in triage');
    expect(execText).toContain('T-001 SQL injection');
  });

  it('opens a finding again: counted again, with who reopened it', async () => {
    const latest = scans[scans.length - 1]!;
    const id = byFp(await details(latest), SQLI.fingerprint).id;
    const res = await triage(owner, { finding_id: id, state: 'open', reason: 'Reproduced with a variable query' });
    expect(res.json.data.triage).toMatchObject({ state: 'open', set_by: owner.username });
    expect(await counts(latest)).toEqual({ findings_count: 2, critical_count: 0, score: 100 - 15 - 7 });
  });
  it('takes a date as the end of that day in the Settings zone of whoever sets it, the same day again when saved again', async () => {
    const id = byFp(await details(scans[0]!), NOTE.fingerprint).id;
    const day = new Date(tc.clock.now().getTime() + 20 * 86_400_000).toISOString().slice(0, 10);
    const zones = [
      ['UTC+09:00', `${day}T15:00:00.000Z`],
      ['Pacific/Honolulu', `${addDays(day, 1)}T10:00:00.000Z`],
      ['Pacific/Kiritimati', `${day}T10:00:00.000Z`],
    ] as const;
    for (const [zone, end] of zones) {
      const saved = await t.call<Json>('PUT', '/api/user/extended-profile', { token: owner.token, body: { timezone: zone } });
      expect(saved.status, zone).toBe(200);
      const res = await triage(owner, { finding_id: id, state: 'accepted_risk', reason: 'Internal only', expires_at: day });
      expect([res.status, (res.json.data.triage as { expires_at: string }).expires_at], zone).toEqual([200, end]);
      expect(dayEndingAt(end, zone)).toBe(day);
      // What the page sends when saved again: the same instant, unmoved.
      const again = await triage(owner, { finding_id: id, state: 'accepted_risk', reason: 'Internal only', expires_at: endOfDayInZone(dayEndingAt(end, zone), zone)!.toISOString() });
      expect((again.json.data.triage as { expires_at: string }).expires_at, zone).toBe(end);
    }
    await t.call<Json>('PUT', '/api/user/extended-profile', { token: owner.token, body: { timezone: '' } });
  });
});
