// The API, import, endpoint and flag routes over both transports (real HTTP and the IPC bridge),
// on a real SQLite file: responses, validation, the permission table of spec section 6, the
// 25 MB limit and the cascading delete.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS_MESSAGES } from '../../shared/api-messages';
import { FLAGS, IMPORT_MAX_BYTES } from '../../shared/constants';
import type { ApiSummary, Endpoint, ImportData } from '../../shared/contract';
import { API_MESSAGES, SERVER_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { readFixture } from '../importer/fixture-files';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

describe.each(['http', 'ipc'] as const)('API routes over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let reader: TestUser;
  let manager: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    reader = await signUpAndLogin(t, 'reader');
    manager = await signUpAndLogin(t, 'manager');
    stranger = await signUpAndLogin(t, 'stranger');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  const db = () => tc.core.services.db;

  function upload(u: TestUser, name: string, bytes: Uint8Array | Buffer, extra: Record<string, string> = {}) {
    const form = new FormData();
    form.append('file', new File([new Uint8Array(bytes)], name));
    form.append('user_id', u.id);
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    return t.call<Env<ImportData>>('POST', '/api/import', { token: u.token, raw: form });
  }

  async function importPetstore(u: TestUser = owner): Promise<ImportData> {
    const res = await upload(u, 'oai-petstore-3.0.yaml', readFixture('oai-petstore-3.0.yaml'));
    expect(res.status).toBe(201);
    return res.json.data;
  }

  async function share(apiId: string, u: TestUser, permission: 'read' | 'manage') {
    await tc.core.services.repos.shares.upsert(apiId, u.id, permission, new Date());
  }

  const endpointsOf = (u: TestUser, apiId: string) =>
    t.call<Env<{ endpoints: Endpoint[] }>>('POST', '/api/endpoints', { token: u.token, body: { api_id: apiId, user_id: u.id } });

  describe('POST /api/import', () => {
    it('imports a file into one API with its endpoints and answers with the spec\'s message', async () => {
      const res = await upload(owner, 'oai-petstore-3.0.yaml', readFixture('oai-petstore-3.0.yaml'));
      expect(res.status).toBe(201);
      expect(res.json.success).toBe(true);
      expect(res.json.message).toBe('API from "oai-petstore-3.0.yaml" imported successfully.');
      const { api, endpoint_count, warnings, format } = res.json.data;
      expect({ endpoint_count, warnings, format }).toEqual({ endpoint_count: 3, warnings: [], format: 'openapi-3.0' });
      expect(api).toMatchObject({
        name: 'Swagger Petstore',
        base_url: 'http://petstore.swagger.io/v1',
        permission: 'owner',
        owner_name: `${owner.firstName} ${owner.lastName}`,
        scanStatus: 'Ready',
        lastScanned: 'Never',
        vulnerabilitiesFound: 0,
        status: 'Active',
        source_format: 'openapi-3.0',
        endpoint_count: 3,
      });
      expect(api.created_at).toBe(api.imported_on);
      const stored = await db().selectFrom('apis').selectAll().where('id', '=', api.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ owner_id: owner.id, source_filename: 'oai-petstore-3.0.yaml', spec_version: '3.0.0' });
      const list = await endpointsOf(owner, api.id);
      expect(list.json.data.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /pets', 'POST /pets', 'GET /pets/{petId}']);
      expect(list.json.data.endpoints[2]!.flags).toContain('BOLA');
    });

    it('returns per-operation warnings (external refs of the multi-file petstore)', async () => {
      const res = await upload(owner, 'swagger.yaml', readFixture('oai-petstore-separate-swagger-2.0/spec/swagger.yaml'));
      expect(res.status).toBe(201);
      expect(res.json.data.endpoint_count).toBe(4);
      expect(res.json.data.warnings.length).toBeGreaterThanOrEqual(5);
      expect(res.json.data.warnings[0]).toEqual({
        location: '/paths/~1pets/get',
        message: 'External $ref "parameters.yaml#/tagsParam" was not followed: an import never reads other files or URLs.',
      });
    });

    it('detects the format by content, whatever the extension', async () => {
      const res = await upload(owner, 'collection.yaml', readFixture('newman-echo-v2.0.postman_collection.json'));
      expect(res.status).toBe(201);
      expect(res.json.data.format).toBe('postman-2.0');
      expect(res.json.data.endpoint_count).toBe(22);
    });

    it('answers 400 "Please select a file." without a file', async () => {
      const form = new FormData();
      form.append('user_id', owner.id);
      const res = await t.call<Env<never>>('POST', '/api/import', { token: owner.token, raw: form });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ success: false, message: API_MESSAGES.selectFile, errors: [{ field: 'file', message: API_MESSAGES.selectFile }] });
      const json = await t.call<Env<never>>('POST', '/api/import', { token: owner.token, body: { user_id: owner.id } });
      expect(json.status).toBe(400);
      expect(json.json.message).toBe(APIS_MESSAGES.notMultipart);
    });

    it('answers 400 naming the line and column of a syntax error, and stores nothing', async () => {
      const before = await db().selectFrom('apis').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const res = await upload(owner, 'broken.json', Buffer.from('{\n  "openapi": "3.0.0",\n  "info": {"title": "x",}\n}'));
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/^The file is not valid JSON: .* \(at line 3, column 25\)\.$/);
      expect(res.json.errors).toEqual([{ field: 'file', message: res.json.message }]);
      const after = await db().selectFrom('apis').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('answers 400 for an empty file and for a file that is not an API description', async () => {
      expect((await upload(owner, 'empty.json', Buffer.alloc(0))).json.message).toBe(APIS_MESSAGES.fileEmpty);
      const res = await upload(owner, 'pic.json', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]));
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/not valid UTF-8/);
    });

    it('answers 400 for an alias bomb and deep nesting, and leaves an external $ref unresolved', async () => {
      const levels = ['a: &a [x,x,x,x,x,x,x,x,x,x]'];
      for (let i = 1; i < 9; i += 1) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
      const bomb = await upload(owner, 'bomb.yaml', Buffer.from(`openapi: 3.0.0\ninfo: {title: b, version: "1"}\npaths: {}\n${levels.join('\n')}\n`));
      expect(bomb.status).toBe(400);
      expect(bomb.json.message).toMatch(/YAML aliases expand this file/);
      const deep = await upload(owner, 'deep.json', Buffer.from(`{"openapi":"3.0.0","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`));
      expect(deep.status).toBe(400);
      expect(deep.json.message).toMatch(/nests deeper than 256 levels \(at \/x\/0\/0\/0/);
      const external = await upload(
        owner,
        'ext.json',
        Buffer.from(JSON.stringify({ openapi: '3.0.0', info: { title: 'e', version: '1' }, paths: { '/a': { get: { responses: { '200': { $ref: 'file:///etc/passwd' } } } } } })),
      );
      expect(external.status).toBe(201);
      expect(external.json.data.warnings).toEqual([
        { location: '/servers/0/url', message: 'The file gives no server URL; set the base URL (Edit API) before scanning.' },
        { location: '/paths/~1a/get', message: 'External $ref "file:///etc/passwd" was not followed: an import never reads other files or URLs.' },
      ]);
    });

    it('answers 400 for a malformed multipart body', async () => {
      const res = await t.call<Env<never>>('POST', '/api/import', {
        token: owner.token,
        headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
        raw: 'this is not multipart',
      });
      expect(res.status).toBe(400);
      expect(res.json.success).toBe(false);
    });

    it('refuses a user_id that is not the caller (403) and a missing session (401)', async () => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(readFixture('oai-petstore-3.0.yaml'))], 'p.yaml'));
      form.append('user_id', stranger.id);
      expect((await t.call('POST', '/api/import', { token: owner.token, raw: form })).status).toBe(403);
      const anon = new FormData();
      anon.append('file', new File([new Uint8Array(readFixture('oai-petstore-3.0.yaml'))], 'p.yaml'));
      expect((await t.call('POST', '/api/import', { raw: anon })).status).toBe(401);
    });

    it('answers 413 with a clear message above 25 MB', async () => {
      const justOver = Buffer.alloc(IMPORT_MAX_BYTES + 1, 0x20);
      const res = await upload(owner, 'big.json', justOver);
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ success: false, message: SERVER_MESSAGES.importTooLarge });
      const farOver = Buffer.alloc(IMPORT_MAX_BYTES + 2 * 1024 * 1024, 0x20);
      const res2 = await upload(owner, 'bigger.json', farOver);
      expect(res2.status).toBe(413);
      expect(res2.json.message).toBe(SERVER_MESSAGES.importTooLarge);
    }, 60_000);
  });

  describe('POST /api/apis/manual', () => {
    it('creates an API from endpoints typed by hand', async () => {
      const res = await t.call<Env<ImportData>>('POST', '/api/apis/manual', {
        token: owner.token,
        body: {
          user_id: owner.id,
          name: '  Local shop ',
          base_url: 'http://localhost:3000/api/',
          endpoints: [
            { method: 'get', path: '/users/:id', summary: 'One user' },
            { method: 'POST', path: '/checkout' },
            { method: 'DELETE', path: '/admin/users/{userId}' },
          ],
        },
      });
      expect(res.status).toBe(201);
      expect(res.json.message).toBe('API "Local shop" created with 3 endpoints.');
      expect(res.json.data.format).toBe('manual');
      expect(res.json.data.api).toMatchObject({ name: 'Local shop', base_url: 'http://localhost:3000/api', source_format: 'manual', endpoint_count: 3 });
      const eps = (await endpointsOf(owner, res.json.data.api.id)).json.data.endpoints;
      expect(eps.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /users/{id}', 'POST /checkout', 'DELETE /admin/users/{userId}']);
      expect(eps[0]).toMatchObject({ summary: 'One user', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] });
      expect(eps[0]!.flags).toContain('BOLA');
      expect(eps[1]!.flags).toEqual(expect.arrayContaining(['UABF', 'BOPLA']));
      expect(eps[2]!.flags).toContain('BFLA');
    });

    it.each([
      [{ name: '', base_url: 'https://x.test', endpoints: [{ method: 'GET', path: '/a' }] }, 'name', APIS_MESSAGES.nameRequired],
      [{ name: 'x', base_url: 'ftp://x.test', endpoints: [{ method: 'GET', path: '/a' }] }, 'base_url', APIS_MESSAGES.baseUrlInvalid],
      [{ name: 'x', base_url: 'javascript:alert(1)', endpoints: [{ method: 'GET', path: '/a' }] }, 'base_url', APIS_MESSAGES.baseUrlInvalid],
      [{ name: 'x', base_url: 'https://x.test', endpoints: [] }, 'endpoints', APIS_MESSAGES.endpointsRequired],
      [{ name: 'x', base_url: 'https://x.test', endpoints: 'GET /a' }, 'endpoints', APIS_MESSAGES.endpointsRequired],
      [{ name: 'x', base_url: 'https://x.test', endpoints: [{ method: 'FETCH', path: '/a' }] }, 'endpoints.0.method', APIS_MESSAGES.methodInvalid],
      [{ name: 'x', base_url: 'https://x.test', endpoints: [{ method: 'GET', path: 'a' }] }, 'endpoints.0.path', APIS_MESSAGES.pathInvalid],
      [{ name: 'x', base_url: 'https://x.test', endpoints: [{ method: 'GET', path: '/a?b=1' }] }, 'endpoints.0.path', APIS_MESSAGES.pathInvalid],
      [{ name: 'x', base_url: 'https://x.test', endpoints: [{ method: 'GET', path: '/a' }, { method: 'get', path: '/a/' }] }, 'endpoints.1.path', APIS_MESSAGES.duplicateEndpoint('GET', '/a')],
      [{ name: 'x'.repeat(201), base_url: 'https://x.test', endpoints: [{ method: 'GET', path: '/a' }] }, 'name', APIS_MESSAGES.nameTooLong],
    ])('refuses %j', async (body, field, message) => {
      const res = await t.call<Env<never>>('POST', '/api/apis/manual', { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.json.errors).toContainEqual({ field, message });
    });
  });

  describe('GET /api/apis', () => {
    it('lists what the caller owns or has been shared, never anyone else\'s', async () => {
      const mine = await importPetstore(owner);
      const theirs = await importPetstore(stranger);
      await share(mine.api.id, reader, 'read');
      const ownerList = await t.call<Env<{ apis: ApiSummary[] }>>('GET', `/api/apis?user_id=${owner.id}`, { token: owner.token });
      expect(ownerList.status).toBe(200);
      const ids = ownerList.json.data.apis.map((a) => a.id);
      expect(ids).toContain(mine.api.id);
      expect(ids).not.toContain(theirs.api.id);
      const readerList = await t.call<Env<{ apis: ApiSummary[] }>>('GET', '/api/apis', { token: reader.token });
      expect(readerList.json.data.apis.find((a) => a.id === mine.api.id)).toMatchObject({ permission: 'read', owner_name: `${owner.firstName} ${owner.lastName}` });
      expect(readerList.json.data.apis.map((a) => a.id)).not.toContain(theirs.api.id);
      expect((await t.call('GET', `/api/apis?user_id=${stranger.id}`, { token: owner.token })).status).toBe(403);
    });
  });

  describe('PUT /api/apis/update', () => {
    it('lets the owner change the title and base URL', async () => {
      const { api } = await importPetstore();
      const res = await t.call<Env<{ api: ApiSummary }>>('PUT', '/api/apis/update', {
        token: owner.token,
        body: { api_id: api.id, user_id: owner.id, updates: { title: ' Pets v2 ', base_url: 'https://pets.example.test/v2/' } },
      });
      expect(res.status).toBe(200);
      expect(res.json.message).toBe(API_MESSAGES.updated);
      expect(res.json.data.api).toMatchObject({ id: api.id, name: 'Pets v2', base_url: 'https://pets.example.test/v2' });
      const only = await t.call<Env<{ api: ApiSummary }>>('PUT', '/api/apis/update', { token: owner.token, body: { api_id: api.id, updates: { title: 'Pets v3' } } });
      expect(only.json.data.api).toMatchObject({ name: 'Pets v3', base_url: 'https://pets.example.test/v2' });
    });

    it.each([
      [{ updates: { base_url: 'file:///etc/passwd' } }, 'updates.base_url', APIS_MESSAGES.baseUrlInvalid],
      [{ updates: { base_url: 'not a url' } }, 'updates.base_url', APIS_MESSAGES.baseUrlInvalid],
      [{ updates: { title: '   ' } }, 'updates.title', APIS_MESSAGES.titleRequired],
      [{ updates: { title: 42 } }, 'updates.title', APIS_MESSAGES.titleRequired],
      [{ updates: {} }, 'updates', APIS_MESSAGES.nothingToUpdate],
      [{}, 'updates', APIS_MESSAGES.updatesRequired],
    ])('refuses %j', async (body, field, message) => {
      const { api } = await importPetstore();
      const res = await t.call<Env<never>>('PUT', '/api/apis/update', { token: owner.token, body: { api_id: api.id, ...body } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toContainEqual({ field, message });
    });

    it('is for the owner only: 403 for shares, 404 for strangers and unknown ids', async () => {
      const { api } = await importPetstore();
      await share(api.id, reader, 'read');
      await share(api.id, manager, 'manage');
      const body = { api_id: api.id, updates: { title: 'Hijacked' } };
      expect((await t.call('PUT', '/api/apis/update', { token: reader.token, body })).status).toBe(403);
      expect((await t.call('PUT', '/api/apis/update', { token: manager.token, body })).status).toBe(403);
      const s = await t.call<Env<never>>('PUT', '/api/apis/update', { token: stranger.token, body });
      expect(s.status).toBe(404);
      expect(s.json.message).toBe('API not found.');
      expect((await t.call('PUT', '/api/apis/update', { token: owner.token, body: { ...body, api_id: 'nope' } })).status).toBe(404);
      const row = await db().selectFrom('apis').select('name').where('id', '=', api.id).executeTakeFirstOrThrow();
      expect(row.name).toBe('Swagger Petstore');
    });
  });

  describe('DELETE /api/apis/delete', () => {
    it('deletes the API with its endpoints, flags, scans, findings, schedule and shares', async () => {
      const { api } = await importPetstore();
      const other = await importPetstore();
      await share(api.id, reader, 'read');
      const at = new Date().toISOString();
      await db().insertInto('scans').values({ id: `scan-${api.id}`, api_id: api.id, user_id: owner.id, profile: 'OWASP_API_10', status: 'completed', created_at: at } as never).execute();
      await db()
        .insertInto('findings')
        .values({
          id: `f-${api.id}`, scan_id: `scan-${api.id}`, api_id: api.id, check_id: 'x', fingerprint: 'fp', vulnerability_name: 'v', severity: 'high',
          confidence: 'high', owasp: 'API1:2023', description: 'd', recommendation: 'r', cvss_vector: 'v', cvss_score: 7, method: 'GET', path: '/pets', evidence: 'Method: GET', created_at: at,
        } as never)
        .execute();
      await db().insertInto('schedules').values({ id: `s-${api.id}`, api_id: api.id, user_id: owner.id, frequency: 'daily', is_enabled: 1, created_at: at, updated_at: at }).execute();

      const forbidden = await t.call('DELETE', '/api/apis/delete', { token: reader.token, body: { api_id: api.id } });
      expect(forbidden.status).toBe(403);
      expect((await t.call('DELETE', '/api/apis/delete', { token: stranger.token, body: { api_id: api.id } })).status).toBe(404);

      const res = await t.call<Env<never>>('DELETE', '/api/apis/delete', { token: owner.token, body: { api_id: api.id, user_id: owner.id } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, message: 'API "Swagger Petstore" deleted successfully.' });
      const count = async (table: 'apis' | 'endpoints' | 'scans' | 'findings' | 'schedules' | 'shares', col: 'id' | 'api_id') =>
        Number((await db().selectFrom(table).select(db().fn.countAll<number>().as('n')).where(col, '=', api.id).executeTakeFirstOrThrow()).n);
      expect(await count('apis', 'id')).toBe(0);
      for (const table of ['endpoints', 'scans', 'findings', 'schedules', 'shares'] as const) expect(await count(table, 'api_id'), table).toBe(0);
      const orphanFlags = await db()
        .selectFrom('endpoint_flags')
        .select(db().fn.countAll<number>().as('n'))
        .where('endpoint_id', 'not in', db().selectFrom('endpoints').select('id'))
        .executeTakeFirstOrThrow();
      expect(Number(orphanFlags.n)).toBe(0);
      expect((await endpointsOf(owner, other.api.id)).json.data.endpoints).toHaveLength(3);
      expect((await t.call('DELETE', '/api/apis/delete', { token: owner.token, body: { api_id: api.id } })).status).toBe(404);
    });

    it('validates the body', async () => {
      const res = await t.call<Env<never>>('DELETE', '/api/apis/delete', { token: owner.token, body: {} });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'api_id', message: 'api_id is required.' }]);
    });
  });

  describe('POST /api/endpoints', () => {
    it('lists endpoints for any permission and hides the API from strangers', async () => {
      const { api } = await importPetstore();
      await share(api.id, reader, 'read');
      expect((await endpointsOf(reader, api.id)).json.data.endpoints).toHaveLength(3);
      const s = await endpointsOf(stranger, api.id);
      expect(s.status).toBe(404);
      expect(s.json.message).toBe('API not found.');
    });
  });

  describe('POST /api/endpoints/flags/add and /remove', () => {
    async function setup() {
      const { api } = await importPetstore();
      const eps = (await endpointsOf(owner, api.id)).json.data.endpoints;
      return { api, endpoint: eps[0]! };
    }
    const flag = (u: TestUser, action: 'add' | 'remove', body: Record<string, unknown>) =>
      t.call<Env<{ endpoint: Endpoint }>>('POST', `/api/endpoints/flags/${action}`, { token: u.token, body });

    it('adds and removes a flag, idempotently', async () => {
      const { api, endpoint } = await setup();
      expect(endpoint.flags).not.toContain('SKIP');
      const body = { api_id: api.id, user_id: owner.id, endpoint_id: endpoint.id, flags: 'SKIP' };
      const add = await flag(owner, 'add', body);
      expect(add.status).toBe(200);
      expect(add.json.message).toBe('Flag SKIP added.');
      expect(add.json.data.endpoint.flags.filter((f) => f === 'SKIP')).toHaveLength(1);
      const again = await flag(owner, 'add', body);
      expect(again.json.data.endpoint.flags.filter((f) => f === 'SKIP')).toHaveLength(1);
      const remove = await flag(owner, 'remove', body);
      expect(remove.json.message).toBe('Flag SKIP removed.');
      expect(remove.json.data.endpoint.flags).not.toContain('SKIP');
      expect((await flag(owner, 'remove', body)).status).toBe(200);
      const stored = (await endpointsOf(owner, api.id)).json.data.endpoints.find((e) => e.id === endpoint.id)!;
      expect(stored.flags).not.toContain('SKIP');
      expect(stored.flags).toEqual(expect.arrayContaining(endpoint.flags));
    });

    it.each(FLAGS)('accepts the flag %s', async (name) => {
      const { api, endpoint } = await setup();
      const res = await flag(owner, 'add', { api_id: api.id, endpoint_id: endpoint.id, flags: name });
      expect(res.status).toBe(200);
      expect(res.json.data.endpoint.flags).toContain(name);
    });

    it.each([['NOPE'], ['skip'], [['SKIP']], [null]])('refuses the flag %j', async (value) => {
      const { api, endpoint } = await setup();
      const res = await flag(owner, 'add', { api_id: api.id, endpoint_id: endpoint.id, flags: value });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'flags', message: APIS_MESSAGES.unknownFlag }]);
    });

    it('needs the endpoint to belong to the API', async () => {
      const { api } = await setup();
      const other = await setup();
      const res = await flag(owner, 'add', { api_id: api.id, endpoint_id: other.endpoint.id, flags: 'SKIP' });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(APIS_MESSAGES.endpointNotFound);
      const untouched = (await endpointsOf(owner, other.api.id)).json.data.endpoints[0]!;
      expect(untouched.flags).not.toContain('SKIP');
    });

    it('lets owner and manage set flags, but not a read share (403) or a stranger (404)', async () => {
      const { api, endpoint } = await setup();
      await share(api.id, reader, 'read');
      await share(api.id, manager, 'manage');
      const body = { api_id: api.id, endpoint_id: endpoint.id, flags: 'SKIP' };
      const r = await flag(reader, 'add', body);
      expect(r.status).toBe(403);
      expect(r.json.message).toBe(SERVER_MESSAGES.forbidden);
      expect((await flag(reader, 'remove', body)).status).toBe(403);
      expect((await flag(stranger, 'add', body)).status).toBe(404);
      expect((await flag(manager, 'add', body)).status).toBe(200);
      const stored = (await endpointsOf(owner, api.id)).json.data.endpoints.find((e) => e.id === endpoint.id)!;
      expect(stored.flags).toContain('SKIP');
    });
  });
});
