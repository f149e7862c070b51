// The target as a test fixture: options, flaw switching, the request log, identities, seed data, TLS.

import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAW_IDS, FLAWS, onlyFlaws, resolveFlaws, SEED, startTarget, type Target } from '.';
import { PROBES } from './probes';
import { call, jwtParts, tlsClient } from './testing';

const open: Target[] = [];
const start = async (...args: Parameters<typeof startTarget>) => {
  const t = await startTarget(...args);
  open.push(t);
  return t;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('flaw switches', () => {
  it('vulnerable turns every flaw on, hardened none, and overrides win', () => {
    expect(resolveFlaws('vulnerable').size).toBe(FLAW_IDS.length);
    expect(resolveFlaws('hardened').size).toBe(0);
    expect([...resolveFlaws('hardened', onlyFlaws('bola-path', 'ssrf'))].sort()).toEqual(['bola-path', 'ssrf']);
    expect(resolveFlaws('vulnerable', { 'bola-path': false }).has('bola-path')).toBe(false);
    expect(() => resolveFlaws('hardened', { 'no-such-flaw': true } as never)).toThrow(/Unknown flaw id/);
  });

  it('every flaw has a category, a technique, a description, the hardened behaviour and a probe', () => {
    expect(FLAW_IDS.length).toBeGreaterThanOrEqual(60);
    for (const id of FLAW_IDS) {
      const f = FLAWS[id];
      expect(f.owasp, id).toMatch(/^(API([1-9]|10)|STATEFUL)$/);
      expect(f.technique.length, id).toBeGreaterThan(5);
      expect(f.description.length, id).toBeGreaterThan(20);
      expect(f.hardened.length, id).toBeGreaterThan(2);
      expect(PROBES[id], id).toBeDefined();
    }
    const categories = new Set(FLAW_IDS.map((id) => FLAWS[id].owasp));
    expect(categories.size).toBe(11);
  });

  it('exposes the active set on the handle', async () => {
    const t = await start({ mode: 'hardened', flaws: { 'cors-null': true } });
    expect([...t.flaws]).toEqual(['cors-null']);
    expect(t.has('cors-null')).toBe(true);
    expect(t.has('cors-reflect')).toBe(false);
    expect(t.mode).toBe('hardened');
  });
});

describe('listening', () => {
  it('binds 127.0.0.1 on an ephemeral port, one per target, released on close', async () => {
    const a = await startTarget({ mode: 'hardened' });
    const b = await start({ mode: 'hardened' });
    const port = Number(new URL(a.url).port);
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a.baseUrl).toBe(`${a.url}/api/v2`);
    expect(port).not.toBe(Number(new URL(b.url).port));
    expect((await call(a, 'GET', '/')).json).toEqual({ service: 'Acme Shop API', status: 'ok' });
    await a.close();
    await a.close(); // idempotent
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('listens on a requested port, and fails cleanly when it is taken', async () => {
    const a = await start({ mode: 'hardened' });
    const port = Number(new URL(a.url).port);
    await expect(startTarget({ mode: 'hardened', port })).rejects.toThrow(/EADDRINUSE/);
    await a.close();
    const b = await start({ mode: 'hardened', port });
    expect(b.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('serves HTTPS and plain HTTP on one port with the tls option', async () => {
    const t = await start({ mode: 'hardened', tls: true });
    expect(t.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(t.caCert).toContain('BEGIN CERTIFICATE');
    const client = tlsClient(t);
    try {
      const res = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key, dispatcher: client });
      expect(res.json.username).toBe('alice');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await client.close();
    }
    const plain = await call(t.url.replace('https:', 'http:'), 'GET', '/api/v2/products/12?x=1');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`${t.url}/api/v2/products/12?x=1`);
  });
});

describe('request log', () => {
  it('records every request with method, path, query, headers, time, status and duration', async () => {
    const t = await start({ mode: 'hardened' });
    const before = Date.now();
    await call(t, 'GET', '/api/v2/products?limit=2&offset=4');
    await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
    await call(t, 'HEAD', '/api/v2/products/12');
    await call(t, 'OPTIONS', '/api/v2/notes');
    await call(t, 'POST', '/api/v2/notes', { key: t.users.alice.key, body: { title: 'x' } });
    await call(t, 'GET', '/nowhere');
    await call(t, 'TRACE', '/api/v2/me');
    expect(t.requests.count()).toBe(7);
    const first = t.requests.all()[0]!;
    expect(first).toMatchObject({ seq: 1, method: 'GET', path: '/api/v2/products', query: 'limit=2&offset=4', status: 200 });
    expect(first.time).toBeGreaterThanOrEqual(before);
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(first.headers.host).toBe(new URL(t.url).host);
    expect(t.requests.count({ method: 'get' })).toBe(3);
    expect(t.requests.count({ pathPrefix: '/api/v2/notes' })).toBe(2);
    expect(t.requests.count({ path: /^\/api\/v2\/products/ })).toBe(2);
    expect(t.requests.count({ authenticated: true })).toBe(2);
    expect(t.requests.count({ status: 404 })).toBe(1);
    expect(t.requests.count({ status: 405 })).toBe(1);
    expect(t.requests.filter((r) => r.method === 'POST')[0]!.status).toBe(201);
    expect(t.requests.last()!.method).toBe('TRACE');
    const mark = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    await call(t, 'GET', '/api/v2/products/12');
    expect(t.requests.count({ since: mark })).toBe(1);
    t.requests.reset();
    expect(t.requests.count()).toBe(0);
    await call(t, 'GET', '/api/v2/products/12');
    expect(t.requests.all()).toHaveLength(1);
  });

  it('counts requests that are still in flight', async () => {
    const t = await start({ mode: 'hardened', flaws: { 'sqli-time': true } });
    const slow = call(t, 'GET', `/api/v2/orders?status=${encodeURIComponent("shipped' AND sleep(2)--")}`, { key: t.users.alice.key });
    for (let i = 0; i < 80 && t.requests.count({ pathPrefix: '/api/v2/orders' }) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.requests.count({ pathPrefix: '/api/v2/orders' })).toBe(1);
    expect(t.requests.last()!.status).toBeUndefined();
    await slow;
    expect(t.requests.last()!.status).toBe(200);
  });
});

describe('identities and seed data', () => {
  it('gives alice, bob and admin distinct HS256 JWTs that /me resolves to their own ids', async () => {
    const t = await start({ mode: 'hardened' });
    const ids = new Set<number>();
    for (const name of ['alice', 'bob', 'admin'] as const) {
      const u = t.users[name];
      const { header, payload } = jwtParts(u.key);
      expect(header.alg).toBe('HS256');
      expect(payload.sub).toBe(String(u.id));
      expect((payload.exp as number) * 1000).toBeGreaterThan(Date.now() + 23 * 3600_000);
      const me = await call(t, 'GET', '/api/v2/me', { key: u.key });
      expect(me.json).toMatchObject({ id: u.id, username: name });
      ids.add(u.id);
    }
    expect(ids.size).toBe(3);
    expect((await call(t, 'GET', '/api/v2/me', { key: t.users.admin.key })).json.role).toBe('admin');
  });

  it('seeds alice and bob with their own, distinct orders, notes and documents', async () => {
    const t = await start({ mode: 'hardened' });
    const mine = async (key: string) => ({
      orders: (await call(t, 'GET', '/api/v2/orders', { key })).json.items.map((o: { id: number }) => o.id),
      notes: (await call(t, 'GET', '/api/v2/notes', { key })).json.items.map((n: { id: string }) => n.id),
      documents: (await call(t, 'GET', '/api/v2/documents', { key })).json.map((d: { id: string }) => d.id),
    });
    const alice = await mine(t.users.alice.key);
    const bob = await mine(t.users.bob.key);
    expect(alice).toEqual({ orders: SEED.orders.alice, notes: SEED.notes.alice, documents: SEED.documents.alice });
    expect(bob).toEqual({ orders: SEED.orders.bob, notes: SEED.notes.bob, documents: SEED.documents.bob });
    const statuses = (await call(t, 'GET', '/api/v2/orders', { key: t.users.alice.key })).json.items.map((o: { status: string }) => o.status);
    expect(new Set(statuses).size).toBe(5);
    const a = (await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, { key: t.users.alice.key })).json;
    const b = (await call(t, 'GET', `/api/v2/orders/${SEED.orders.bob[0]}`, { key: t.users.bob.key })).json;
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(a.note).not.toBe(b.note);
    expect(a.shippingAddressId).not.toBe(b.shippingAddressId);
  });

  it('is the same data in both modes', async () => {
    const h = await start({ mode: 'hardened' });
    const v = await start({ mode: 'vulnerable' });
    for (const path of ['/api/v2/products?limit=50', '/api/v2/products/12', '/api/v2/products/1/reviews']) {
      expect((await call(v, 'GET', path)).json, path).toEqual((await call(h, 'GET', path)).json);
    }
    const pick = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.includes('_')));
    expect(pick((await call(v, 'GET', '/api/v2/orders/1001', { key: v.users.alice.key })).json)).toEqual((await call(h, 'GET', '/api/v2/orders/1001', { key: h.users.alice.key })).json);
  });

  it('mints extra tokens and signs webhook bodies for tests', async () => {
    const t = await start({ mode: 'hardened' });
    const token = await t.mintToken('bob', { expiresIn: 60, claims: { scope: 'read' } });
    expect(jwtParts(token).payload).toMatchObject({ sub: String(t.users.bob.id), scope: 'read' });
    expect((await call(t, 'GET', '/api/v2/me', { key: token })).json.username).toBe('bob');
    expect(t.signWebhook('{}')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});
