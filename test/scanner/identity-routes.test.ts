// The identities through the API, over HTTP and IPC: a scan created with named identities (checked
// by the shared schema, secrets only in the SecretStore), the Test button's route and the defaults
// Configure Scan pre-fills, permissions, what a team server refuses, and a scheduled repeat that
// starts from the newest OAuth2 refresh token.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityDefaults, ScanDetails, TestIdentityData } from '../../shared/contract';
import type { WritePolicyData } from '../../shared/write-policy';
import type { IdentityInput } from '../../shared/identities';
import { API_MESSAGES } from '../../shared/messages';
import { importApiDocument } from '../../electron/importer/index';
import { parseStoredIdentities } from '../../electron/scanner/service';
import { startTarget, type Target } from '../targets';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

/**
 * The operations the scans here run on (the rest are SKIP, as a user flags them): what is proven is who
 * the scan spoke as, not what it found, and a scan of every route takes 15 s or more.
 */
const SCANNED = ['GET /me', 'GET /notes'];
const onlyScanned = <E extends { method: string; path: string; flags: string[] }>(endpoints: E[]): E[] =>
  endpoints.map((e) => (SCANNED.includes(`${e.method} ${e.path}`) ? e : { ...e, flags: [...e.flags, 'SKIP'] }));

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

