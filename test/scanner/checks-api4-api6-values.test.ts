// Input-dependent slowness (regular-expression backtracking, API4) and out-of-range business values
// (API6) on the Acme target and on small hand-written APIs: each finds its flaw, stays silent on the
// hardened twin, keeps to its budget, and a trap shows the rule that keeps it precise.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { algorithmicComplexity } from '../../electron/scanner/checks/api4-resource-consumption/algorithmic-complexity';
import { outOfRangeValues } from '../../electron/scanner/checks/api6-business-flows/out-of-range-values';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan, type CheckScanOptions } from '../helpers/check-scan';
import { seeded } from '../helpers/seeded-random';
import { onlyFlaws, startTarget, type FlawId, type Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, scanServer } from './check-harness';

const CHECKS: Check[] = [algorithmicComplexity, outOfRangeValues];
const TOKEN = 'values-key';

const targets: Target[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
  for (const s of servers.splice(0)) s.close();
});

async function scanOnly(flaw: FlawId | null, checks: Check[], opts: CheckScanOptions): Promise<CheckScan> {
  const t = await startTarget({ mode: 'hardened', flaws: flaw ? onlyFlaws(flaw) : {} });
  targets.push(t);
  const s = await scanChecks(t, checks, opts);
  expect(s.outcome.status, s.outcome.failureReason ?? '').toBe('completed');
  expectWithinBudget(s, CHECKS);
  return s;
}

/** A hand-written JSON API on loopback: `handle` answers [status, body] for a method, path and parsed body. */
async function serve(handle: (method: string, path: string, body: Record<string, unknown>) => Promise<[number, unknown]> | [number, unknown]): Promise<string> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      void (async () => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
          return;
        }
        let body: Record<string, unknown> = {};
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          /* an empty object */
        }
        const [status, out] = await handle(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname, body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      })();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const jsonBody = (schema: Record<string, unknown>) => ({ required: true, content_type: 'application/json', schema });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('input-dependent slowness (api4-algorithmic-complexity)', () => {
  it('finds the backtracking e-mail check: slower with each run length, fast for a well-formed value of the same length (regex-backtracking)', async () => {
    const s = await scanOnly('regex-backtracking', [algorithmicComplexity], { only: ['POST /auth/password-reset'] });
    const [f, ...rest] = s.of(algorithmicComplexity);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ method: 'POST', path: '/auth/password-reset', parameter: 'email', confidence: 'medium' });
    expect(f!.description).toMatch(/a well-formed value of the same length took \d+ ms/);
    expect(f!.evidence).toContain('== Control: a well-formed');
    expect(f!.evidence).toContain('faster (');
    expectWellFormed(s, [f!]);
  });

  it('stays silent on the hardened twin, whose e-mail check is linear', async () => {
    const s = await scanOnly(null, [algorithmicComplexity], { only: ['POST /auth/password-reset', 'GET /products/search'] });
    expect(s.findings).toEqual([]);
    expect(s.sent(algorithmicComplexity)).toBeLessThanOrEqual(algorithmicComplexity.budget * 2);
  });

  it('builds the evil value from a schema pattern with nested quantifiers', async () => {
    const pattern = '^(\\w+\\s?)*$';
    const re = new RegExp(pattern);
    const url = await serve((method, _path, body) => (re.test(String(body.label ?? '')) ? [201, { id: 1, label: body.label }] : [400, { error: 'bad label' }]));
    const schema = { type: 'object', properties: { label: { type: 'string', pattern, example: 'summer sale' } } };
    const { findings } = await scanServer(url, [endpoint('POST', '/labels', { flags: ['SEC_MISC'], request_body: jsonBody(schema) })], [algorithmicComplexity], { 1: TOKEN });
    expect(findings.map((f) => [f.path, f.parameter])).toEqual([['/labels', 'label']]);
    expect(findings[0]!.description).toContain('built from the schema pattern');
  });

  it('trap: an endpoint slow for every input, or slow in proportion to the value length, is not reported', async () => {
    const url = await serve(async (_m, path, body) => {
      // Always 600 ms; or 25 ms per character of the e-mail whatever it holds (a big value, not a backtracking one).
      await sleep(path === '/always' ? 600 : String(body.email ?? '').length * 25);
      return [200, { ok: true }];
    });
    const schema = { type: 'object', properties: { email: { type: 'string', example: 'ann@example.com' } } };
    const eps = ['/always', '/by-length'].map((p) => endpoint('PUT', p, { flags: ['SEC_MISC'], request_body: jsonBody(schema) }));
    const { findings, outcome } = await scanServer(url, eps, [algorithmicComplexity], { 1: TOKEN });
    expect(outcome.status).toBe('completed');
    expect(findings).toEqual([]);
  });
});

