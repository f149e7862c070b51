// Injection everywhere (issue 16): SQL in a path segment proven by a boolean pair and a UNION read,
// NoSQL operators in a query string and a $where expression, on the Acme target and its hardened
// twin; header values and array members of a small SQLite-backed API; and the traps each precision
// rule exists for (a 500 on every odd input, a search that returns everything, a database error
// that is not a parse error or does not come back).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { nosqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/nosql-injection';
import { sqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/sql-injection';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import { runCurlText, showsProof } from '../helpers/replay';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';

const CHECKS = [sqlInjection, nosqlInjection];
const ROUTES = ['GET /categories/{category}/products', 'GET /coupons/check', 'GET /stores', 'GET /products'];

const targets: Target[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
  for (const s of servers.splice(0)) s.close();
});

async function scanTarget(t: Target, only: string[]): Promise<CheckScan> {
  targets.push(t);
  const s = await scanChecks(t, CHECKS, { only });
  expect(s.outcome.status).toBe('completed');
  expectWithinBudget(s, CHECKS);
  return s;
}

const rows = (s: CheckScan) => s.findings.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path} | ${f.parameter} | ${f.confidence}`).sort();

describe('injection in path segments and query strings, on the Acme target', () => {
  it('proves SQL injection in a path segment with a boolean pair and a UNION read of computed constants (sqli-path)', async () => {
    const s = await scanTarget(await targetWith('sqli-path'), ['GET /categories/{category}/products']);
    expect(rows(s)).toEqual(['SQL injection (boolean-based) | GET /categories/{category}/products | category | high']);
    const [f] = s.findings;
    const union = /UNION read: "pcx\d+' UNION SELECT [\d*,]+-- -" -> the answer contains (\d+), which the database computed from \d+\*\d+/.exec(f!.evidence);
    expect(union).not.toBeNull();
    // Its proof is the product the database computed, the same on any instance (the version it read is not).
    expect(f!.proof).toEqual({ step: 1, status: [200], marker: union![1] });
    expect(f!.evidence).toMatch(/Database version read with sqlite_version\(\): "3\.\d+\.\d+"/);
    // The path segment went out URL-encoded and reached the server decoded.
    expect(f!.evidence).toMatch(/> GET \/api\/v2\/categories\/pcx\d+'%20UNION%20SELECT%20/);
    expectWellFormed(s, s.findings);
  });

  it('adds the read to an error-based finding (sqli-error)', async () => {
    const s = await scanTarget(await targetWith('sqli-error'), ['GET /products']);
    expect(rows(s)).toEqual(['SQL injection (error-based) | GET /products | category | high']);
    expect(s.findings[0]!.description).toMatch(/Data can be read: .*a UNION SELECT of 9 computed constants came back/);
    expect(s.findings[0]!.description).toMatch(/syntax error|unrecognized token/);
  });

  it('finds NoSQL operators in a query string (nosql-query) and a $where expression (nosql-where)', async () => {
    const s = await scanTarget(await targetWith('nosql-query', 'nosql-where'), ['GET /coupons/check', 'GET /stores']);
    expect(rows(s)).toEqual([
      'NoSQL injection (server-side JavaScript) | GET /stores | city | medium',
      'NoSQL operator injection | GET /coupons/check | code | medium',
    ]);
    const coupons = s.findings.find((f) => f.path === '/coupons/check')!;
    expect(coupons.evidence).toContain('Attack: [$ne]=random');
    expect(coupons.evidence).toContain('Confirmation: [$regex]=.*');
    const stores = s.findings.find((f) => f.path === '/stores')!;
    expect(stores.evidence).toContain(`Attack: Lyon' || 'a'==='a`);
    expectWellFormed(s, s.findings);
    // A difference proof states the attack's answer, not the control's: its status, and a field the refused answer lacks.
    expect(coupons.proof).toEqual({ step: 1, status: [200], marker: '"code"' });
    expect(stores.proof).toEqual({ step: 1, status: [200], marker: '"name"' });
    // The curl text replayed with bash shows that proof again; the control's status (404) is not what it shows.
    for (const f of [coupons, stores]) {
      const out = await runCurlText(f.curl, { PORTCULLIS_KEY_1: s.t.users.alice.key });
      expect(showsProof(out, f.proof!, f.curl), out).toBe('');
    }
    expect(showsProof('HTTP/1.1 404 Not Found\n\n{"error":"not_found"}', coupons.proof!, coupons.curl)).toMatch(/the proof answered 200/);
    expect(showsProof('HTTP/1.1 200 OK\n\n{"items":[]}', stores.proof!, stores.curl)).toMatch(/lacks "name"/);
  });

  it('stays silent on the hardened twin of the same routes', async () => {
    const s = await scanTarget(await hardened(), ROUTES);
    expect(rows(s)).toEqual([]);
  });
});

// ---------------------------------------------------------------- a small SQLite-backed API

const KEY = 'tok-injection-points-1';

function start(handler: (req: http.IncomingMessage, url: URL, body: unknown) => { status: number; body: unknown }): Promise<string> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const out = req.headers.authorization === `Bearer ${KEY}` ? handler(req, url, body) : { status: 401, body: { error: 'unauthorized' } };
      res.writeHead(out.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out.body));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function catalogue() {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, tenant TEXT, tag TEXT); INSERT INTO items (name, tenant, tag) VALUES ('lamp', 'acme', 'home'), ('chair', 'acme', 'home'), ('kettle', 'other', 'kitchen');");
  /** Runs concatenated SQL; errors come back with the driver's message, as careless APIs do. */
  return (sql: string) => {
    try {
      return { status: 200, body: { items: db.prepare(sql).all() } };
    } catch (e) {
      return { status: 500, body: { error: `SQLITE_ERROR: ${(e as Error).message}` } };
    }
  };
}

const json = { 200: { description: 'ok', content_type: 'application/json', schema: null } };

describe('header values and array members', () => {
  it('finds SQL injection in a declared header and in the first member of a body array', async () => {
    const run = catalogue();
    const url = await start((req, u, body) => {
      if (u.pathname === '/items') return run(`SELECT id, name FROM items WHERE tenant = '${String(req.headers['x-tenant'] ?? '')}'`);
      if (u.pathname === '/items/by-tags') return run(`SELECT id, name FROM items WHERE tag = '${String((body as { tags: string[] }).tags[0])}'`);
      return { status: 404, body: {} };
    });
    const { findings, outcome } = await scanServer(
      url,
      [
        endpoint('GET', '/items', { parameters: [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', example: 'acme' } }], responses: json }),
        endpoint('POST', '/items/by-tags', {
          request_body: { content_type: 'application/json', required: true, schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, example: ['home'] } } } },
          responses: json,
        }),
      ],
      [sqlInjection],
      { 1: KEY },
    );
    expect(findings.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path} | ${f.parameter}`).sort()).toEqual([
      'SQL injection (error-based) | GET /items | X-Tenant',
      'SQL injection (error-based) | POST /items/by-tags | tags[0]',
    ]);
    for (const f of findings) expect(f.evidence).toMatch(/UNION read: .* -> the answer contains \d+/);
    expect(outcome.requestsByCheck[sqlInjection.id]).toBeLessThanOrEqual(sqlInjection.budget * 2);
  });
});

