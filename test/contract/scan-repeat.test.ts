// Configure Scan offers the last configuration (issue 17): GET /api/scan/last-config says what the
// caller's last scan of the API used (no secret), and POST /api/scan/repeat creates a scan with that
// configuration and its keys, over both transports. Only the caller's own scans count; read is 403.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LastScanConfiguration } from '../../shared/contract';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T };

const KEY = 'static-key-of-alice-0123456789';

describe.each(['http', 'ipc'] as const)('repeat the last scan configuration over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let manager: TestUser;
  let reader: TestUser;
  let apiId: string;
  const lastConfig = (u: TestUser) => t.call<Json<{ last: LastScanConfiguration | null }>>('GET', `/api/scan/last-config?api_id=${apiId}`, { token: u.token });
  const repeat = (u: TestUser) => t.call<Json<{ scan_id: string }>>('POST', '/api/scan/repeat', { token: u.token, body: { api_id: apiId } });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    manager = await signUpAndLogin(t, 'manager');
    reader = await signUpAndLogin(t, 'reader');
    const res = await t.call<Json<{ api: { id: string } }>>('POST', '/api/apis/manual', {
      token: owner.token,
      body: { name: 'Repeat API', base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: '/items' }] },
    });
    apiId = res.json.data.api.id;
    for (const [u, permission] of [
      [manager, 'manage'],
      [reader, 'read'],
    ] as const) {
      await tc.core.services.repos.shares.upsert(apiId, u.id, permission, tc.clock.now());
    }
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('offers nothing before a first scan, and repeating then says so', async () => {
    expect((await lastConfig(owner)).json.data.last).toBeNull();
    const res = await repeat(owner);
    expect([res.status, res.json.message]).toEqual([409, 'No earlier scan of this API to repeat: run one by hand first.']);
  });

  it('offers the last configuration without its secret, and repeats it with its keys', async () => {
    const created = await t.call<Json<{ scan_id: string }>>('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: KEY, rps: 7 } });
    expect(created.status).toBe(201);
    const offer = await lastConfig(owner);
    expect(offer.status).toBe(200);
    expect(offer.json.data.last).toMatchObject({ scan_id: created.json.data.scan_id, profile: 'OWASP_API_10', rps: 7, identities: [{ name: 'key 1', role: 'user' }] });
    expect(offer.text).not.toContain(KEY);

    const again = await repeat(owner);
    expect(again.status).toBe(201);
    expect(again.json.data.scan_id).not.toBe(created.json.data.scan_id);
    // The keys moved to the new scan: it is what is offered now, with the same options.
    expect((await lastConfig(owner)).json.data.last).toMatchObject({ scan_id: again.json.data.scan_id, rps: 7 });
    const row = await tc.core.services.repos.scans.findById(again.json.data.scan_id);
    expect(row?.status).toBe('created');
    expect(await tc.core.services.secrets.get(row!.secret_ref!)).toContain(KEY);
  });

  it("never offers or repeats someone else's configuration; read is refused", async () => {
    expect((await lastConfig(manager)).json.data.last).toBeNull();
    expect((await repeat(manager)).status).toBe(409);
    expect((await lastConfig(reader)).status).toBe(403);
    expect((await repeat(reader)).status).toBe(403);
  });
});
