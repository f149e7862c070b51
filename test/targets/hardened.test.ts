// The hardened twin answers correctly, not merely "not vulnerably": the statuses, headers and
// refusals a scanner must see as healthy, and the legitimate flows still work.

import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED, startTarget, type Target } from '.';
import { burst, call, jwtBuild, jwtParts, listen, STACK_TRACE } from './testing';

let t: Target;
const fresh = async () => {
  t = await startTarget({ mode: 'hardened' });
  return t;
};
afterEach(async () => {
  expect(t.internalErrors).toEqual([]);
  await t.close();
});

describe('hardened twin: authentication', () => {
  it('answers 401 with WWW-Authenticate to missing, garbage and tampered credentials', async () => {
    await fresh();
    const alice = jwtParts(t.users.alice.key);
    await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
    const tokens = {
      garbage: 'not-a-token',
      algNone: jwtBuild({ ...alice.header, alg: 'none' }, alice.payload, ''),
      stripped: jwtBuild(alice.header, alice.payload, ''),
      altered: jwtBuild(alice.header, alice.payload, crypto.randomBytes(32).toString('base64url')),
      expired: await t.mintToken('alice', { expiresIn: -60 }),
      subSwapped: jwtBuild(alice.header, { ...alice.payload, sub: String(t.users.bob.id) }, alice.signature),
    };
    const none = await call(t, 'GET', '/api/v2/me');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    for (const [name, key] of Object.entries(tokens)) {
      const res = await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, { key });
      expect(res.status, name).toBe(401);
    }
    expect((await call(t, 'GET', `/api/v2/me?access_token=${t.users.alice.key}`)).status).toBe(401);
  });

  it('accepts the seeded keys, their API keys, and a fresh login', async () => {
    await fresh();
    for (const name of ['alice', 'bob', 'admin'] as const) {
      const u = t.users[name];
      expect((await call(t, 'GET', '/api/v2/me', { key: u.key })).json.id).toBe(u.id);
      expect((await call(t, 'GET', '/api/v2/me', { headers: { 'x-api-key': u.apiKey } })).json.username).toBe(name);
    }
    const login = await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'bob', password: t.users.bob.password } });
    expect(login.status).toBe(200);
    expect((await call(t, 'GET', '/api/v2/me', { key: login.json.accessToken })).json.username).toBe('bob');
    expect((await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'bob', password: { $ne: null } } })).status).toBe(400);
  });

  it('throttles login failures with 429 and Retry-After, and the password reset works from the mailed link only', async () => {
    await fresh();
    const tries = await burst(7, (i) => call(t, 'POST', '/api/v2/auth/login', { body: { username: 'alice', password: `nope-${i}` } }), 1);
    expect(tries.map((c) => c.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(Number(tries[5]!.headers['retry-after'])).toBeGreaterThan(0);
    const ask = await call(t, 'POST', '/api/v2/auth/password-reset', { body: { email: t.users.bob.email } });
    expect(ask.status).toBe(202);
    expect(ask.json).toEqual({ message: 'If the address is registered, a reset link has been sent.' });
    const unknown = await call(t, 'POST', '/api/v2/auth/password-reset', { body: { email: 'nobody@example.com' } });
    expect(unknown.json).toEqual(ask.json);
    const link = t.outbox.find((m) => m.to === t.users.bob.email)!.body;
    const token = new URL(link).searchParams.get('token')!;
    expect((await call(t, 'POST', '/api/v2/auth/password-reset/confirm', { body: { token, newPassword: 'a-brand-new-password' } })).status).toBe(200);
    expect((await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'bob', password: 'a-brand-new-password' } })).status).toBe(200);
  });

  it('verifies the OTP that was "sent" by SMS', async () => {
    await fresh();
    expect((await call(t, 'POST', '/api/v2/auth/otp/send', { key: t.users.alice.key })).status).toBe(202);
    const code = /\d{6}/.exec(t.outbox.at(-1)!.body)![0];
    const ok = await call(t, 'POST', '/api/v2/auth/otp/verify', { key: t.users.alice.key, body: { code } });
    expect(ok.json).toEqual({ verified: true });
  });
});

