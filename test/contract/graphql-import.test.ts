// GraphQL APIs through the API (issue 20), over both transports: POST /api/import/graphql imports a live
// endpoint by introspection (as an identity that signs in through the target's login mutation when given,
// nothing of it stored or returned), refuses bad URLs, endpoints that are not GraphQL and servers that
// refuse introspection with messages a user can act on, and needs a session; a GraphQL endpoint typed by
// hand (method GRAPHQL) is stored as one operation and, when scanned, its operations are learnt by
// introspection and scanned (a finding on Query.searchBooks of the GraphQL target).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint, ImportData, ScanDetails } from '../../shared/contract';
import { APIS_MESSAGES } from '../../shared/api-messages';
import { graphqlOperationName } from '../../shared/display';
import type { IdentityInput } from '../../shared/identities';
import { createTestCore, openTransport, signUpAndLogin, storedText, type TestCore, type TestUser, type Transport } from '../helpers/core';
// test/targets/graphql.ts (the REST target's small GraphQL route) shadows the folder: name its index.
import { LIBRARY_SDL } from '../targets/graphql/sdl';
import { startGraphqlTarget, type GraphqlTarget } from '../targets/graphql/index';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T; errors?: { field: string; message: string }[] };

/** The root fields of the target's schema, as operation names ("Query.book", "Mutation.login"). */
function sdlOperations(): string[] {
  const names: string[] = [];
  for (const [, root, body] of LIBRARY_SDL.matchAll(/type (Query|Mutation|Subscription) \{([^}]*)\}/g)) {
    for (const m of body!.matchAll(/^\s*(\w+)\s*[(:]/gm)) names.push(`${root}.${m[1]}`);
  }
  return names.sort();
}

describe.each(['http', 'ipc'] as const)('GraphQL import over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let open: GraphqlTarget;
  let closed: GraphqlTarget;

  const call = <T>(u: TestUser | null, path: string, body: unknown) => t.call<Json<T>>('POST', path, { token: u?.token, body });
  const importLive = (body: unknown, u: TestUser | null = owner) => call<ImportData>(u, '/api/import/graphql', body);
  const endpointsOf = async (apiId: string) => (await call<{ endpoints: Endpoint[] }>(owner, '/api/endpoints', { api_id: apiId })).json.data.endpoints;
  const graphqlUrl = (g: GraphqlTarget, path = '/graphql') => new URL(path, g.url).toString();
  const login = (g: GraphqlTarget, password: string): IdentityInput => ({
    name: 'alice',
    login: {
      request: { path: '/graphql', json: { query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }', variables: { u: 'alice', p: password } } },
      token: { from: 'body', pointer: '/data/login/token' },
    },
  });

  beforeAll(async () => {
    open = await startGraphqlTarget({ mode: 'vulnerable' });
    closed = await startGraphqlTarget({ mode: 'hardened' });
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await open?.close();
    await closed?.close();
  });

  it('imports every operation of a live endpoint, named, with its arguments as parameters', async () => {
    const res = await importLive({ url: graphqlUrl(open), name: 'Library' });
    expect(res.status, res.text).toBe(201);
    const names = sdlOperations();
    expect(res.json.message).toBe(APIS_MESSAGES.graphqlImported('Library', names.length));
    expect(res.json.data).toMatchObject({ format: 'graphql-introspection', endpoint_count: names.length });
    expect(res.json.data.api).toMatchObject({ name: 'Library', base_url: open.url });
    const endpoints = await endpointsOf(res.json.data.api.id);
    expect(endpoints.map((e) => graphqlOperationName(e.graphql!)).sort()).toEqual(names);
    for (const e of endpoints) expect([e.method, e.path]).toEqual(['POST', '/graphql']);
    const loan = endpoints.find((e) => e.graphql?.field === 'loan')!;
    expect(loan.summary).toContain('Query.loan');
    expect(loan.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'argument', required: true })]);
    expect(loan.flags).toContain('BOLA');
    const cover = endpoints.find((e) => e.graphql?.field === 'importBookCover')!;
    expect(cover.flags).toContain('SSRF');
  });

  it('signs in as the given identity and keeps nothing of it', async () => {
    const password = open.users.alice.password;
    const res = await importLive({ url: graphqlUrl(open), name: 'Library as alice', identity: login(open, password) });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain(password);
    // The password is stored nowhere (nor the token, which the target made and the scan never saw).
    const stored = await storedText(tc.core);
    expect(stored).not.toContain(password);
    // A wrong password: the login's failure, in words, without the password.
    const wrong = await importLive({ url: graphqlUrl(open), identity: login(open, 'not-the-password-7731') });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/^Could not log in as alice/);
    expect(wrong.text).not.toContain('not-the-password-7731');
  });

  it('refuses missing and non-http URLs, endpoints that are not GraphQL, and introspection turned off', async () => {
    const missing = await importLive({});
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([{ field: 'url', message: APIS_MESSAGES.graphqlUrlRequired }]);
    const ftp = await importLive({ url: 'ftp://example.com/graphql' });
    expect(ftp.json.errors).toEqual([{ field: 'url', message: APIS_MESSAGES.graphqlUrlInvalid }]);

    const notGraphql = await importLive({ url: graphqlUrl(open, '/no-such-graphql') });
    expect(notGraphql.status).toBe(400);
    expect(notGraphql.json.message).toMatch(/^\/no-such-graphql did not answer with a GraphQL schema \(HTTP 404/);

    const refused = await importLive({ url: graphqlUrl(closed) });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/^\/graphql refused the introspection query: .*Import the schema as an SDL file instead\.$/);
    expect(refused.json.errors).toEqual([{ field: 'url', message: refused.json.message }]);

    const anonymous = await importLive({ url: graphqlUrl(open) }, null);
    expect(anonymous.status).toBe(401);
  });

  it('stores a GraphQL endpoint typed by hand as one operation', async () => {
    const res = await call<ImportData>(owner, '/api/apis/manual', { name: 'Hand-typed GraphQL', base_url: open.url, endpoints: [{ method: 'GRAPHQL', path: '/graphql' }] });
    expect(res.status, res.text).toBe(201);
    const [e] = await endpointsOf(res.json.data.api.id);
    expect(e).toMatchObject({ method: 'POST', path: '/graphql', graphql: { kind: 'query', field: '__typename' } });
    const bad = await call(owner, '/api/apis/manual', { name: 'Bad', base_url: open.url, endpoints: [{ method: 'QUERY', path: '/graphql' }] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors?.[0]).toEqual({ field: 'endpoints.0.method', message: APIS_MESSAGES.methodInvalid });
  });
});

