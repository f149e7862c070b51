// False-alarm guards of the authorization checks, on a small API built from patterns real APIs
// have and that are not flaws: posts everyone may read, files shared by every user, a soft delete
// that says so, a settings PATCH that echoes what it does not store, methods answered without
// effect, a single-page app that serves index.html everywhere, an admin console behind a login
// page, a public admin report, public profiles with a user called "admin", a login that issues
// tokens and is rate limited, masked secrets.
// Every check stays silent on those; the one real flaw (VAmPI's book secrets) and a variant with
// private posts show the scan did reach them.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import type { BuiltFinding } from '../../electron/scanner/findings';
import type { ScanOutcome } from '../../electron/scanner/run';
import { endpoint, scanServer } from './check-harness';
import { BFLA_CHECKS, BOLA_CHECKS, BOPLA_CHECKS, STATEFUL_CHECKS, TOKEN_CHECKS } from './check-groups';

const CHECKS = [...BOLA_CHECKS, ...TOKEN_CHECKS, ...BOPLA_CHECKS, ...BFLA_CHECKS, ...STATEFUL_CHECKS];
const USERS: Record<string, { id: number; username: string; email: string }> = {
  'tok-alice-5f1b2c3d4e5f60718293a4b5': { id: 41, username: 'alice.w', email: 'alice.w@example.org' },
  'tok-bob-9a8b7c6d5e4f30211203f4e5': { id: 42, username: 'bob.k', email: 'bob.k@example.org' },
};
const [ALICE, BOB] = Object.keys(USERS) as [string, string];

interface Post {
  id: number;
  title: string;
  body: string;
  author: string;
  deleted: boolean;
}

function trapServer(opts: { postsPrivate: boolean }) {
  const posts = new Map<number, Post>();
  let next = 500;
  const settings = new Map<number, { theme: string; plan: string }>();
  const books = new Map<string, { title: string; secret: string; author: string }>();
  let failures = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      const html = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(text);
      };
      const body = (() => {
        try {
          return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          return {};
        }
      })();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = USERS[token];

      // Public: login (issues tokens, rate limited), an admin console behind its login page, a public admin report.
      if (path === '/api/login' && req.method === 'POST') {
        const ok = body.password === 'right-password';
        if (!ok) failures += 1;
        if (failures > 5) return json(429, { error: 'too_many_attempts' }, { 'retry-after': '60' });
        return ok ? json(200, { accessToken: ALICE, tokenType: 'Bearer' }) : json(401, { error: 'invalid_credentials' }, { 'ratelimit-limit': '5' });
      }
      if (path === '/admin') {
        res.writeHead(302, { location: '/admin/login' });
        return res.end();
      }
      if (path === '/admin/login') return html(200, '<!doctype html><form method="post"><input name="user"><input type="password" name="pw"><button>Sign in</button></form>');
      if (path === '/api/admin/reports' && req.method === 'GET') return json(200, { reports: [{ name: 'Uptime', value: '99.98%' }, { name: 'Release', value: '2026.3' }] });
      // Public profiles by username (as VAmPI's /users/v1/{username}); one user is called "admin".
      const prof = /^\/api\/users\/([^/]+)$/.exec(path);
      if (prof && req.method === 'GET') {
        const name = decodeURIComponent(prof[1]!);
        const known = ['admin', ...Object.values(USERS).map((u) => u.username)].includes(name);
        return known ? json(200, { username: name, bio: `Hello from ${name}`, joined: '2025' }) : json(404, { error: 'not_found' });
      }
      if (!path.startsWith('/api/')) return html(200, '<!doctype html><html><head><title>Trap app</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>');
      if (!user) return json(401, { error: 'unauthorized' });

      if (path === '/api/me' && req.method === 'GET') return json(200, user);
      if (path === '/api/account' && req.method === 'GET')
        return json(200, { id: user.id, password: '********', apiKeyHint: '…3f9a', cardLast4: '4242', publicKey: '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----', reference: '7311000000010010' });
      // Settings: the PATCH echoes everything it was sent, but only stores the theme.
      if (path === '/api/settings') {
        const s = settings.get(user.id) ?? { theme: 'light', plan: 'free' };
        settings.set(user.id, s);
        if (req.method === 'GET') return json(200, s);
        if (req.method === 'PATCH') {
          if (typeof body.theme === 'string') s.theme = body.theme;
          return json(200, { ...s, ...body });
        }
      }
      if (path === '/api/users' && req.method === 'GET') return json(200, [{ username: 'admin' }, ...Object.values(USERS).map((u) => ({ username: u.username }))]);
      // Posts: everyone signed in lists and reads all of them (by design); only the author changes them; DELETE is a visible soft delete.
      if (path === '/api/posts' && req.method === 'GET') return json(200, { items: [...posts.values()].filter((p) => !opts.postsPrivate || p.author === user.username) });
      if (path === '/api/posts' && req.method === 'POST') {
        const p: Post = { id: next++, title: String(body.title ?? ''), body: String(body.body ?? ''), author: user.username, deleted: false };
        if (!p.title) return json(400, { error: 'title_required' });
        posts.set(p.id, p);
        return json(201, p, { location: `/api/posts/${p.id}` });
      }
      const m = /^\/api\/posts\/(\d+)$/.exec(path);
      if (m) {
        const p = posts.get(Number(m[1]));
        if (!p) return json(404, { error: 'not_found' });
        if (req.method === 'GET') return json(200, p);
        if (p.author !== user.username) return json(404, { error: 'not_found' });
        if (req.method === 'PUT') {
          p.title = String(body.title ?? p.title);
          p.body = String(body.body ?? p.body);
          return json(200, p);
        }
        if (req.method === 'DELETE') {
          p.deleted = true;
          return json(204, undefined);
        }
        // Any other method: answered, nothing done.
        return json(200, p);
      }
      // Books (as in VAmPI): everyone lists the titles; the create answers without an id; a book's secret should be its owner's only — a real flaw.
      if (path === '/api/books' && req.method === 'GET') return json(200, { books: [...books.values()].map((b) => ({ title: b.title, author: b.author })) });
      if (path === '/api/books' && req.method === 'POST') {
        if (!body.title) return json(400, { error: 'title_required' });
        books.set(String(body.title), { title: String(body.title), secret: String(body.secret ?? ''), author: user.username });
        return json(201, { message: 'Book has been added.', status: 'success' });
      }
      const b = /^\/api\/books\/([^/]+)$/.exec(path);
      if (b && req.method === 'GET') {
        const book = books.get(decodeURIComponent(b[1]!));
        return book ? json(200, book) : json(404, { error: 'not_found' });
      }
      // Files shared by every user.
      if (path === '/api/files' && req.method === 'GET') return json(200, [{ fileId: 'catalog-2026', title: 'Catalogue 2026' }, { fileId: 'terms', title: 'Terms' }]);
      const f = /^\/api\/files\/([\w-]+)$/.exec(path);
      if (f && req.method === 'GET') return f[1] === 'catalog-2026' || f[1] === 'terms' ? json(200, { fileId: f[1], title: 'Shared file', content: 'Same for everyone, v2026.3' }) : json(404, { error: 'not_found' });
      return json(404, { error: 'not_found' });
    });
  });
  return server;
}

