// Dashboard overview on a seeded store, checked against hand-computed figures, over both transports.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { seedApi, seedFinding, seedScan } from '../helpers/seed';

describe.each(['http', 'ipc'] as const)('dashboard overview over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let ids: Record<string, string>;

  beforeAll(async () => {
    tc = await createTestCore(); // the clock reads 2026-03-02T10:00:00Z
    t = await openTransport(kind, tc.core);
    alice = await signUpAndLogin(t, 'alice');
    bob = await signUpAndLogin(t, 'bob');
    carol = await signUpAndLogin(t, 'carol');
    const db = tc.core.store.db;
    const a1 = await seedApi(db, alice.id, 'Orders API');
    const a2 = await seedApi(db, alice.id, 'Billing API');
    const b1 = await seedApi(db, bob.id, 'Bob Shared API');
    const c1 = await seedApi(db, carol.id, 'Carol Private API');
    await db.insertInto('shares').values({ api_id: b1, user_id: alice.id, permission: 'read', created_at: '', updated_at: '' }).execute();
    const s1 = await seedScan(db, a1, alice.id, { status: 'completed', created_at: '2026-02-20T08:00:00.000Z', completed_at: '2026-02-20T08:05:00.000Z' });
    await seedFinding(db, s1, a1, { name: 'BOLA', cvss: 9.1 });
    await seedFinding(db, s1, a1, { name: 'BOLA', cvss: 7.5, path: '/y' });
    await seedFinding(db, s1, a1, { name: 'CORS', cvss: 5.3 });
    const s2 = await seedScan(db, a1, alice.id, { status: 'completed', created_at: '2026-03-01T09:00:00.000Z', completed_at: '2026-03-01T09:10:00.000Z' });
    await seedFinding(db, s2, a1, { name: 'BOLA', cvss: 9.1 });
    await seedFinding(db, s2, a1, { name: 'Headers', cvss: 3.1 });
    const s3 = await seedScan(db, a1, alice.id, { status: 'failed', created_at: '2026-03-02T08:00:00.000Z' });
    await seedScan(db, a1, alice.id, { status: 'created', created_at: '2026-03-02T09:30:00.000Z', started_at: null });
    const s5 = await seedScan(db, a2, alice.id, { status: 'running', created_at: '2026-03-02T09:00:00.000Z' });
    const s6 = await seedScan(db, b1, bob.id, { status: 'completed', created_at: '2026-02-28T12:00:00.000Z', completed_at: '2026-02-28T12:30:00.000Z' });
    await seedFinding(db, s6, b1, { name: 'CORS', cvss: 9.8 });
    const s7 = await seedScan(db, c1, carol.id, { status: 'completed', created_at: '2026-03-02T07:00:00.000Z', completed_at: '2026-03-02T07:10:00.000Z' });
    for (let i = 0; i < 5; i += 1) await seedFinding(db, s7, c1, { name: 'Secret', cvss: 10, path: `/p${i}` });
    ids = { s1, s2, s3, s5, s6 };
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('adds up what the user owns and what is shared with them, nothing else', async () => {
    const res = await t.call<{ success: boolean; data: Record<string, unknown> }>('GET', `/api/dashboard/overview?user_id=${alice.id}`, {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data).toEqual({
      total_apis: 3,
      total_scans: 5,
      total_vulnerabilities: 3,
      critical_vulnerabilities: 2,
      scan_activity_weekly: [
        { day: '2026-02-24', scans: 0, vulnerabilities: 0 },
        { day: '2026-02-25', scans: 0, vulnerabilities: 0 },
        { day: '2026-02-26', scans: 0, vulnerabilities: 0 },
        { day: '2026-02-27', scans: 0, vulnerabilities: 0 },
        { day: '2026-02-28', scans: 1, vulnerabilities: 1 },
        { day: '2026-03-01', scans: 1, vulnerabilities: 2 },
        { day: '2026-03-02', scans: 2, vulnerabilities: 0 },
      ],
      // Worst level first (critical is a level of its own, issue 31); `severity` stays the worst's band.
      top_vuln_types: [
        { type: 'BOLA', count: 1, severity: 'high', level: 'critical' },
        { type: 'CORS', count: 1, severity: 'high', level: 'critical' },
        { type: 'Headers', count: 1, severity: 'low', level: 'low' },
      ],
      recent_scans: [
        { id: ids.s5, apiName: 'Billing API', date: '2026-03-02T09:00:00.000Z', status: 'running', vulnerabilities: 0 },
        { id: ids.s3, apiName: 'Orders API', date: '2026-03-02T08:00:00.000Z', status: 'failed', vulnerabilities: 0 },
        { id: ids.s2, apiName: 'Orders API', date: '2026-03-01T09:10:00.000Z', status: 'completed', vulnerabilities: 2 },
        { id: ids.s6, apiName: 'Bob Shared API', date: '2026-02-28T12:30:00.000Z', status: 'completed', vulnerabilities: 1 },
        { id: ids.s1, apiName: 'Orders API', date: '2026-02-20T08:05:00.000Z', status: 'completed', vulnerabilities: 3 },
      ],
    });
  });

  it('gives the same recent scans when the user sees few of the instance\'s APIs', async () => {
    const before = await t.call<{ data: { recent_scans: unknown[] } }>('GET', '/api/dashboard/overview', { token: alice.token });
    await tc.core.store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i += 1) await seedApi(trx, carol.id, `Carol filler ${i}`);
    });
    const after = await t.call<{ data: { recent_scans: unknown[] } }>('GET', '/api/dashboard/overview', { token: alice.token });
    expect(after.json.data.recent_scans).toEqual(before.json.data.recent_scans);
    await tc.core.store.db.deleteFrom('apis').where('name', 'like', 'Carol filler %').execute();
  });

  it('is empty for a new user, and refuses another user id and anonymous callers', async () => {
    const dave = await signUpAndLogin(t, 'dave');
    const res = await t.call<{ data: Record<string, unknown> }>('GET', '/api/dashboard/overview', { token: dave.token });
    expect(res.json.data).toMatchObject({ total_apis: 0, total_scans: 0, total_vulnerabilities: 0, critical_vulnerabilities: 0, top_vuln_types: [], recent_scans: [] });
    expect((res.json.data.scan_activity_weekly as unknown[]).length).toBe(7);
    expect((await t.call('GET', `/api/dashboard/overview?user_id=${alice.id}`, { token: bob.token })).status).toBe(403);
    expect((await t.call('GET', '/api/dashboard/overview')).status).toBe(401);
  });

  it('platform stats count the whole instance', async () => {
    const res = await t.call<{ data: Record<string, number> }>('GET', '/api/stats/platform');
    // Today: s3, s5 and s7 started; the created-but-never-started scan does not count.
    expect(res.json.data).toEqual({ vulnerabilitiesFound: 11, apisSecured: 4, scansToday: 3 });
  });

  // Runs last: its findings would change the instance-wide figures above.
  it('ranks top vulnerability types by worst severity, then count; findings set aside count for neither', async () => {
    const erin = await signUpAndLogin(t, `erin-${kind}`);
    const db = tc.core.store.db;
    const api = await seedApi(db, erin.id, 'Erin API');
    const old = await seedScan(db, api, erin.id, { status: 'completed', created_at: '2026-02-01T08:00:00.000Z', completed_at: '2026-02-01T08:05:00.000Z' });
    // Only the latest scan counts: this older high finding must not lift "Headers".
    await seedFinding(db, old, api, { name: 'Headers', cvss: 8.2 });
    const scan = await seedScan(db, api, erin.id, { status: 'completed', created_at: '2026-03-01T08:00:00.000Z', completed_at: '2026-03-01T08:05:00.000Z' });
    for (let i = 0; i < 4; i += 1) await seedFinding(db, scan, api, { name: 'Headers', cvss: 3.1, path: `/h${i}` });
    await seedFinding(db, scan, api, { name: 'SQL injection', cvss: 8.6 });
    for (let i = 0; i < 2; i += 1) await seedFinding(db, scan, api, { name: 'CORS', cvss: 5.3, path: `/c${i}` });
    await seedFinding(db, scan, api, { name: 'Mixed', cvss: 2.0 });
    await seedFinding(db, scan, api, { name: 'Mixed', cvss: 7.1, path: '/m' });
    // One critical finding outranks two high ones.
    await seedFinding(db, scan, api, { name: 'Token forgery', cvss: 9.1 });
    // Set aside in triage: neither its severity nor its count may count.
    const hidden = await seedFinding(db, scan, api, { name: 'CORS', cvss: 9.8, path: '/hidden' });
    await seedFinding(db, scan, api, { name: 'Info only', cvss: 0 });
    await db.updateTable('findings').set({ suppressed: 1 }).where('id', '=', hidden).execute();
    const res = await t.call<{ data: { top_vuln_types: unknown[] } }>('GET', '/api/dashboard/overview', { token: erin.token });
    expect(res.json.data.top_vuln_types).toEqual([
      { type: 'Token forgery', count: 1, severity: 'high', level: 'critical' },
      { type: 'Mixed', count: 2, severity: 'high', level: 'high' },
      { type: 'SQL injection', count: 1, severity: 'high', level: 'high' },
      { type: 'CORS', count: 2, severity: 'medium', level: 'medium' },
      { type: 'Headers', count: 4, severity: 'low', level: 'low' },
    ]);
  });

  // Runs last too (issue 31): per day, each API's last scan of the day, not the sum of its scans.
  it('charts a day\'s vulnerabilities as each API\'s last scan that day, however often it was scanned', async () => {
    const frank = await signUpAndLogin(t, `frank-${kind}`);
    const db = tc.core.store.db;
    const shop = await seedApi(db, frank.id, 'Shop API');
    const blog = await seedApi(db, frank.id, 'Blog API');
    // Five scans of the shop on 1 March (3, 3, 3, 3, then 2 vulnerabilities), the last one completed last.
    for (let i = 0; i < 5; i += 1) {
      const at = `2026-03-01T0${i + 1}:00:00.000Z`;
      const scan = await seedScan(db, shop, frank.id, { status: 'completed', created_at: at, completed_at: `2026-03-01T0${i + 1}:05:00.000Z` });
      for (let n = 0; n < (i === 4 ? 2 : 3); n += 1) await seedFinding(db, scan, shop, { name: 'BOLA', cvss: 6.5, path: `/o${n}` });
      // Informational findings are no vulnerabilities, on the chart as everywhere.
      await seedFinding(db, scan, shop, { name: 'Docs published', cvss: 0 });
    }
    // The blog once that day (4, one of them set aside in triage: 3), and once the day before (1).
    const blogScan = await seedScan(db, blog, frank.id, { status: 'completed', created_at: '2026-03-01T06:00:00.000Z', completed_at: '2026-03-01T06:01:00.000Z' });
    for (let n = 0; n < 4; n += 1) await seedFinding(db, blogScan, blog, { name: 'XSS', cvss: 6.1, path: `/b${n}` });
    await db.updateTable('findings').set({ suppressed: 1 }).where('scan_id', '=', blogScan).where('path', '=', '/b0').execute();
    const before = await seedScan(db, blog, frank.id, { status: 'completed', created_at: '2026-02-28T06:00:00.000Z', completed_at: '2026-02-28T06:01:00.000Z' });
    await seedFinding(db, before, blog, { name: 'XSS', cvss: 6.1 });
    // A failed scan that day counts as a scan, not for vulnerabilities.
    await seedScan(db, shop, frank.id, { status: 'failed', created_at: '2026-03-01T07:00:00.000Z' });

    const res = await t.call<{ data: { total_vulnerabilities: number; scan_activity_weekly: { day: string; scans: number; vulnerabilities: number }[] } }>(
      'GET',
      '/api/dashboard/overview',
      { token: frank.token },
    );
    const day = (d: string) => res.json.data.scan_activity_weekly.find((x) => x.day === d);
    expect(day('2026-03-01')).toEqual({ day: '2026-03-01', scans: 7, vulnerabilities: 2 + 3 });
    expect(day('2026-02-28')).toEqual({ day: '2026-02-28', scans: 1, vulnerabilities: 1 });
    // The stat card reads the same latest scans: today's bar and the card agree when every API was scanned that day.
    expect(res.json.data.total_vulnerabilities).toBe(5);
  });
});
