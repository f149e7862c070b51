// GET /api/reports/download over both transports: every report type with its content type and
// file name, binary PDFs intact through IPC, and who may download (owner, a View share) and who may
// not (a stranger gets the same 404 as for an unknown scan, no session 401, someone else's user_id 403).

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportInput } from '../../electron/reports/loader';
import { renderReport } from '../../electron/reports/render';
import { EMPTY_EXTENDED_PROFILE } from '../../shared/constants';
import { createTestCore, openTransport, signUpAndLogin, tempDir, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { FIXTURE_API_NAME, seedReportFixture, type Fixture } from '../helpers/report-fixture';

type Json = { success: boolean; message: string; errors?: { field: string; message: string }[] };

const STEM = `2026-03-02_1141`;
const NAME = 'Ünïcödé_Ωμέγα_Payments_API_—_支付';

describe.each(['http', 'ipc'] as const)('report downloads over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let fx: Fixture;
  let scratch: string;
  const url = (scan: string, type: string, extra = '') => `/api/reports/download?scan_id=${encodeURIComponent(scan)}&report_type=${type}${extra}`;
  const get = (u: string, token?: string) => t.call<Json>('GET', u, { token });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    viewer = await signUpAndLogin(t, 'viewer');
    stranger = await signUpAndLogin(t, 'stranger');
    fx = await seedReportFixture(tc.core.services.db, { ownerId: owner.id, findings: 30 });
    await tc.core.services.repos.shares.upsert(fx.apiId, viewer.id, 'read', tc.clock.now());
    // The owner reads dates in UTC+02:00 (Settings); the viewer has no zone set.
    await tc.core.services.repos.userSettings.setProfile(owner.id, { ...EMPTY_EXTENDED_PROFILE, timezone: 'UTC+02:00' }, tc.clock.now());
    scratch = tempDir('portcullis-dl-');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await tc?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('downloads the technical PDF with the spec file name, intact', async () => {
    const res = await get(url(fx.scanId, 'technical', `&user_id=${owner.id}`), owner.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const expected = `${STEM} - Technical Report - ${NAME}.pdf`;
    const cd = res.headers.get('content-disposition')!;
    expect(cd.startsWith('attachment; filename="2026-03-02_1141 - Technical Report - Unicode_')).toBe(true);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(cd)![1]!)).toBe(expected);
    expect(res.headers.get('content-length')).toBe(String(res.body.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The bytes are exactly what the renderer makes: nothing lost on the way (IPC carries bytes).
    const input = (await loadReportInput(tc.core.services.db, fx.scanId))!;
    const direct = await renderReport(input, 'technical', { timeZone: 'UTC+02:00' });
    expect(direct.filename).toBe(expected);
    expect(Buffer.compare(Buffer.from(res.body), direct.body)).toBe(0);
    const file = path.join(scratch, `${kind}.pdf`);
    fs.writeFileSync(file, res.body);
    const text = execFileSync('pdftotext', [file, '-']).toString('utf8');
    expect(text).toContain(FIXTURE_API_NAME);
    expect(text).toContain('2026-03-02 11:41 (UTC+02:00)');
  });

  it('serves every report type with its content type and file name', async () => {
    const types: [string, string, string][] = [
      ['executive', 'application/pdf', `${STEM} - Executive Report - ${NAME}.pdf`],
      ['json', 'application/json; charset=utf-8', `${STEM} - Scan Results - ${NAME}.json`],
      ['sarif', 'application/sarif+json; charset=utf-8', `${STEM} - SARIF Results - ${NAME}.sarif`],
      ['html', 'text/html; charset=utf-8', `${STEM} - Security Report - ${NAME}.html`],
      ['junit', 'application/xml; charset=utf-8', `${STEM} - JUnit Results - ${NAME}.xml`],
    ];
    for (const [type, contentType, filename] of types) {
      const res = await get(url(fx.scanId, type), owner.token);
      expect(res.status, type).toBe(200);
      expect(res.headers.get('content-type')).toBe(contentType);
      expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(res.headers.get('content-disposition')!)![1]!)).toBe(filename);
    }
    const json = await get(url(fx.scanId, 'json'), owner.token);
    expect((json.json as unknown as { findings: unknown[] }).findings).toHaveLength(30);
    const sarif = await get(url(fx.scanId, 'SARIF'), owner.token);
    expect((sarif.json as unknown as { version: string }).version).toBe('2.1.0');
    const pdf = await get(url(fx.scanId, 'executive'), owner.token);
    expect(Buffer.from(pdf.body.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });

  it('lets a View share download; the same scan for them uses their own zone', async () => {
    const res = await get(url(fx.scanId, 'junit', `&user_id=${viewer.id}`), viewer.token);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<testsuites ');
  });

  it('answers a stranger exactly as for a scan that does not exist', async () => {
    const hidden = await get(url(fx.scanId, 'technical'), stranger.token);
    const unknown = await get(url(randomUUID(), 'technical'), stranger.token);
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(hidden.json).toEqual(unknown.json);
    expect(hidden.json).toEqual({ success: false, message: 'Scan not found.' });
  });

  it('needs a session, and the caller’s own user_id', async () => {
    const anon = await get(url(fx.scanId, 'technical'));
    expect(anon.status).toBe(401);
    const other = await get(url(fx.scanId, 'technical', `&user_id=${owner.id}`), viewer.token);
    expect(other.status).toBe(403);
  });

  it('refuses an unknown report type and scans that have not completed', async () => {
    const bad = await get(url(fx.scanId, 'docx'), owner.token);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('Unknown report type. Use one of: executive, technical, json, sarif, html, junit.');
    expect(bad.json.errors).toEqual([{ field: 'report_type', message: bad.json.message }]);
    const missing = await get('/api/reports/download?report_type=technical', owner.token);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe('scan_id is required.');
    const running = await get(url(fx.runningScanId, 'technical'), owner.token);
    expect(running.status).toBe(400);
    expect(running.json.message).toBe('This scan is running: reports are available once it has completed.');
    const failed = await get(url(fx.failedScanId, 'sarif'), owner.token);
    expect(failed.status).toBe(400);
    expect(failed.json.message).toBe('This scan is failed: reports are available once it has completed.');
    // A stranger learns nothing about the running scan either.
    expect((await get(url(fx.runningScanId, 'technical'), stranger.token)).status).toBe(404);
  });
});