describe('hardened twin: authorization and properties', () => {
  it('hides other users\' objects (404) and refuses other users\' addresses and admin operations (403)', async () => {
    await fresh();
    const bob = { key: t.users.bob.key };
    expect((await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, bob)).status).toBe(404);
    expect((await call(t, 'GET', `/api/v2/documents/download?documentId=${SEED.documents.alice[0]}`, bob)).status).toBe(404);
    expect((await call(t, 'POST', '/api/v2/invoices/lookup', { ...bob, body: { orderId: SEED.orders.alice[0] } })).status).toBe(404);
    const note = SEED.notes.alice[0];
    expect((await call(t, 'GET', `/api/v2/notes/${note}`, bob)).status).toBe(404);
    expect((await call(t, 'PUT', `/api/v2/notes/${note}`, { ...bob, body: { title: 'x' } })).status).toBe(404);
    expect((await call(t, 'DELETE', `/api/v2/notes/${note}`, bob)).status).toBe(404);
    expect((await call(t, 'GET', `/api/v2/notes/${note}`, { key: t.users.alice.key })).json.title).toBe('Gift ideas for Mum');
    expect((await call(t, 'GET', `/api/v2/users/${t.users.alice.id}/addresses`, bob)).status).toBe(403);
    expect((await call(t, 'GET', '/api/v2/admin/users', bob)).status).toBe(403);
    expect((await call(t, 'GET', '/api/v2/admin/users', { key: t.users.admin.key })).status).toBe(200);
    expect((await call(t, 'GET', `/api/v2/orders/${SEED.orders.alice[0]}`, { key: t.users.admin.key })).status).toBe(200);
  });

  it('ignores readOnly properties, rejects undeclared ones, and returns only declared fields', async () => {
    await fresh();
    const key = t.users.alice.key;
    const order = await call(t, 'POST', '/api/v2/orders', { key, body: { items: [{ productId: 12, quantity: 2 }], status: 'delivered', total: 0.01 } });
    expect(order.status).toBe(201);
    expect(order.json.status).toBe('pending');
    expect(order.json.total).toBeGreaterThan(1);
    expect(order.headers.location).toBe(`/api/v2/orders/${order.json.id}`);
    const patch = await call(t, 'PATCH', '/api/v2/me', { key, body: { displayName: 'Alice A.', role: 'admin' } });
    expect(patch.json).toMatchObject({ displayName: 'Alice A.', role: 'customer' });
    const sneaky = await call(t, 'PATCH', '/api/v2/me', { key, body: { is_admin: true } });
    expect(sneaky.status).toBe(400);
    expect(sneaky.json.errors).toEqual([{ field: 'is_admin', message: 'is not an allowed property' }]);
    const me = await call(t, 'GET', '/api/v2/me', { key });
    expect(me.json).not.toHaveProperty('password_hash');
    expect(me.json).not.toHaveProperty('api_key');
    expect(me.json.apiKeyHint).toBe(`…${t.users.alice.apiKey.slice(-4)}`);
    const cards = await call(t, 'GET', '/api/v2/payment-methods', { key });
    expect(cards.json).toEqual([{ id: SEED.paymentMethods.alice, brand: 'visa', last4: '6467', expMonth: 9, expYear: 2029, holder: 'ALICE ANDERSON' }]);
  });

  it('answers 405 with Allow for undeclared methods and TRACE, and 404 for undocumented surfaces', async () => {
    await fresh();
    const key = t.users.alice.key;
    const del = await call(t, 'DELETE', `/api/v2/orders/${SEED.orders.alice[0]}`, { key });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    expect((await call(t, 'PUT', '/api/v2/me', { key, body: {} })).status).toBe(405);
    expect((await call(t, 'TRACE', '/api/v2/me')).status).toBe(405);
    for (const p of ['/api/v1/me', '/openapi.json', '/swagger-ui.html', '/actuator/env', '/debug/vars', '/metrics', '/graphql', '/admin', '/admin/orders', '/api/v2/admin/orders', '/api/v2/orders/admin']) {
      const res = await call(t, 'GET', p, { key });
      expect([400, 404], p).toContain(res.status);
    }
  });
});