describe('a GraphQL endpoint typed by hand, scanned', () => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let target: GraphqlTarget;

  beforeAll(async () => {
    // Only the SQL injection flaw: the finding below can only come from an operation learnt at scan time.
    target = await startGraphqlTarget({ mode: 'hardened', flaws: { 'sql-injection': true, introspection: true } });
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    owner = await signUpAndLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await target?.close();
  });

  it('learns its operations by introspection and scans them', async () => {
    const call = <T>(path: string, body: unknown) => t.call<Json<T>>('POST', path, { token: owner.token, body });
    const api = await call<ImportData>('/api/apis/manual', { name: 'Library by hand', base_url: target.url, endpoints: [{ method: 'GRAPHQL', path: '/graphql' }] });
    expect(api.status, api.text).toBe(201);
    const apiId = api.json.data.api.id;
    const created = await call<{ scan_id: string }>('/api/scan/create', { api_id: apiId, scan_profile: 'owasp', api_key_1: target.users.alice.key, api_key_2: target.users.bob.key, rps: 0 });
    expect(created.status, created.text).toBe(201);
    const started = await call<{ scan_id: string }>('/api/scan/start', { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.text).toBe(200);
    await tc.core.services.scans.wait(started.json.data.scan_id);
    const d = (await call<ScanDetails>('/api/scan/details', { scan_id: started.json.data.scan_id })).json.data;
    expect(d.status).toBe('completed');
    const sql = d.results.results.find((f) => f.check_id === 'api8-graphql-sql-injection');
    expect(sql?.graphql?.operation).toBe('Query.searchBooks');
    expect(sql?.parameter).toBe('title');
    expect(d.results.scan_info.errors.join(' ')).toMatch(/operations learnt by introspection were scanned/);
    // The API itself is unchanged: still the one hand-typed endpoint.
    const endpoints = (await call<{ endpoints: Endpoint[] }>('/api/endpoints', { api_id: apiId })).json.data.endpoints;
    expect(endpoints).toHaveLength(1);
  }, 120_000);
});