const POST_SCHEMA = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' }, body: { type: 'string' } }, required: ['title'] };
const SETTINGS_SCHEMA = { type: 'object', properties: { theme: { type: 'string' }, plan: { type: 'string', readOnly: true } } };
const json = (schema: unknown) => ({ description: 'ok', content_type: 'application/json', schema: schema as Record<string, unknown> });

const ENDPOINTS = [
  endpoint('POST', '/login', { security: [], flags: ['BKEN_AUTH', 'SEC_MISC'], request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } } } }),
  endpoint('GET', '/me'),
  endpoint('GET', '/account', { responses: { '200': json({ type: 'object', properties: { id: { type: 'integer' }, password: { type: 'string' }, apiKeyHint: { type: 'string' }, cardLast4: { type: 'string' }, publicKey: { type: 'string' }, reference: { type: 'string' } } }) } }),
  endpoint('GET', '/settings', { responses: { '200': json(SETTINGS_SCHEMA) } }),
  endpoint('PATCH', '/settings', { request_body: { required: true, content_type: 'application/json', schema: SETTINGS_SCHEMA } }),
  endpoint('GET', '/posts'),
  endpoint('POST', '/posts', { request_body: { required: true, content_type: 'application/json', schema: POST_SCHEMA }, responses: { '201': json(POST_SCHEMA) } }),
  endpoint('GET', '/posts/{postId}', { responses: { '200': json(POST_SCHEMA) } }),
  endpoint('PUT', '/posts/{postId}', { request_body: { required: true, content_type: 'application/json', schema: POST_SCHEMA } }),
  endpoint('DELETE', '/posts/{postId}'),
  endpoint('GET', '/files'),
  endpoint('GET', '/files/{fileId}'),
  endpoint('GET', '/admin/reports', { security: [] }),
  endpoint('GET', '/books'),
  endpoint('POST', '/books', { request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { title: { type: 'string' }, secret: { type: 'string' } }, required: ['title'] } } }),
  endpoint('GET', '/books/{title}'),
  endpoint('GET', '/users'),
  endpoint('GET', '/users/{username}', { security: [] }),
];

async function run(postsPrivate: boolean): Promise<{ findings: BuiltFinding[]; outcome: ScanOutcome; close(): void }> {
  const server = trapServer({ postsPrivate });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const r = await scanServer(url, ENDPOINTS, CHECKS, { 1: ALICE, 2: BOB });
  return { ...r, close: () => server.close() };
}

describe('false-alarm traps of the authorization checks', () => {
  let shared: Awaited<ReturnType<typeof run>>;
  let privatePosts: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    shared = await run(false);
    privatePosts = await run(true);
  });
  afterAll(() => {
    shared.close();
    privatePosts.close();
  });

  it('stays silent on an API whose behaviour is by design, and finds its one real flaw', () => {
    // The books' listing shows titles, not secrets: reading another user's book is a leak (the create gave no id: the title sent addresses it).
    expect(shared.findings.map((f) => `${f.check_id} ${f.method} ${f.path} ${f.parameter ?? ''}`)).toEqual([`${bolaCreateSteal.id} GET /books/{title} title`]);
    expect(shared.outcome.status).toBe('completed');
    expect(shared.outcome.errors.join('\n')).toMatch(/shared by design/);
  });

  it('does reach the shared posts: with posts that are not listed to other users, reading one is reported', () => {
    // The same API, except a user's listing shows only their own posts: reading another's is now a leak.
    expect(privatePosts.findings.map((f) => `${f.check_id} ${f.method} ${f.path}`).sort()).toEqual([`${bolaCreateSteal.id} GET /books/{title}`, `${bolaCreateSteal.id} GET /posts/{postId}`]);
  });

  it('keeps every check within its budget', () => {
    for (const c of CHECKS) {
      const applicable = ENDPOINTS.filter((e) => c.appliesTo({ ...e, id: 'x' })).length;
      expect(shared.outcome.requestsByCheck[c.id] ?? 0, c.id).toBeLessThanOrEqual(c.scope === 'api' ? c.budget : c.budget * applicable);
    }
  });
});
