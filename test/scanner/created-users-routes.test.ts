// The users a scan registered, through the API (issue 30, item 5): their passwords are kept in the
// SecretStore (never in clear in the store, never in the details, an export or the log), shown by
// POST /api/scan/created-users to whoever may see the scan and to nobody else, and gone with the scan.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedUserWithPassword, ScanDetails } from '../../shared/contract';
import { importApiDocument } from '../../electron/importer/index';
import { scanAccountsRef } from '../../electron/secrets/index';
import { createTestCore, openTransport, signUpAndLogin, storedText, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { startTarget, type Target } from '../targets';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
}

/** The account routes, the sign-up with them (its own flaws: injection, mass assignment, the missing throttle). */
const ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login', 'PUT /users/{userId}/password', 'PUT /users/{userId}/email', 'DELETE /users/{userId}', 'GET /products'];
const FIXED_PASSWORDS = ['Portcullis-Passw0rd!', 'correct-horse-battery-staple'];

describe('the users a scan registered', () => {
  let tc: TestCore;
  let t: Transport;
  let target: Target;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;
  let scanId: string;
  let registered: { username: string; password: string }[];

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    target = await startTarget({ mode: 'vulnerable' });
    [owner, reader, stranger] = [await signUpAndLogin(t, 'owner'), await signUpAndLogin(t, 'reader'), await signUpAndLogin(t, 'stranger')];
    const imported = importApiDocument(new TextEncoder().encode(target.specText), { filename: 'acme.yaml' });
    apiId = await tc.core.services.repos.apis.createWithEndpoints(
      {
        ownerId: owner.id,
        name: imported.name,
        baseUrl: target.baseUrl,
        sourceFormat: imported.format,
        sourceFilename: 'acme.yaml',
        specVersion: imported.spec_version,
        security: imported.security,
        endpoints: imported.endpoints.filter((e) => ROUTES.includes(`${e.method} ${e.path}`)),
      },
      new Date(),
    );
    const now = new Date().toISOString();
    await tc.core.services.db.insertInto('shares').values([{ api_id: apiId, user_id: reader.id, permission: 'read', created_at: now, updated_at: now }]).execute();
    const c = await t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', {
      token: owner.token,
      body: { api_id: apiId, scan_profile: 'owasp', rps: 0, identities: [{ name: 'alice', token: target.users.alice.key }], signup: 'auto' },
    });
    expect(c.status, c.text).toBe(201);
    scanId = c.json.data.scan_id;
    await t.call('POST', '/api/scan/start', { token: owner.token, body: { api_id: apiId, scan_id: scanId } });
    await tc.core.services.scans.wait(scanId);
    registered = target.requests
      .filter((r) => r.method === 'POST' && r.path === '/api/v2/auth/signup' && r.status === 201)
      .map((r) => JSON.parse(r.body!) as { username: string; password: string });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  const createdUsers = (u: TestUser | null) => t.call<Env<{ users: CreatedUserWithPassword[] }>>('POST', '/api/scan/created-users', { token: u?.token, body: { scan_id: scanId } });

  it('each has a password of its own, shown to whoever may see the scan', async () => {
    const d = await t.call<Env<ScanDetails>>('POST', '/api/scan/details', { token: owner.token, body: { scan_id: scanId } });
    expect(d.json.data.status).toBe('completed');
    expect(registered.length).toBeGreaterThan(2);
    const passwords = registered.map((r) => r.password);
    expect(new Set(passwords).size).toBe(passwords.length);
    for (const u of [owner, reader]) {
      const r = await createdUsers(u);
      expect(r.status, r.text).toBe(200);
      expect(r.json.data.users.map((x) => [x.username, x.password]).sort()).toEqual(registered.map((x) => [x.username, x.password]).sort());
    }
    // The details list them, without a password.
    expect(d.json.data.results.scan_info.created_users.map((u) => u.username).sort()).toEqual(registered.map((r) => r.username).sort());
  });

  it('to nobody else', async () => {
    expect((await createdUsers(stranger)).status).toBe(404);
    expect((await createdUsers(null)).status).toBe(401);
    const missing = await t.call('POST', '/api/scan/created-users', { token: owner.token, body: { scan_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.status).toBe(404);
  });

  it('never in clear: not in the store, the details, an export or the log', async () => {
    const texts = [(await t.call('POST', '/api/scan/details', { token: owner.token, body: { scan_id: scanId } })).text, tc.log.lines.join('\n'), await storedText(tc.core)];
    for (const type of ['json', 'sarif', 'html', 'junit']) {
      const r = await t.call('GET', `/api/reports/download?scan_id=${scanId}&report_type=${type}`, { token: owner.token });
      expect(r.status, `${type}: ${r.text.slice(0, 200)}`).toBe(200);
      texts.push(r.text);
    }
    // The exports do tell about the sign-up: the findings on it and the users the scan registered.
    expect(texts[3]).toContain('/auth/signup');
    expect(texts[3]).toContain(registered[0]!.username);
    for (const [n, text] of texts.entries()) {
      for (const p of registered.map((r) => r.password)) expect(text.includes(p), `a created user's password in text ${n}`).toBe(false);
      // The store keeps the spec, whose example body has one: the scan sent it nowhere.
      if (n !== 2) for (const p of FIXED_PASSWORDS) expect(text.includes(p), `${p} in text ${n}`).toBe(false);
    }
    expect(await tc.core.services.secrets.get(scanAccountsRef(scanId))).toContain(registered[0]!.password);
  });

  it('kept while the scan is listed, gone with it', async () => {
    await tc.core.services.scans.recover();
    expect(await tc.core.services.secrets.get(scanAccountsRef(scanId))).not.toBeNull();
    // A scan gone some other way leaves its users' passwords behind only until the next start-up.
    const gone = scanAccountsRef('11111111-1111-4111-8111-111111111111');
    await tc.core.services.secrets.set(gone, JSON.stringify({ v: 1, users: [] }));
    await tc.core.services.scans.recover();
    expect(await tc.core.services.secrets.get(gone)).toBeNull();
    const del = await t.call('DELETE', '/api/apis/delete', { token: owner.token, body: { api_id: apiId } });
    expect(del.status, del.text).toBe(200);
    expect(await tc.core.services.secrets.get(scanAccountsRef(scanId))).toBeNull();
  });
});
