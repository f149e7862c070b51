// Identities that take fewer tries (issue 31, item 5), through the API over HTTP against the test
// target: Test names a wrong token pointer's real mistake (the answer's token-like pointers, never a
// value), a failed login is quoted with no secret in it and recorded on the scan, an expired static
// JWT is refused at create, Start and Test with its expiry in the user's zone, the setups that worked
// are kept per API (secrets only in the SecretStore) and filled back from kept-secret markers, and
// Retry takes edited identities with the failed scan's own secrets.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityRecipe, IdentitySetup, ScanDetails, TestIdentityData } from '../../shared/contract';
import { KEPT_SECRET, type IdentityInput } from '../../shared/identities';
import { importApiDocument } from '../../electron/importer/index';
import { manualClock } from '../../electron/clock';
import { parseStoredIdentities } from '../../electron/scanner/service';
import { startTarget, type Target } from '../targets';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

const SCANNED = ['GET /me', 'GET /notes'];

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

describe('identities that take fewer tries', () => {
  let tc: TestCore;
  let t: Transport;
  let target: Target;
  let owner: TestUser;
  let teammate: TestUser;
  let apiId: string;

  const login = (name: string, user: 'alice' | 'bob', pointer = '/accessToken', password = target.users[user].password): IdentityInput => ({
    name,
    login: { request: { path: '/auth/login', json: { username: user, password } }, token: { from: 'body', pointer } },
  });
  const create = (u: TestUser, body: Record<string, unknown>) => t.call<Env<{ scan_id: string }>>('POST', '/api/scan/create', { token: u.token, body: { api_id: apiId, scan_profile: 'owasp', rps: 0, signup: 'off', ...body } });
  const start = (u: TestUser, scanId: string) => t.call<Env<{ scan_id: string }>>('POST', '/api/scan/start', { token: u.token, body: { api_id: apiId, scan_id: scanId } });
  const test = (u: TestUser, identity: unknown, kept_from?: unknown) => t.call<Env<TestIdentityData>>('POST', '/api/scan/identity/test', { token: u.token, body: { api_id: apiId, identity, ...(kept_from ? { kept_from } : {}) } });
  const details = async (scanId: string) => (await t.call<Env<ScanDetails>>('POST', '/api/scan/details', { token: owner.token, body: { scan_id: scanId } })).json.data;
  const scan = async (u: TestUser, body: Record<string, unknown>): Promise<ScanDetails> => {
    const c = await create(u, body);
    expect(c.status, c.text).toBe(201);
    const s = await start(u, c.json.data.scan_id);
    expect(s.status, s.text).toBe(200);
    await tc.core.services.scans.wait(c.json.data.scan_id);
    return details(c.json.data.scan_id);
  };

  beforeAll(async () => {
    // Real time: the target's tokens expire by the wall clock, and so must the service's check.
    tc = await createTestCore({ clock: manualClock(new Date()) });
    t = await openTransport('http', tc.core);
    target = await startTarget({ mode: 'hardened' });
    [owner, teammate] = [await signUpAndLogin(t, 'owner'), await signUpAndLogin(t, 'teammate')];
    const imported = importApiDocument(new TextEncoder().encode(target.specText), { filename: 'acme.yaml' });
    const endpoints = imported.endpoints.map((e) => (SCANNED.includes(`${e.method} ${e.path}`) ? e : { ...e, flags: [...e.flags, 'SKIP' as const] }));
    apiId = await tc.core.services.repos.apis.createWithEndpoints(
      { ownerId: owner.id, name: imported.name, baseUrl: target.baseUrl, sourceFormat: imported.format, sourceFilename: 'acme.yaml', specVersion: imported.spec_version, security: imported.security, endpoints },
      new Date(),
    );
    const now = new Date().toISOString();
    await tc.core.services.db.insertInto('shares').values({ api_id: apiId, user_id: teammate.id, permission: 'manage', created_at: now, updated_at: now }).execute();
  }, 30_000);
  afterAll(async () => {
    await t.close();
    await tc.close();
    await target.close();
  });

  it('Test names a wrong or empty token pointer with the pointers the answer has, never a token', async () => {
    const wrong = await test(owner, login('alice', 'alice', '/token'));
    expect(wrong.status, wrong.text).toBe(200);
    expect(wrong.json.data).toMatchObject({ ok: false, candidates: ['/accessToken'], field: 'login.token', answer: { request: 'POST /api/v2/auth/login', status: 200 } });
    expect(wrong.json.data.message).toBe('Could not log in: POST /api/v2/auth/login answered 200, but the answer has no `/token`; it has `/accessToken`.');
    // The answer has a token elsewhere: the recipe's mistake, not tried again after a pause.
    expect(wrong.json.data.steps).toEqual(['POST /api/v2/auth/login -> 200']);
    // The answer's excerpt has the token redacted; nothing JWT-like anywhere in the reply.
    expect(wrong.json.data.answer!.excerpt).toContain('"accessToken":"[redacted]"');
    expect(wrong.text).not.toMatch(/eyJ[\w-]{6,}/);

    const empty = await test(owner, login('alice', 'alice', ''));
    expect(empty.json.data.message).toBe('Could not log in: POST /api/v2/auth/login answered 200, but the token pointer is empty, which takes the whole answer (a JSON object); it has `/accessToken`.');
  });

  it('a failed login quotes the API\'s answer with no secret, and a scan that fails at login records it', async () => {
    const bad = await test(owner, login('alice', 'alice', '/accessToken', 'Not-Her-Password-1'));
    expect(bad.json.data).toMatchObject({ ok: false, field: 'login.steps.0.body', answer: { request: 'POST /api/v2/auth/login', status: 401 } });
    expect(bad.json.data.answer!.excerpt).toMatch(/Wrong username or password/);
    expect(bad.text).not.toContain('Not-Her-Password-1');

    const d = await scan(owner, { identities: [login('alice', 'alice', '/token')] });
    expect(d.status).toBe('failed');
    expect(d.results.scan_info.failure_reason).toBe('Identity "alice" could not log in: POST /api/v2/auth/login answered 200, but the answer has no `/token`; it has `/accessToken`.');
    expect(d.results.scan_info.login_failure).toMatchObject({ identity: 'alice', during: 'start', candidates: ['/accessToken'], answer: { request: 'POST /api/v2/auth/login', status: 200 } });
    expect(JSON.stringify(d)).not.toMatch(/eyJ[\w-]{6,}/);
  }, 30_000);

  it('refuses an expired static JWT at create, Test and Start, with its expiry in the user\'s zone', async () => {
    await tc.core.services.repos.userSettings.setProfile(owner.id, { ...(await tc.core.services.repos.userSettings.getProfile(owner.id)), timezone: 'UTC+09:00' }, new Date());
    const expired = await target.mintToken('alice', { expiresIn: -3600 });
    const exp = JSON.parse(Buffer.from(expired.split('.')[1]!, 'base64url').toString()).exp as number;
    const when = new Intl.DateTimeFormat('en-GB', { timeZone: 'Etc/GMT-9', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(exp * 1000));
    const p = Object.fromEntries(when.map((x) => [x.type, x.value]));
    const message = `Identity "key 1": its token expired on ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} (UTC+09:00). Paste a fresh token.`;

    const keys = await create(owner, { api_key_1: expired });
    expect(keys.status).toBe(400);
    expect(keys.json.message).toBe(message);
    expect(keys.json.errors).toEqual([{ field: 'identities.0.token', message }]);
    const tested = await test(owner, { name: 'key 1', token: expired });
    expect(tested.json.data).toMatchObject({ ok: false, message, field: 'token' });

    // A draft whose token expires before Start: the start route refuses it, nothing runs.
    const soon = await target.mintToken('alice', { expiresIn: 120 });
    const c = await create(owner, { api_key_1: soon });
    expect(c.status, c.text).toBe(201);
    tc.clock.advance(10 * 60_000);
    const s = await start(owner, c.json.data.scan_id);
    expect(s.status).toBe(400);
    expect(s.json.message).toMatch(/^Identity "key 1": its token expired on \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\+09:00\)\. Paste a fresh token\.$/);
    expect((await tc.core.services.repos.scans.findById(c.json.data.scan_id))!.status).toBe('created');
    tc.clock.set(new Date());
  });

  it('keeps each identity setup that worked, per user and API, secrets only in the SecretStore', async () => {
    const first = await scan(owner, { identities: [login('alice', 'alice'), login('bob', 'bob')] });
    expect(first.status, first.results.scan_info.failure_reason ?? '').toBe('completed');
    // The test's clock stands still: the second setup works a second later.
    tc.clock.advance(1000);
    const second = await scan(owner, { identities: [{ name: 'key 1', token: target.users.bob.key }] });
    expect(second.status, second.results.scan_info.failure_reason ?? '').toBe('completed');

    const list = await t.call<Env<{ setups: IdentitySetup[] }>>('GET', `/api/scan/identity/setups?api_id=${apiId}`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json.data.setups.map((s) => s.identities.map((i) => `${i.name}: ${i.obtained}`))).toEqual([['key 1: static token'], ['alice: login recipe (POST /auth/login)', 'bob: login recipe (POST /auth/login)']]);
    expect(list.text).not.toContain(target.users.alice.password);
    expect(list.text).not.toContain(target.users.bob.key);
    // Another user's list is their own: empty.
    expect((await t.call<Env<{ setups: IdentitySetup[] }>>('GET', `/api/scan/identity/setups?api_id=${apiId}`, { token: teammate.token })).json.data.setups).toEqual([]);

    // The recipe for the form: every secret a marker.
    const setupId = list.json.data.setups[1]!.id;
    const recipe = await t.call<Env<IdentityRecipe>>('POST', '/api/scan/identity/recipe', { token: owner.token, body: { api_id: apiId, setup_id: setupId } });
    expect(recipe.status, recipe.text).toBe(200);
    expect(recipe.json.data.kept).toBe(2);
    expect(recipe.json.data.identities[0]!.login!.request!.json).toEqual({ username: 'alice', password: KEPT_SECRET });
    expect(recipe.text).not.toContain(target.users.alice.password);
    // Someone else cannot read it, nor fill markers from it.
    expect((await t.call('POST', '/api/scan/identity/recipe', { token: teammate.token, body: { api_id: apiId, setup_id: setupId } })).status).toBe(404);
    const stolen = await test(teammate, recipe.json.data.identities[0], { setup_id: setupId });
    expect(stolen.status).toBe(404);

    // Test and create with the markers: the server fills them; the pointer was edited.
    const edited = { ...recipe.json.data.identities[0]!, login: { ...recipe.json.data.identities[0]!.login!, token: { from: 'body', pointer: '/accessToken' } } };
    const tested = await test(owner, edited, { setup_id: setupId });
    expect(tested.json.data, tested.text).toMatchObject({ ok: true, verified_as: 'alice (GET /me)' });
    const noSource = await test(owner, edited);
    expect(noSource.status).toBe(409);
    expect(noSource.json.errors?.[0]).toEqual({ field: 'identity.login.request.json.password', message: 'This secret is no longer kept: type it again.' });
    const c = await create(owner, { identities: recipe.json.data.identities, kept_from: { setup_id: setupId } });
    expect(c.status, c.text).toBe(201);
    const row = (await tc.core.services.repos.scans.findById(c.json.data.scan_id))!;
    const stored = parseStoredIdentities((await tc.core.services.secrets.get(row.secret_ref!))!);
    expect(stored.identities[1]!.login!.request!.json).toEqual({ username: 'bob', password: target.users.bob.password });

    // Forget: the row and its secrets go.
    const ref = (await tc.core.services.repos.identitySetups.find(setupId))!.secret_ref;
    expect(await tc.core.services.secrets.get(ref)).not.toBeNull();
    expect((await t.call('POST', '/api/scan/identity/setups/delete', { token: teammate.token, body: { api_id: apiId, setup_id: setupId } })).status).toBe(404);
    expect((await t.call('POST', '/api/scan/identity/setups/delete', { token: owner.token, body: { api_id: apiId, setup_id: setupId } })).status).toBe(200);
    expect(await tc.core.services.secrets.get(ref)).toBeNull();
  }, 60_000);

  it('Retry takes edited identities whose kept secrets are the failed scan\'s own, and only for its owner', async () => {
    const failed = await scan(owner, { identities: [login('alice', 'alice', '/token')] });
    expect(failed.status).toBe('failed');
    const recipe = await t.call<Env<IdentityRecipe>>('POST', '/api/scan/identity/recipe', { token: owner.token, body: { api_id: apiId, scan_id: failed.scan_id } });
    expect(recipe.json.data.failed_identity).toBe('alice');
    expect(recipe.json.data.identities[0]!.login!.request!.json).toEqual({ username: 'alice', password: KEPT_SECRET });
    const fixed = [{ ...recipe.json.data.identities[0]!, login: { ...recipe.json.data.identities[0]!.login!, token: { from: 'body', pointer: '/accessToken' } } }];

    // A teammate with scan rights may Retry as is, but not take the owner's secrets into their own identities.
    expect((await t.call('POST', '/api/scan/identity/recipe', { token: teammate.token, body: { api_id: apiId, scan_id: failed.scan_id } })).status).toBe(409);
    const theirs = await t.call('POST', '/api/scan/retry', { token: teammate.token, body: { scan_id: failed.scan_id, identities: fixed } });
    expect(theirs.status).toBe(409);

    const retried = await t.call<Env<{ scan_id: string }>>('POST', '/api/scan/retry', { token: owner.token, body: { scan_id: failed.scan_id, identities: fixed } });
    expect(retried.status, retried.text).toBe(200);
    await tc.core.services.scans.wait(retried.json.data.scan_id);
    const d = await details(retried.json.data.scan_id);
    expect(d.status, d.results.scan_info.failure_reason ?? '').toBe('completed');
    expect(d.results.scan_info.identities[0]).toMatchObject({ name: 'alice', verified_as: 'alice (GET /me)' });
    expect(d.results.scan_info.login_failure ?? null).toBeNull();
  }, 60_000);
});
