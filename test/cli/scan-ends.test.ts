// Every scan and import ends (issue 30, item 2): an API with an endless event stream and a body that
// drips a byte at a time is scanned to the end within its request deadlines; a scan that would run past
// its time limit stops there, failed with the reason, and keeps what it found; a live GraphQL import
// and an identity test of a URL that never finishes answering end at their own limit.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli';
import { introspectGraphql } from '../../electron/scanner/graphql-introspect';
import { testIdentity } from '../../electron/scanner/identities/probe';
import { tempDir } from '../helpers/core';
import { listenLocal } from '../targets/http';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = 'stall-token-5d1c9e';

/** An API whose /events streams forever, whose /slow drips its body, and whose /stuck never answers at all (unless told to answer). */
async function stallingApi(opts: { stuckAnswers?: boolean } = {}): Promise<{ url: string; spec: string; open: () => number }> {
  let open = 0;
  const server = http.createServer((req, res) => {
    open += 1;
    res.on('close', () => (open -= 1));
    const url = new URL(req.url ?? '/', 'http://x');
    // A URL that never answers, with or without credentials (an import's, a login's).
    if (/^\/(graphql-stuck|login-stuck)/.test(url.pathname)) return;
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
      return;
    }
    if (url.pathname === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const tick = setInterval(() => res.write('event: ping\ndata: {}\n\n'), 200);
      res.on('close', () => clearInterval(tick));
      return;
    }
    if (url.pathname === '/api/slow') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      const tick = setInterval(() => res.write(' '), 250);
      res.on('close', () => clearInterval(tick));
      return;
    }
    if (url.pathname === '/api/stuck' && !opts.stuckAnswers) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":1,"name":"ok"}');
  });
  const stop = await listenLocal(server);
  cleanups.push(stop);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const op = (id: string) => ({ get: { operationId: id, responses: { '200': { description: 'ok' } } } });
  const spec = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Stalling API', version: '1' },
    servers: [{ url: base }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: { '/api/events': op('events'), '/api/slow': op('slow'), '/api/stuck': op('stuck'), '/api/me': op('me') },
  });
  return { url: base, spec, open: () => open };
}

function workDir(): string {
  const dir = tempDir('portcullis-ends-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Report {
  scan: { status: string; failure_reason: string | null };
  findings: { check_id: string }[];
  errors?: string[];
}

describe('a scan ends whatever the API does', () => {
  it('scans an endless event stream and a dripping body to the end within the request deadline', async () => {
    const api = await stallingApi({ stuckAnswers: true });
    const dir = workDir();
    const spec = path.join(dir, 'stall.json');
    fs.writeFileSync(spec, api.spec);
    const started = Date.now();
    const code = await main(['scan', '--spec', spec, '--key1', TOKEN, '--rps', '0', '--timeout-ms', '1500', '--out', dir, '--quiet', '--fail-on', 'high']);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as Report;
    expect(report.scan.status).toBe('completed');
    expect(code).not.toBe(2);
    // Every request ended by its deadline (1.5 s), streams after their bound: far from the minutes a stream could hold a scan.
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(api.open()).toBe(0);
  }, 120_000);

  it('stops at its time limit, failed with the reason, and keeps the findings file', async () => {
    const api = await stallingApi();
    const dir = workDir();
    const spec = path.join(dir, 'stall.json');
    fs.writeFileSync(spec, api.spec);
    const started = Date.now();
    // Requests may take a minute each: only the scan's own limit ends it.
    const code = await main(['scan', '--spec', spec, '--key1', TOKEN, '--rps', '0', '--timeout-ms', '60000', '--max-duration', '10', '--out', dir, '--quiet']);
    const took = Date.now() - started;
    expect(code).toBe(2);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as Report;
    expect(report.scan.status).toBe('failed');
    expect(report.scan.failure_reason).toMatch(/reached its time limit \(10 s\) and was stopped/);
    expect(report.scan.failure_reason).toMatch(/found until then are kept/);
    expect(took).toBeGreaterThanOrEqual(9_000);
    expect(took).toBeLessThan(25_000);
  }, 60_000);
});

describe('imports and identity tests end at their time limit', () => {
  const settings = { timeoutMs: 60_000, tlsVerify: true, allowLocal: true, allowCommands: false, deadlineMs: 1_500 };

  it('ends a live GraphQL import whose URL never finishes answering', async () => {
    const api = await stallingApi();
    const started = Date.now();
    const err = await introspectGraphql({ url: `${api.url}/graphql-stuck`, settings }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/did not finish within 2 s, its time limit/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends an identity test whose login never finishes answering', async () => {
    const api = await stallingApi();
    const started = Date.now();
    const result = await testIdentity({
      baseUrl: api.url,
      security: { schemes: {}, default: [] },
      endpoints: [],
      identity: { name: 'alice', role: 'user', login: { request: { method: 'POST', path: '/login-stuck', json: { username: 'a', password: 'b' } }, token: { from: 'body', pointer: '/token' } } } as never,
      settings,
    });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/did not finish within 2 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