describe('hardened twin: account changes and test users', () => {
  it('lets users change their own password and e-mail with the current password, and delete their own account', async () => {
    await fresh();
    const { alice, bob, carol, admin } = t.users;
    const pw = await call(t, 'PUT', '/api/v2/me/password', { key: alice.key, body: { currentPassword: alice.password, newPassword: 'alice-new-passphrase' } });
    expect(pw.json).toEqual({ message: 'Your password has been changed.' });
    expect((await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'alice', password: 'alice-new-passphrase' } })).status).toBe(200);
    const wrong = await call(t, 'PUT', `/api/v2/users/${bob.id}/password`, { key: bob.key, body: { currentPassword: 'not-it', newPassword: 'bob-new-passphrase' } });
    expect([wrong.status, wrong.json.error]).toEqual([403, 'wrong_password']);
    expect((await call(t, 'PUT', `/api/v2/users/${bob.id}/password`, { key: bob.key, body: { currentPassword: bob.password, newPassword: 'bob-new-passphrase' } })).status).toBe(200);
    const email = await call(t, 'PUT', `/api/v2/users/${bob.id}/email`, { key: bob.key, body: { email: 'bob.new@example.com', currentPassword: 'bob-new-passphrase' } });
    expect(email.json).toMatchObject({ id: bob.id, email: 'bob.new@example.com' });
    expect((await call(t, 'PUT', `/api/v2/users/${bob.id}/email`, { key: bob.key, body: { email: alice.email, currentPassword: 'bob-new-passphrase' } })).status).toBe(409);
    // Another user's account: 403 whatever the body; administrators' accounts need an administrator.
    expect((await call(t, 'DELETE', `/api/v2/users/${admin.id}`, { key: bob.key })).status).toBe(403);
    expect((await call(t, 'DELETE', `/api/v2/users/${bob.id}`, { key: bob.key })).status).toBe(204);
    expect((await call(t, 'GET', '/api/v2/me', { key: bob.key })).status).toBe(401);
    expect((await call(t, 'DELETE', `/api/v2/users/${carol.id}`, { key: admin.key })).status).toBe(204);
    expect((await call(t, 'POST', '/api/v2/auth/login', { body: { username: 'carol', password: carol.password } })).status).toBe(401);
    expect((await call(t, 'DELETE', `/api/v2/users/${carol.id}`, { key: admin.key })).status).toBe(404);
  });

  it('registers the test users a scan needs, rejects privilege fields, and throttles sign-up past 8 attempts', async () => {
    await fresh();
    const sneaky = await call(t, 'POST', '/api/v2/auth/signup', { body: { username: 'eve_x', email: 'eve@example.com', password: 'a-long-enough-password', role: 'admin' } });
    expect(sneaky.json.errors).toEqual([{ field: 'role', message: 'is not an allowed property' }]);
    for (let i = 0; i < 4; i++) {
      const user = { username: `scan_user_${i}`, email: `scan${i}@example.com`, password: `scan-password-${i}` };
      expect((await call(t, 'POST', '/api/v2/auth/signup', { body: user })).status).toBe(201);
      const key = (await call(t, 'POST', '/api/v2/auth/login', { body: { username: user.username, password: user.password } })).json.accessToken as string;
      expect((await call(t, 'GET', '/api/v2/me', { key })).json).toMatchObject({ username: user.username, role: 'customer', isAdmin: false });
    }
    const more = await burst(4, (i) => call(t, 'POST', '/api/v2/auth/signup', { body: { username: `more_${i}`, email: `more${i}@example.com`, password: 'a-long-enough-password' } }), 1);
    expect(more.map((c) => c.status)).toEqual([201, 201, 201, 429]);
  });
});