describe('input-dependent slowness on loaded machines and noisy servers (api4-algorithmic-complexity)', () => {
  const emailBody = jsonBody({ type: 'object', properties: { email: { type: 'string', example: 'ann@example.com' } } });
  /** The run length of an evil e-mail value (letters ended by "!"), 0 for any other value. */
  const runOf = (email: string) => /^(a+)!$/.exec(email)?.[1]!.length ?? 0;

  it('finds a validator that backtracks although single samples came late: a cold first answer, a stalled shorter run', async () => {
    // A run of n letters ended by "!" costs 2^(n-21) ms (512 ms at 30); the very first answer takes 300 ms more (a
    // cold start), and the first run shorter than one sent before it 1.5 s more (a pause of the target or the scanner).
    let first = true;
    let longest = 0;
    let stalled = false;
    const url = await serve(async (_m, _p, body) => {
      const run = runOf(String(body.email ?? ''));
      let wait = run ? 2 ** (run - 21) : 0;
      if (first) wait += 300;
      first = false;
      if (run && run < longest && !stalled) {
        stalled = true;
        wait += 1500;
      }
      longest = Math.max(longest, run);
      await sleep(wait);
      return run ? [400, { error: 'email must be an email address' }] : [200, { ok: true }];
    });
    const { findings } = await scanServer(url, [endpoint('PUT', '/contact', { flags: ['SEC_MISC'], request_body: emailBody })], [algorithmicComplexity], { 1: TOKEN });
    expect(findings.map((f) => [f.path, f.parameter])).toEqual([['/contact', 'email']]);
    expect(findings[0]!.evidence).toContain('faster (');
  });

  it('trap: answers that vary at random, stall at times, or are slow for any (long) value are not reported', async () => {
    // /jitter-N answers after 0-700 ms at random; /stall-N at once, or after 600 ms one time in three; /always
    // after 600 ms; /long after 700 ms for any e-mail past 18 characters, evil or well-formed.
    const noise = new Map<string, () => number>();
    const url = await serve(async (_m, path, body) => {
      if (!noise.has(path)) noise.set(path, seeded(Number(path.replace(/\D/g, '') || 0) + (path.startsWith('/stall') ? 200 : 7)));
      const r = noise.get(path)!();
      const email = String(body.email ?? '');
      const wait = path.startsWith('/jitter') ? r * 700 : path.startsWith('/stall') ? (r < 1 / 3 ? 600 : 0) : path === '/always' ? 600 : email.length > 18 ? 700 : 0;
      await sleep(wait);
      return runOf(email) ? [400, { error: 'email must be an email address' }] : [200, { ok: true }];
    });
    const paths = [...Array.from({ length: 4 }, (_, i) => `/jitter-${i}`), ...Array.from({ length: 4 }, (_, i) => `/stall-${i}`), '/always', '/long'];
    const { findings, outcome } = await scanServer(url, paths.map((p) => endpoint('PUT', p, { flags: ['SEC_MISC'], request_body: emailBody })), [algorithmicComplexity], { 1: TOKEN });
    expect(outcome.status).toBe('completed');
    expect(findings.map((f) => f.path)).toEqual([]);
  }, 120_000);
});

describe('out-of-range business values (api6-out-of-range-values)', () => {
  it('finds a negative quantity stored and lowering the order total (negative-quantity)', async () => {
    const s = await scanOnly('negative-quantity', [outOfRangeValues], { only: ['POST /orders', 'GET /orders/{orderId}'] });
    const [f, ...rest] = s.of(outOfRangeValues);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ method: 'POST', path: '/orders', parameter: 'items[0].quantity', severity: 'medium', cvss_score: 6.5, confidence: 'high' });
    expect(f!.description).toMatch(/items\[0\]\.quantity = -1 \(the schema says minimum 1, maximum 10\) was accepted \(HTTP 201\); the follow-up read shows it stored; total went from [\d.]+ to -[\d.]+/);
    expectWellFormed(s, [f!]);
  });

  it('stays silent on the hardened twin, which answers 400 for values below their minimum', async () => {
    const s = await scanOnly(null, [outOfRangeValues], { only: ['POST /orders', 'GET /orders/{orderId}', 'POST /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}'] });
    expect(s.findings).toEqual([]);
    expect(s.sent(outOfRangeValues)).toBeGreaterThan(0);
  });

  it('trap: a value accepted but clamped into range, or accepted and ignored, is not reported', async () => {
    const carts = new Map<number, Record<string, unknown>>();
    let next = 1;
    const url = await serve((method, path, body) => {
      if (method === 'POST' && path === '/carts') {
        // Quantities are clamped to 1..10; the rating is accepted and dropped.
        const quantity = Math.min(10, Math.max(1, Number(body.quantity ?? 1)));
        const cart = { id: next++, quantity, total: quantity * 5, rating: 4 };
        carts.set(cart.id, cart);
        return [201, cart];
      }
      const m = /^\/carts\/(\d+)$/.exec(path);
      const cart = m ? carts.get(Number(m[1])) : undefined;
      return cart && method === 'GET' ? [200, cart] : [404, { error: 'not_found' }];
    });
    const schema = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, quantity: { type: 'integer', example: 2 }, rating: { type: 'integer', example: 4 }, total: { type: 'number', readOnly: true } } };
    const eps = [
      endpoint('POST', '/carts', { flags: ['BOPLA'], request_body: jsonBody(schema), responses: { '201': { description: 'created', content_type: 'application/json', schema } } }),
      endpoint('GET', '/carts/{cartId}', { responses: { '200': { description: 'ok', content_type: 'application/json', schema } } }),
    ];
    const { findings, outcome } = await scanServer(url, eps, [outOfRangeValues], { 1: TOKEN });
    expect(outcome.status).toBe('completed');
    expect(outcome.requestsByCheck[outOfRangeValues.id]).toBeGreaterThan(0);
    expect(findings).toEqual([]);
  });
});
