// POST /api/endpoints/flags/bulk over both transports (issue 17): one flag switched for every endpoint
// of an API, or for the listed ones, in one transaction; owner and manage only; ids of another API's
// endpoints are refused and nothing is written.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T; errors?: { field: string; message: string }[] };

describe.each(['http', 'ipc'] as const)('bulk flags over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let reader: TestUser;
  let apiId: string;
  let otherApiId: string;

  const manual = async (name: string, n: number) => {
    const res = await t.call<Json<{ api: { id: string } }>>('POST', '/api/apis/manual', {
      token: owner.token,
      body: { name, base_url: 'https://api.example.com', endpoints: Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/items/${i}` })) },
    });
    expect(res.status, res.json.message).toBe(201);
    return res.json.data.api.id;
  };
  const endpoints = async (id: string) => (await t.call<Json<{ endpoints: Endpoint[] }>>('POST', '/api/endpoints', { token: owner.token, body: { api_id: id } })).json.data.endpoints;
  const bulk = (u: TestUser, body: Record<string, unknown>) => t.call<Json<{ changed: number }>>('POST', '/api/endpoints/flags/bulk', { token: u.token, body });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    reader = await signUpAndLogin(t, 'reader');
    apiId = await manual('Bulk API', 30);
    otherApiId = await manual('Other API', 2);
    await tc.core.services.repos.shares.upsert(apiId, reader.id, 'read', tc.clock.now());
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('switches a flag on for every endpoint, then off for the listed ones', async () => {
    const on = await bulk(owner, { api_id: apiId, flags: 'SKIP', on: true });
    expect([on.status, on.json.message, on.json.data.changed]).toEqual([200, 'Flag SKIP added to 30 endpoints.', 30]);
    expect((await endpoints(apiId)).every((e) => e.flags.includes('SKIP'))).toBe(true);
    // Again: nothing changes.
    expect((await bulk(owner, { api_id: apiId, flags: 'SKIP', on: true })).json.data.changed).toBe(0);

    const some = (await endpoints(apiId)).slice(0, 3).map((e) => e.id);
    const off = await bulk(owner, { api_id: apiId, flags: 'SKIP', on: false, endpoint_ids: some });
    expect([off.status, off.json.message]).toEqual([200, 'Flag SKIP removed from 3 endpoints.']);
    const after = await endpoints(apiId);
    expect(after.filter((e) => !e.flags.includes('SKIP')).map((e) => e.id).sort()).toEqual([...some].sort());
    // Other flags are untouched, and the other API too.
    expect((await endpoints(otherApiId)).every((e) => !e.flags.includes('SKIP'))).toBe(true);
  });

  it('refuses readers, unknown flags and endpoints of another API (writing nothing)', async () => {
    expect((await bulk(reader, { api_id: apiId, flags: 'BOLA', on: false })).status).toBe(403);
    expect((await bulk(owner, { api_id: apiId, flags: 'NOPE', on: true })).status).toBe(400);
    expect((await bulk(owner, { api_id: apiId, flags: 'BOLA', on: 'yes' })).status).toBe(400);
    const before = await endpoints(apiId);
    const foreign = (await endpoints(otherApiId))[0]!.id;
    const mixed = await bulk(owner, { api_id: apiId, flags: 'BFLA', on: true, endpoint_ids: [before[5]!.id, foreign] });
    expect([mixed.status, mixed.json.message]).toEqual([400, "endpoint_ids must list this API's endpoints (at most 100,000)."]);
    expect(await endpoints(apiId)).toEqual(before);
    expect((await endpoints(otherApiId))[0]!.flags).not.toContain('BFLA');
  });
});
