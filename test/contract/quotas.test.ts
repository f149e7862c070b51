// Per-user quotas (issue 18, item 6): APIs, endpoints and stored bytes a user owns are bounded; a
// refusal is 413 with a message naming the limit, writes nothing, and is the same over both
// transports. Deleting frees quota, shares count for their owner only, parallel imports cannot both
// slip under the limit.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatQuotaBytes, QUOTA_MESSAGES } from '../../shared/api-messages';
import type { ApiSummary, ImportData, UsageData } from '../../shared/contract';
import type { QuotaLimits } from '../../electron/store/quotas';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
}

/** An OpenAPI 3 document with `count` GET operations, each summary `summaryLength` characters. */
function spec(count: number, summaryLength = 10): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    paths[`/items${i}`] = { get: { summary: 's'.repeat(summaryLength), responses: { 200: { description: 'ok' } } } };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: `Spec of ${count}`, version: '1' }, servers: [{ url: 'https://example.com' }], paths });
}

function upload(t: Transport, u: TestUser, document: string, name = 'spec.json') {
  const form = new FormData();
  form.append('file', new File([document], name));
  form.append('user_id', u.id);
  return t.call<Env<ImportData>>('POST', '/api/import', { token: u.token, raw: form });
}

function manual(t: Transport, u: TestUser, name: string, endpoints = 1) {
  return t.call<Env<ImportData>>('POST', '/api/apis/manual', {
    token: u.token,
    body: { name, base_url: 'https://example.com', endpoints: Array.from({ length: endpoints }, (_, i) => ({ method: 'GET', path: `/e${i}` })) },
  });
}

async function ownApis(t: Transport, u: TestUser): Promise<ApiSummary[]> {
  const res = await t.call<Env<{ apis: ApiSummary[] }>>('GET', '/api/apis', { token: u.token });
  return res.json.data.apis.filter((a) => a.permission === 'owner');
}

async function usage(t: Transport, u: TestUser): Promise<UsageData> {
  const res = await t.call<Env<UsageData>>('GET', '/api/user/usage', { token: u.token });
  expect(res.status).toBe(200);
  return res.json.data;
}