describe('hardened twin: limits', () => {
  it('rate-limits an ordinary endpoint with headers and 429 + Retry-After', async () => {
    t = await startTarget({ mode: 'hardened', rateLimit: { limit: 20, windowMs: 10_000 } });
    const results = await burst(25, () => call(t, 'GET', '/api/v2/me', { key: t.users.alice.key }));
    expect(results.filter((c) => c.status === 200)).toHaveLength(20);
    const limited = results.find((c) => c.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(results[0]!.headers['ratelimit-limit']).toBe('20');
    // Per client: bob is not limited by alice's burst.
    expect((await call(t, 'GET', '/api/v2/me', { key: t.users.bob.key })).status).toBe(200);
  });

  it('throttles each sensitive flow after 5 requests a minute', async () => {
    await fresh();
    const key = t.users.alice.key;
    const transfers = await burst(6, () => call(t, 'POST', '/api/v2/transfers', { key, body: { to: 'carol', amount: 2, memo: 'Dinner' } }), 1);
    expect(transfers.map((c) => c.status)).toEqual([201, 201, 201, 201, 201, 429]);
    const me = await call(t, 'GET', '/api/v2/me', { key });
    expect(me.json.balance).toBe(10_000 - 10);
    const orders = await burst(6, () => call(t, 'POST', '/api/v2/orders', { key: t.users.bob.key, body: { items: [{ productId: 7, quantity: 1 }] } }), 1);
    expect(orders.map((c) => c.status)).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('validates sizes, page sizes and types with 400 and field errors, never a stack trace', async () => {
    await fresh();
    const key = t.users.alice.key;
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v2/notes', { title: 'x'.repeat(121) }],
      ['POST', '/api/v2/notes', { title: 'ok', tags: Array.from({ length: 11 }, () => 'a') }],
      ['POST', '/api/v2/notes', { title: 42 }],
      ['POST', '/api/v2/orders', { items: [{ productId: 12, quantity: 11 }] }],
      ['PATCH', '/api/v2/me', { displayName: 'x'.repeat(65) }],
      ['POST', '/api/v2/transfers', { to: 'carol', amount: 1000.01 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(t, method, path, { key, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.json.errors.length).toBeGreaterThan(0);
      expect(res.text).not.toMatch(STACK_TRACE);
    }
    for (const path of ['/api/v2/products?limit=101', '/api/v2/products/1/reviews?page_size=51', '/api/v2/activity?per_page=51', '/api/v2/products/search?q=' + 'x'.repeat(101)]) {
      expect((await call(t, 'GET', path, { key })).status, path).toBe(400);
    }
    const malformed = await call(t, 'POST', '/api/v2/notes', { key, raw: '{"title": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ error: 'invalid_json', message: 'The request body is not valid JSON.' });
    const big = await call(t, 'POST', '/api/v2/notes', { key, raw: JSON.stringify({ title: 'x', body: 'y'.repeat(70_000) }) });
    expect(big.status).toBe(413);
  });
});

describe('hardened twin: headers and CORS', () => {
  it('sends the security headers and no version banner', async () => {
    await fresh();
    const res = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows only the shop origin, with credentials, and answers preflights for it', async () => {
    await fresh();
    const shop = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key, headers: { origin: 'https://shop.acme.example' } });
    expect(shop.headers['access-control-allow-origin']).toBe('https://shop.acme.example');
    expect(shop.headers['access-control-allow-credentials']).toBe('true');
    expect(shop.headers.vary).toBe('Origin');
    for (const origin of ['https://evil.example', 'null', 'https://shop.acme.example.evil.example']) {
      const res = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key, headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    const pre = await call(t, 'OPTIONS', '/api/v2/notes', { headers: { origin: 'https://shop.acme.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-methods']).toBe('GET, POST, HEAD');
  });
});

describe('hardened twin: outbound requests', () => {
  it('refuses internal and non-http URLs without connecting, and fetches an allowlisted origin', async () => {
    const l = await listen();
    try {
      t = await startTarget({ mode: 'hardened', fetchAllowlist: [l.url] });
      const key = t.users.alice.key;
      for (const url of [`http://127.0.0.1:${new URL(t.url).port}/`, 'http://localhost/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.5/', 'http://2130706433/', 'file:///etc/passwd', 'gopher://127.0.0.1/']) {
        const res = await call(t, 'POST', '/api/v2/link-preview', { key, body: { url } });
        expect(res.status, url).toBe(400);
      }
      expect(t.outbound.count((o) => o.outcome !== 'refused')).toBe(0);
      const ok = await call(t, 'POST', '/api/v2/link-preview', { key, body: { url: `${l.url}/article` } });
      expect(ok.status).toBe(200);
      expect(ok.json.title).toBe('listener /article');
      expect(l.hits).toHaveLength(1);
      expect((await call(t, 'GET', '/api/v2/links/out?url=https://evil.example/')).status).toBe(400);
      expect((await call(t, 'GET', '/api/v2/links/out?url=//evil.example/')).status).toBe(400);
      const rel = await call(t, 'GET', '/api/v2/links/out?url=/products/12');
      expect([rel.status, rel.headers.location]).toEqual([302, '/products/12']);
    } finally {
      await l.close();
    }
  });

  it('with a wildcard allowlist, trusts any loopback port but its own, and re-checks redirects', async () => {
    const hop = await listen((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: `http://localhost:${new URL(hop.url).port}/internal` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    });
    try {
      for (const followed of [false, true]) {
        t = await startTarget({ mode: 'hardened', flaws: { 'follow-redirects': followed }, fetchAllowlist: ['http://127.0.0.1:*'] });
        const key = t.users.alice.key;
        hop.hits.length = 0;
        expect((await call(t, 'POST', '/api/v2/link-preview', { key, body: { url: `${t.url}/` } })).status).toBe(400);
        const res = await call(t, 'POST', '/api/v2/link-preview', { key, body: { url: `${hop.url}/start` } });
        expect(hop.hits.map((h) => h.url)).toEqual(followed ? ['/start', '/internal'] : ['/start']);
        expect(res.status).toBe(followed ? 200 : 400);
        if (!followed) await t.close(); // afterEach closes the last one
      }
    } finally {
      await hop.close();
    }
  });

  it('accepts a correctly signed payment webhook and refuses unsigned or mis-signed ones', async () => {
    await fresh();
    const pending = SEED.orders.alice[3];
    const raw = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', orderId: pending, amount: 10 });
    expect((await call(t, 'POST', '/api/v2/webhooks/payment-provider', { raw })).status).toBe(401);
    expect((await call(t, 'POST', '/api/v2/webhooks/payment-provider', { raw, headers: { 'x-acme-signature': `sha256=${'0'.repeat(64)}` } })).status).toBe(401);
    expect((await call(t, 'GET', `/api/v2/orders/${pending}`, { key: t.users.alice.key })).json.status).toBe('pending');
    const signed = await call(t, 'POST', '/api/v2/webhooks/payment-provider', { raw, headers: { 'x-acme-signature': t.signWebhook(raw) } });
    expect(signed.json).toEqual({ received: true });
    expect((await call(t, 'GET', `/api/v2/orders/${pending}`, { key: t.users.alice.key })).json.status).toBe('paid');
  });
});
