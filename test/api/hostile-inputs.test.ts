// Nothing a user sends blocks the event loop (issue 30, item 3): the real server over HTTP on
// 127.0.0.1 takes hostile files and a hostile login pattern while a pinger asks GET /api/health every
// 50 ms. Each must be refused or answered with the loop never stalled for a second (measured by
// perf_hooks) and the process growing by less than 500 MB. The fixtures are generated here.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportData, TestIdentityData } from '../../shared/contract';
import { IMPORT_LIMITS } from '../../electron/importer/limits';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { listenLocal } from '../targets/http';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

const MAX_STALL_MS = 1_000;
const MAX_GROWTH_MB = 500;
const PING_EVERY_MS = 50;

/** 3.6 MB of SDL: one query type and 100,000 `extend type` definitions (48 s of loop once). */
function extensionFlood(): string {
  const parts = ['type Query { ping: Int }'];
  for (let i = 0; i < 100_000; i += 1) parts.push(`extend type Query { field${i}: Int }`);
  return parts.join('\n');
}

/**
 * A schema over the token limit: 1.2 million tokens in 3.4 MB. graphql-js would hold every one of them
 * before its own limit refused the file (5 million tokens cost 1.5-1.9 GB).
 */
function overTokenLimit(): string {
  const fields: string[] = [];
  for (let i = 0; i < 400_000; i += 1) fields.push(`f${i.toString(36)}: Int`);
  return `type Query {\n${fields.join('\n')}\n}`;
}

/** An introspection result with more types than a schema is built from. */
function introspectionFlood(): string {
  const types: unknown[] = [{ kind: 'OBJECT', name: 'Query', fields: [{ name: 'ping', args: [], type: { kind: 'SCALAR', name: 'Int' } }], interfaces: [] }];
  for (let i = 0; i < IMPORT_LIMITS.maxGraphqlDefinitions + 5_000; i += 1) types.push({ kind: 'SCALAR', name: `S${i}` });
  return JSON.stringify({ data: { __schema: { queryType: { name: 'Query' }, types, directives: [] } } });
}

/**
 * Watches the loop while `work` runs: the longest delay perf_hooks saw, every ping's latency (a ping
 * that cannot get through counts as the whole run), and the growth of the resident set.
 */
async function watched<T>(t: Transport, work: () => Promise<T>): Promise<{ value: T; stallMs: number; slowestPingMs: number; pings: number; growthMb: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const latencies: number[] = [];
  let running = true;
  const pinger = (async () => {
    while (running) {
      const sent = performance.now();
      const res = await t.call('GET', '/api/health');
      expect(res.status).toBe(200);
      latencies.push(performance.now() - sent);
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, PING_EVERY_MS));
    }
  })();
  delay.enable();
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    running = false;
    await pinger;
    delay.disable();
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const total = performance.now() - started;
  return {
    value,
    stallMs: delay.max / 1e6,
    slowestPingMs: latencies.length ? Math.max(...latencies) : total,
    pings: latencies.length,
    growthMb: (peak - baseline) / 1024 / 1024,
  };
}

describe('hostile inputs over HTTP', () => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let stopLogin: () => Promise<void>;
  let loginUrl: string;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport('http', tc.core);
    owner = await signUpAndLogin(t, 'owner');
    // A login endpoint whose answer is a long run of "a" and a mismatch: what `^(a+)+$` backtracks on.
    const body = `${'a'.repeat(64 * 1024)}!`;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    });
    stopLogin = await listenLocal(server);
    loginUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await stopLogin?.();
  });

  function upload(name: string, text: string) {
    const form = new FormData();
    form.append('file', new File([text], name));
    form.append('user_id', owner.id);
    return t.call<Env<ImportData>>('POST', '/api/import', { token: owner.token, raw: form });
  }

  function expectResponsive(r: { stallMs: number; slowestPingMs: number; pings: number; growthMb: number }) {
    expect(r.pings).toBeGreaterThan(0);
    expect(r.stallMs).toBeLessThan(MAX_STALL_MS);
    expect(r.slowestPingMs).toBeLessThan(MAX_STALL_MS);
    expect(r.growthMb).toBeLessThan(MAX_GROWTH_MB);
  }

  it('refuses 100,000 type extensions (3.6 MB of SDL) before building the schema', async () => {
    const sdl = extensionFlood();
    expect(sdl.length).toBeGreaterThan(3.4e6);
    const r = await watched(t, () => upload('extended.graphql', sdl));
    expect(r.value.status).toBe(400);
    expect(r.value.json.message).toMatch(/^The GraphQL schema (is too large: it has more than [\d,]+ tokens|has 100,000 extensions)/);
    expectResponsive(r);
  });

  it('refuses a schema over the token limit before parsing it', async () => {
    const r = await watched(t, () => upload('huge.graphql', overTokenLimit()));
    expect(r.value.status).toBe(400);
    expect(r.value.json.message).toBe(
      `The GraphQL schema is too large: it has more than ${IMPORT_LIMITS.maxGraphqlTokens.toLocaleString('en-US')} tokens (names, punctuation and strings). Import the part of the schema you want to scan.`,
    );
    expectResponsive(r);
  });

  it('refuses an introspection result with more types than the limit before building it', async () => {
    const r = await watched(t, () => upload('introspection.json', introspectionFlood()));
    expect(r.value.status).toBe(400);
    expect(r.value.json.message).toMatch(/^The GraphQL schema has [\d,]+ types; at most 20,000 are read\./);
    expectResponsive(r);
  });

  it("tests a login recipe whose pattern is ^(a+)+$ against a 64 KB 'aaaa...!' answer", async () => {
    const spec = JSON.stringify({ openapi: '3.0.3', info: { title: 'Login target', version: '1' }, servers: [{ url: loginUrl }], paths: { '/me': { get: { responses: { 200: { description: 'ok' } } } } } });
    const imported = await upload('login-target.json', spec);
    expect(imported.status, imported.text).toBe(201);
    const identity = { name: 'alice', login: { request: { path: '/login', json: { username: 'alice', password: 'pw-alice-1' } }, token: { from: 'regex', pattern: '^(a+)+$' } } };
    const r = await watched(t, () =>
      t.call<Env<TestIdentityData>>('POST', '/api/scan/identity/test', { token: owner.token, body: { api_id: imported.json.data.api.id, identity } }),
    );
    expect(r.value.status, r.value.text).toBe(200);
    expect(r.value.json.data.ok).toBe(false);
    expect(r.value.json.data.message).toMatch(/^Could not log in: POST \/login answered 200, but the token \(\/\^\(a\+\)\+\$\/ in the body\) is not in its answer\.$/);
    expectResponsive(r);
  });

  it('refuses a pattern RE2 cannot run when the identity is tested, saying why', async () => {
    const spec = JSON.stringify({ openapi: '3.0.3', info: { title: 'Login target 2', version: '1' }, servers: [{ url: loginUrl }], paths: { '/me': { get: { responses: { 200: { description: 'ok' } } } } } });
    const imported = await upload('login-target-2.json', spec);
    const identity = { name: 'alice', login: { request: { path: '/login', json: { username: 'alice' } }, token: { from: 'regex', pattern: '(a)\\1' } } };
    const res = await t.call<Env<unknown>>('POST', '/api/scan/identity/test', { token: owner.token, body: { api_id: imported.json.data.api.id, identity } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toContainEqual({ field: 'identity.login.token.pattern', message: expect.stringMatching(/^pattern uses a backreference \(\\1\), which Portcullis does not run/) });
  });
});