/** Rows in the store for the user, whatever the routes show: a refusal must leave none behind. */
async function storedRows(tc: TestCore, userId: string): Promise<{ apis: number; endpoints: number }> {
  const db = tc.core.services.db;
  const apis = await db.selectFrom('apis').where('owner_id', '=', userId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const endpoints = await db
    .selectFrom('endpoints')
    .innerJoin('apis', 'apis.id', 'endpoints.api_id')
    .where('apis.owner_id', '=', userId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { apis: Number(apis.n), endpoints: Number(endpoints.n) };
}

function withCore(kind: 'http' | 'ipc', quotas: Partial<QuotaLimits>): { tc: () => TestCore; t: () => Transport } {
  let tc: TestCore;
  let t: Transport;
  beforeAll(async () => {
    tc = await createTestCore({ quotas: { apis: 0, endpoints: 0, bytes: 0, ...quotas } });
    t = await openTransport(kind, tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });
  return { tc: () => tc, t: () => t };
}

describe.each(['http', 'ipc'] as const)('quotas over %s', (kind) => {
  describe('APIs per user', () => {
    const env = withCore(kind, { apis: 2 });

    it('refuses the third API, by hand or by import, with 413 and the limit; deleting one frees its place', async () => {
      const t = env.t();
      const u = await signUpAndLogin(t, 'quota');
      expect((await manual(t, u, 'One')).status).toBe(201);
      const second = await upload(t, u, spec(2));
      expect(second.status).toBe(201);

      const third = await manual(t, u, 'Three');
      expect(third.status).toBe(413);
      expect(third.json).toEqual({ success: false, message: QUOTA_MESSAGES.apis(2) });
      expect(third.json.message).toContain('PORTCULLIS_QUOTA_APIS');
      const thirdImport = await upload(t, u, spec(1));
      expect(thirdImport.status).toBe(413);
      expect(thirdImport.json.message).toBe(QUOTA_MESSAGES.apis(2));
      expect(await storedRows(env.tc(), u.id)).toEqual({ apis: 2, endpoints: 3 });

      const gone = await t.call('DELETE', '/api/apis/delete', { token: u.token, body: { api_id: second.json.data.api.id } });
      expect(gone.status).toBe(200);
      expect((await upload(t, u, spec(1))).status).toBe(201);
      expect((await ownApis(t, u)).length).toBe(2);
    });

    it('counts shared APIs for their owner only', async () => {
      const t = env.t();
      const owner = await signUpAndLogin(t, 'sharer');
      const friend = await signUpAndLogin(t, 'friend');
      for (const name of ['A', 'B']) {
        const made = await manual(t, owner, name);
        expect(made.status).toBe(201);
        const shared = await t.call('POST', '/api/apis/share', {
          token: owner.token,
          body: { api_id: made.json.data.api.id, email: friend.email, permission: 'manage' },
        });
        expect(shared.status).toBe(201);
      }
      // The friend sees two APIs and still has room for two of their own.
      expect((await usage(t, friend)).usage).toEqual({ apis: 0, endpoints: 0, bytes: 0 });
      expect((await manual(t, friend, 'Mine 1')).status).toBe(201);
      expect((await manual(t, friend, 'Mine 2')).status).toBe(201);
      expect((await manual(t, friend, 'Mine 3')).status).toBe(413);
      expect((await manual(t, owner, 'C')).status).toBe(413);
    });

    it('lets only one of several parallel imports take the last place', async () => {
      const t = env.t();
      const u = await signUpAndLogin(t, 'racer');
      expect((await manual(t, u, 'First')).status).toBe(201);
      // Uploads and hand-typed APIs at once: each would fit alone, one place is left.
      const results = await Promise.all([
        upload(t, u, spec(3)),
        ...Array.from({ length: 6 }, (_, i) => manual(t, u, `Hand ${i}`, 1 + (i % 3))),
        upload(t, u, spec(4)),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 413, 413, 413, 413, 413, 413, 413]);
      for (const r of results.filter((x) => x.status === 413)) expect(r.json.message).toBe(QUOTA_MESSAGES.apis(2));
      const rows = await storedRows(env.tc(), u.id);
      expect(rows.apis).toBe(2);
      expect((await usage(t, u)).usage.apis).toBe(2);
    });
  });

  describe('endpoints per user', () => {
    const env = withCore(kind, { endpoints: 5 });

    it('refuses an import with more endpoints than remain, and stores nothing of it', async () => {
      const t = env.t();
      const u = await signUpAndLogin(t, 'endpoints');
      const big = await upload(t, u, spec(6));
      expect(big.status).toBe(413);
      expect(big.json.message).toBe(QUOTA_MESSAGES.endpoints(5, 0, 6));
      expect(big.json.message).toContain('PORTCULLIS_QUOTA_ENDPOINTS');
      expect(await storedRows(env.tc(), u.id)).toEqual({ apis: 0, endpoints: 0 });

      expect((await upload(t, u, spec(3))).status).toBe(201);
      const tooMany = await manual(t, u, 'Three more', 3);
      expect(tooMany.status).toBe(413);
      expect(tooMany.json.message).toBe(QUOTA_MESSAGES.endpoints(5, 3, 3));
      expect(await storedRows(env.tc(), u.id)).toEqual({ apis: 1, endpoints: 3 });

      expect((await manual(t, u, 'Two more', 2)).status).toBe(201);
      // At the limit: refused before the file is read, so the message cannot say what it would add.
      const full = await upload(t, u, spec(1));
      expect(full.status).toBe(413);
      expect(full.json.message).toBe(QUOTA_MESSAGES.endpoints(5, 5));
      expect((await usage(t, u)).usage).toMatchObject({ apis: 2, endpoints: 5 });
    });
  });

  describe('stored bytes per user', () => {
    const limit = 8 * 1024;
    const env = withCore(kind, { bytes: limit });

    it('refuses an API whose definition would pass the storage limit, and reports usage and limits', async () => {
      const t = env.t();
      const u = await signUpAndLogin(t, 'bytes');
      expect(await usage(t, u)).toEqual({ usage: { apis: 0, endpoints: 0, bytes: 0 }, limits: { apis: null, endpoints: null, bytes: limit } });

      const small = await upload(t, u, spec(2, 100));
      expect(small.status).toBe(201);
      const used = (await usage(t, u)).usage.bytes;
      expect(used).toBeGreaterThan(2 * 100);
      expect(used).toBeLessThan(limit);

      const large = await upload(t, u, spec(20, 500));
      expect(large.status).toBe(413);
      expect(large.json.message).toMatch(new RegExp(`^This API would exceed your storage limit of ${formatQuotaBytes(limit)}: your APIs use ${formatQuotaBytes(used)} and it needs [\\d.]+ KB\\.`));
      expect(large.json.message).toContain('PORTCULLIS_QUOTA_BYTES');
      expect(await storedRows(env.tc(), u.id)).toEqual({ apis: 1, endpoints: 2 });
      expect((await usage(t, u)).usage.bytes).toBe(used);

      // Deleting gives the bytes back.
      const gone = await t.call('DELETE', '/api/apis/delete', { token: u.token, body: { api_id: small.json.data.api.id } });
      expect(gone.status).toBe(200);
      expect((await usage(t, u)).usage).toEqual({ apis: 0, endpoints: 0, bytes: 0 });
      expect((await upload(t, u, spec(10, 500))).status).toBe(201);
    });

    it('answers the usage route only with a session', async () => {
      const res = await env.t().call('GET', '/api/user/usage');
      expect(res.status).toBe(401);
    });
  });
});
