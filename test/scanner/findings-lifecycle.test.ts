// Findings across scans of one API: new, recurring and fixed by fingerprint; the security score of
// DESIGN.md section 6; de-duplication within a scan.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITICAL_CVSS } from '../../shared/constants';
import type { ScanDetails } from '../../shared/contract';
import { defineCheck } from '../../electron/scanner/checks/common/helpers';
import { createScanService } from '../../electron/scanner/service';
import { loadReportInput, writeReports } from '../../electron/reports/index';
import { createTestCore, tempDir, type TestCore } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

function expectedScore(d: ScanDetails): number {
  let penalty = 0;
  for (const f of d.results.results) {
    if (f.severity === 'info') continue;
    penalty += f.cvss_score >= CRITICAL_CVSS ? 25 : { high: 15, medium: 7, low: 2 }[f.severity];
  }
  return Math.max(0, 100 - penalty);
}

describe('findings across scans', () => {
  let tc: TestCore;
  let target: MiniApi;
  let userId: string;
  let apiId: string;
  beforeAll(async () => {
    tc = await createTestCore();
    target = await startMiniApi({ corsReflect: true, corsCredentials: true, weakHeaders: true });
    const s = tc.core.services;
    userId = (await s.repos.users.create({ email: 'f@example.com', username: 'findings', firstName: 'F', lastName: 'L', passwordHash: null }, new Date())).id;
    apiId = await s.repos.apis.createWithEndpoints(miniApiInput(userId, target.url), new Date());
  });
  afterAll(async () => {
    await tc.close();
    await target.close();
  });

  async function scan(): Promise<ScanDetails> {
    const s = tc.core.services.scans;
    const scanId = await s.create(userId, { apiId, profile: 'owasp', key1: target.users.alice.token, key2: target.users.bob.token, rps: 0 });
    await s.start(userId, { apiId });
    await s.wait(scanId);
    return s.details(scanId);
  }

  it('marks findings new, then recurring, and lists the fixed ones', async () => {
    const first = await scan();
    expect(first.status).toBe('completed');
    // Four risks and two remarks (info, no weight): no-store missing on answers without personal data, and a
    // pet's name stored as sent and returned in JSON.
    expect(first.results.results.length).toBe(6);
    expect(first.results.results.every((f) => f.trend === 'new')).toBe(true);
    expect(first.results.scan_info.fixed).toEqual([]);
    expect(first.results.scan_info.score).toBe(expectedScore(first));
    expect(first.results.scan_info.score).toBe(100 - 15 - 2 - 2 - 2);

    target.setFlaws({ corsReflect: false });
    const second = await scan();
    expect(second.results.results.map((f) => [f.vulnerability_name, f.trend]).sort()).toEqual([
      ['Authenticated responses may be cached', 'recurring'],
      ['Authenticated responses without personal data may be cached', 'recurring'],
      ['Server software version disclosed', 'recurring'],
      ['Stored HTML markup returned verbatim (HTML injection in clients)', 'recurring'],
      ['X-Content-Type-Options: nosniff missing', 'recurring'],
    ]);
    const cors = first.results.results.find((f) => f.check_id === 'api8-cors-policy')!;
    expect(second.results.scan_info.fixed).toEqual([{ fingerprint: cors.fingerprint, vulnerability_name: cors.vulnerability_name, method: cors.method, path: cors.path, severity: 'high', cvss_score: cors.cvss_score }]);
    expect(second.results.scan_info.score).toBe(94);

    // A critical finding (CVSS >= 9.0) weighs 25.
    target.setFlaws({ weakHeaders: false, anyToken: true });
    const third = await scan();
    const critical = third.results.results.filter((f) => f.cvss_score >= CRITICAL_CVSS);
    expect(critical.length).toBeGreaterThan(0);
    expect(third.results.scan_info.score).toBe(expectedScore(third));
    expect(third.results.scan_info.score).toBe(Math.max(0, 100 - 25 * critical.length));
    expect(third.results.scan_info.fixed.map((f) => f.vulnerability_name).sort()).toEqual([
      'Authenticated responses may be cached',
      'Authenticated responses without personal data may be cached',
      'Server software version disclosed',
      'X-Content-Type-Options: nosniff missing',
    ]);
    target.setFlaws({ anyToken: false });
  });

  it('records what the reports read: the checks run, the endpoints scanned, and the fixed findings', async () => {
    target.setFlaws({ corsReflect: true, corsCredentials: true, weakHeaders: true });
    const d = await scan();
    const input = await loadReportInput(tc.core.services.db, d.scan_id);
    expect(input?.endpoints_source).toBe('scan');
    const run = input!.checks.filter((c) => c.status === 'run').map((c) => c.check_id).sort();
    // Every check that applies to the mini API's endpoints (the registry grows with each check family).
    expect(run).toEqual(expect.arrayContaining(['api2-credentials-not-enforced', 'api8-cors-policy', 'api8-security-headers']));
    expect(input!.checks.find((c) => c.check_id === 'api8-cors-policy')?.endpoints).toContain('GET /me');
    const dir = tempDir('portcullis-reports-');
    const written = await writeReports(tc.core.services.db, d.scan_id, 'json,sarif', dir);
    expect(written.map((w) => w.type)).toEqual(['json', 'sarif']);
    const sarif = JSON.parse(fs.readFileSync(written[1]!.path, 'utf8')) as { runs: { results: unknown[] }[] };
    expect(sarif.runs[0]!.results.length).toBe(d.results.results.length);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one finding per fingerprint within a scan', async () => {
    const twice = defineCheck({
      id: 'api8-engine-duplicate-probe',
      title: 'Engine probe: the same finding twice',
      flag: 'SEC_MISC',
      owasp: 'API8:2023',
      cwe: 'CWE-693',
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
      kind: 'passive',
      safety: 'safe',
      scope: 'endpoint',
      budget: 0,
      description: 'Reports the key-1 baseline of each endpoint twice, with the same fingerprint.',
      remediation: 'Nothing to fix: this check exists to test de-duplication.',
      references: ['https://owasp.org/API-Security/'],
      appliesTo: (e) => e.path === '/me',
      async *run(ctx) {
        const ex = await ctx.baseline('key1');
        if (!ex) return;
        for (let i = 0; i < 2; i += 1) yield { description: `copy ${i}`, parameter: 'p', exchanges: [{ label: 'Baseline', exchange: ex }] };
      },
    });
    const s = tc.core.services;
    const service = createScanService({ repos: s.repos, secrets: s.secrets, config: s.config, logger: s.logger, clock: s.clock, checks: [twice] });
    const scanId = await service.create(userId, { apiId, profile: 'owasp', key1: target.users.alice.token, rps: 0 });
    await service.start(userId, { apiId });
    await service.wait(scanId);
    const d = await service.details(scanId);
    expect(d.results.results).toHaveLength(1);
    expect(d.results.results[0]!.description).toBe('copy 0');
  });
});