// ---------------------------------------------------------------- traps

describe('traps: what is not an injection', () => {
  const get = (path: string, name: string, example: string) =>
    endpoint('GET', path, { parameters: [{ name, in: 'query', required: true, schema: { type: 'string', example } }], responses: json });

  it('a 500 on every odd input, a search that returns everything, and operators that are ignored make no finding', async () => {
    const everything = [{ id: 1, name: 'lamp' }, { id: 2, name: 'chair' }, { id: 3, name: 'kettle' }];
    const url = await start((_req, u) => {
      const q = [...u.searchParams.values()].join('');
      if (u.pathname === '/strict') return /^[\w-]*$/.test(q) ? { status: 200, body: { items: everything.slice(0, 1) } } : { status: 500, body: { error: 'internal error' } };
      if (u.pathname === '/search') return { status: 200, body: { items: everything } };
      return { status: 404, body: {} };
    });
    const { findings, outcome } = await scanServer(url, [get('/strict', 'name', 'lamp'), get('/search', 'q', 'lamp')], CHECKS, { 1: KEY });
    expect(outcome.status).toBe('completed');
    expect(findings).toEqual([]);
  });

  it('a database error that is not a parse error (a table missing while the database is reset) is not SQL injection', async () => {
    // Every request that carries a quote meets the reset; the doubled quote, too, is treated as data.
    const url = await start((_req, u) => {
      const name = u.searchParams.get('name') ?? '';
      if (/'/.test(name) && !/''/.test(name)) return { status: 500, body: { error: 'sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) no such table: users\n[SQL: SELECT users.id FROM users WHERE users.name = ?]' } };
      return { status: 404, body: { error: 'not found' } };
    });
    const { findings } = await scanServer(url, [get('/users', 'name', 'lamp')], [sqlInjection], { 1: KEY });
    expect(findings).toEqual([]);
  });

  it('a parse error that does not come back on a second try is not reported', async () => {
    let errors = 0;
    const url = await start((_req, u) => {
      const name = u.searchParams.get('name') ?? '';
      if (/'$/.test(name) && !/''$/.test(name) && errors++ === 0) return { status: 500, body: { error: 'SQLITE_ERROR: unrecognized token: "\'lamp\'\'"' } };
      return { status: 404, body: { error: 'not found' } };
    });
    const { findings } = await scanServer(url, [get('/users', 'name', 'lamp')], [sqlInjection], { 1: KEY });
    expect(errors).toBeGreaterThan(1);
    expect(findings).toEqual([]);
  });
});