describe.each(['http', 'ipc'] as const)('identity routes over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let target: Target;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;
  /** The same API with only SCANNED to scan. */
  let quickApiId: string;

  const alice = (): IdentityInput => ({ name: 'alice', login: { request: { path: '/auth/login', json: { username: 'alice', password: target.users.alice.password } }, token: { from: 'body', pointer: '/accessToken' } } });
  const bob = (): IdentityInput => ({ name: 'bob', login: { request: { path: '/auth/login', json: { username: 'bob', password: target.users.bob.password } }, token: { from: 'body', pointer: '/accessToken' } } });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    target = await startTarget({ mode: 'hardened' });
    [owner, reader, stranger] = [await signUpAndLogin(t, 'owner'), await signUpAndLogin(t, 'reader'), await signUpAndLogin(t, 'stranger')];
    const imported = importApiDocument(new TextEncoder().encode(target.specText), { filename: 'acme.yaml' });
    apiId = await tc.core.services.repos.apis.createWithEndpoints(
      { ownerId: owner.id, name: imported.name, baseUrl: target.baseUrl, sourceFormat: imported.format, sourceFilename: 'acme.yaml', specVersion: imported.spec_version, security: imported.security, endpoints: imported.endpoints },
      new Date(),
    );
    quickApiId = await tc.core.services.repos.apis.createWithEndpoints(
      { ownerId: owner.id, name: imported.name, baseUrl: target.baseUrl, sourceFormat: imported.format, sourceFilename: 'acme.yaml', specVersion: imported.spec_version, security: imported.security, endpoints: onlyScanned(imported.endpoints) },
      new Date(),
    );
    const now = new Date().toISOString();
    await tc.core.services.db.insertInto('shares').values([apiId, quickApiId].map((api_id) => ({ api_id, user_id: reader.id, permission: 'read', created_at: now, updated_at: now }))).execute();
  }, 30_000);
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  const create = (u: TestUser, body: Record<string, unknown>) => t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', rps: 0, ...body } });
  const testIdentity = (u: TestUser, identity: unknown) => t.call<Env<TestIdentityData>>('POST', '/api/scan/identity/test', { token: u.token, body: { api_id: apiId, identity } });

  it('creates a scan with named identities; the secrets go to the SecretStore, the config keeps only what is not secret', async () => {
    const c = await create(owner, { identities: [alice(), { ...bob(), role: 'user' }], signup: 'off' });
    expect(c.status, c.text).toBe(201);
    const row = (await tc.core.services.repos.scans.findById(c.json.data.scan_id))!;
    expect(row.config).not.toContain(target.users.alice.password);
    expect(JSON.parse(row.config)).toMatchObject({
      hasKey2: true,
      signup: 'off',
      identities: [
        { name: 'alice', role: 'user', obtained: 'login recipe (POST /auth/login)', placement: 'as the API declares' },
        { name: 'bob', role: 'user', obtained: 'login recipe (POST /auth/login)', placement: 'as the API declares' },
      ],
    });
    const stored = parseStoredIdentities((await tc.core.services.secrets.get(row.secret_ref!))!);
    expect(stored.identities.map((i) => i.name)).toEqual(['alice', 'bob']);
    expect(stored.identities[0]!.login!.request!.json).toEqual({ username: 'alice', password: target.users.alice.password });
  });

  it('tests one identity: who it is, the credential masked (no character of it), the steps', async () => {
    const ok = await testIdentity(owner, alice());
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ ok: true, verified_as: 'alice (GET /me)', message: 'Logged in as alice (GET /me).', cookies: [] });
    expect(ok.json.data.token).toMatch(/^•+ \(JWT, \d+ characters, expires in \d+ s\)$/);
    expect(ok.json.data.steps[0]).toBe('POST /api/v2/auth/login -> 200');
    expect(ok.json.data.placement).toMatch(/Bearer token in Authorization/);
    expect(ok.text).not.toContain(target.users.alice.password);
    expect(ok.text).not.toMatch(/eyJ[\w-]{6,}/);

    const wrong = await testIdentity(owner, { ...alice(), login: { ...alice().login, request: { path: '/auth/login', json: { username: 'alice', password: 'Not-Her-Password-1' } } } });
    expect(wrong.status).toBe(200);
    expect(wrong.json.data.ok).toBe(false);
    expect(wrong.json.data.message).toMatch(/^Could not log in: POST \/api\/v2\/auth\/login answered 401 /);
    expect(wrong.text).not.toContain('Not-Her-Password-1');
  });

  it('runs it: the result carries the identity table', async () => {
    const c = await t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', { token: owner.token, body: { api_id: quickApiId, scan_profile: 'owasp', rps: 0, identities: [alice(), bob()], signup: 'off' } });
    expect(c.status, c.text).toBe(201);
    await t.call('POST', '/api/scan/start', { token: owner.token, body: { api_id: quickApiId, scan_id: c.json.data.scan_id } });
    await tc.core.services.scans.wait(c.json.data.scan_id);
    const d = await t.call<Env<ScanDetails>>('POST', '/api/scan/details', { token: reader.token, body: { scan_id: c.json.data.scan_id } });
    expect(d.json.data.status).toBe('completed');
    expect(d.json.data.results.scan_info.requests_sent).toBeGreaterThan(0);
    expect(d.json.data.results.scan_info.identities).toEqual([
      { name: 'alice', role: 'user', obtained: 'login recipe (POST /auth/login)', verified_as: 'alice (GET /me)', refreshes: 0, failures: 0, created: false },
      { name: 'bob', role: 'user', obtained: 'login recipe (POST /auth/login)', verified_as: 'bob (GET /me)', refreshes: 0, failures: 0, created: false },
    ]);
    expect(d.text).not.toContain(target.users.alice.password);
  });

  it('checks identities with the shared schema, naming the field', async () => {
    const bad = await create(owner, { identities: [{ name: 'alice', login: { request: { path: '/auth/login' }, token: { from: 'body' } } }] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toContainEqual({ field: 'identities.0.login.token.pointer', message: 'from: body needs pointer.' });
    const none = await create(owner, {});
    expect(none.status).toBe(400);
    expect(none.json.errors).toContainEqual({ field: 'api_key_1', message: API_MESSAGES.primaryKeyRequired });
    const twice = await create(owner, { identities: [alice(), alice()] });
    expect(twice.status).toBe(400);
    expect(twice.json.message).toBe('identities.1.name: Two identities are named "alice".');
  });

  it('keeps the objects each identity owns and the write policy, checked on the server, and lists what looks destructive', async () => {
    const bad = await create(owner, { identities: [{ ...alice(), objects: { 'GET /receipts/{receiptId}': ['MTAwMQ=='] } }] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors?.[0]?.field).toBe('identities.0.objects.GET /receipts/{receiptId}');
    expect(bad.json.errors?.[0]?.message).toMatch(/^Name each object under objects by its path as the spec writes it/);
    const tooMany = await create(owner, { identities: [{ ...alice(), objects: { '/notes/{noteId}': Array.from({ length: 51 }, (_, i) => i) } }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.errors).toContainEqual({ field: 'identities.0.objects./notes/{noteId}', message: 'At most 50 ids per path under objects.' });
    const unasked = await create(owner, { identities: [alice()], destructive_operations: ['GET /maintenance/reset'] });
    expect(unasked.status).toBe(400);
    expect(unasked.json.message).toMatch(/destructive names operations only in a scan with `writes: existing`/);

    const policy = await t.call<Env<WritePolicyData>>('POST', '/api/scan/write-policy', { token: owner.token, body: { api_id: apiId } });
    expect(policy.status).toBe(200);
    expect(policy.json.data.local).toBe(true);
    expect(policy.json.data.operations).toContainEqual({ operation: 'GET /maintenance/reset', kind: 'wipe', reason: "its name says it wipes or re-creates the API's data" });
    expect((await t.call('POST', '/api/scan/write-policy', { token: stranger.token, body: { api_id: apiId } })).status).toBe(404);

    const c = await create(owner, {
      identities: [{ ...alice(), objects: { '/receipts/{receiptId}': ['MTAwMQ=='] } }, bob()],
      signup: 'off',
      allow_existing_objects: true,
      destructive_operations: ['GET /maintenance/reset'],
      seed: 4242,
    });
    expect(c.status, c.text).toBe(201);
    const row = (await tc.core.services.repos.scans.findById(c.json.data.scan_id))!;
    const stored = parseStoredIdentities((await tc.core.services.secrets.get(row.secret_ref!))!);
    expect(stored.identities[0]!.objects).toEqual({ '/receipts/{receiptId}': ['MTAwMQ=='] });
    const details = await t.call<Env<ScanDetails>>('POST', '/api/scan/details', { token: owner.token, body: { scan_id: c.json.data.scan_id } });
    expect(details.json.data.results.scan_info).toMatchObject({ writes: 'existing', destructive: ['GET /maintenance/reset'], seed: 4242 });
  });

  it('refuses what a team server must not do: run a command, read its own environment', async () => {
    const cmd = await create(owner, { identities: [{ name: 'ci', command: 'cat /etc/hostname' }] });
    expect(cmd.status).toBe(400);
    expect(cmd.json.message).toBe('A command cannot obtain credentials on a team server: use a login recipe, OAuth2, a cookie session or a static token.');
    const env = await create(owner, { identities: [{ name: 'ci', token: '${env:PORTCULLIS_SECRET_KEY}' }] });
    expect(env.status).toBe(400);
    expect(env.json.message).toBe('Fill in ${env:PORTCULLIS_SECRET_KEY}: only the CLI reads values from its environment.');
    // The sign-up operation is part of the configuration too: a reference there is refused the same way.
    const signup = await create(owner, { identities: [alice()], signup: { operation: 'POST /${env:SIGNUP_PATH}' } });
    expect(signup.status).toBe(400);
    expect(signup.json.message).toBe('Fill in ${env:SIGNUP_PATH}: only the CLI reads values from its environment.');
  });

  it('gives the defaults Configure Scan pre-fills', async () => {
    const d = await t.call<Env<IdentityDefaults>>('POST', '/api/scan/identity/defaults', { token: owner.token, body: { api_id: apiId } });
    expect(d.status).toBe(200);
    expect(d.json.data).toMatchObject({ signup_operation: 'POST /auth/signup', login_operation: 'POST /auth/login', token_url: target.oauth.tokenUrl, signup_default: 'auto', commands_allowed: false });
    expect(d.json.data.placement).toMatch(/^Bearer token in Authorization \(security scheme "bearerAuth"\)/);
  });

  it('lets only owner and manage test identities or read the defaults', async () => {
    expect((await testIdentity(reader, alice())).status).toBe(403);
    expect((await testIdentity(stranger, alice())).status).toBe(404);
    expect((await t.call('POST', '/api/scan/identity/defaults', { token: reader.token, body: { api_id: apiId } })).status).toBe(403);
    expect((await t.call('POST', '/api/scan/identity/defaults', { body: { api_id: apiId } })).status).toBe(401);
  });

  it('a scheduled repeat starts from the newest OAuth2 refresh token (they rotate)', async () => {
    // A target of its own: the first scan's login bursts run last and may throttle sign-ins for a minute.
    const own = await startTarget({ mode: 'hardened' });
    const imported = importApiDocument(new TextEncoder().encode(own.specText), { filename: 'acme.yaml' });
    const ownApi = await tc.core.services.repos.apis.createWithEndpoints(
      { ownerId: owner.id, name: 'own', baseUrl: own.baseUrl, sourceFormat: imported.format, sourceFilename: 'acme.yaml', specVersion: imported.spec_version, security: imported.security, endpoints: onlyScanned(imported.endpoints) },
      new Date(),
    );
    try {
      await scheduledRepeat(own, ownApi);
    } finally {
      await own.close();
    }
  }, 60_000);

  async function scheduledRepeat(target: Target, apiId: string): Promise<void> {
    // A static key for alice: the first scan's login bursts throttle password sign-ins (not refresh grants) for a minute.
    const alice = (): IdentityInput => ({ name: 'alice', token: target.users.alice.key });
    const create = (u: TestUser, body: Record<string, unknown>) => t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', rps: 0, ...body } });
    const web = target.oauth.clients.web.clientId;
    const first = (await fetch(target.oauth.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'bob', password: target.users.bob.password, client_id: web }).toString(),
    }).then((r) => r.json())) as { refresh_token: string };
    const c = await create(owner, { identities: [alice(), { name: 'bob', oauth2: { grant: 'refresh_token', client_id: web, refresh_token: first.refresh_token } }], signup: 'off' });
    await t.call('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_id: c.json.data.scan_id } });
    await tc.core.services.scans.wait(c.json.data.scan_id);
    expect((await tc.core.services.repos.scans.findById(c.json.data.scan_id))!.status).toBe('completed');
    const again = await tc.core.services.scans.createFromPrevious(owner.id, apiId);
    const row = (await tc.core.services.repos.scans.findById(again))!;
    const stored = parseStoredIdentities((await tc.core.services.secrets.get(row.secret_ref!))!);
    expect(stored.identities[1]!.oauth2!.refresh_token).not.toBe(first.refresh_token);
    await tc.core.services.scans.start(owner.id, { apiId, scanId: again });
    await tc.core.services.scans.wait(again);
    const d = await tc.core.services.scans.details(again);
    expect(d.status, d.results.scan_info.failure_reason ?? '').toBe('completed');
    expect(d.results.scan_info.identities[1]).toMatchObject({ name: 'bob', obtained: 'OAuth2 refresh token grant', verified_as: 'bob (GET /me)' });
  }
});
