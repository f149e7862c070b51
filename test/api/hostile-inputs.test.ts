// Nothing a user sends blocks the event loop (issue 30, item 3): the real server over HTTP on
// 127.0.0.1 takes hostile files, large but legal ones (read in the import worker) and a hostile login
// pattern while a pinger asks GET /api/health every 50 ms. Each must be refused or answered with the
// loop never stalled for a second (measured by perf_hooks) and the process growing by less than
// 500 MB. The fixtures are generated here, before the watch starts.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportData, TestIdentityData } from '../../shared/contract';
import { IMPORT_LIMITS } from '../../electron/importer/limits';
import { createTestCore, httpTransport, signUpAndLogin, tempDir, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { graphqlFieldsAcrossTypes, graphqlManyTypes, largeOpenApi } from '../helpers/large-specs';
import { listenLocal } from '../targets/http';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

/**
 * Uploads a file from another process: building and sending a 25 MB multipart body is the client's work,
 * which in this process would stall the very loop the test watches. Prints the answer as JSON.
 */
const UPLOAD_CLIENT = `
const { openAsBlob } = await import('node:fs');
const [url, token, userId, file, name] = process.argv.slice(1);
const form = new FormData();
form.append('file', new File([await openAsBlob(file)], name));
form.append('user_id', userId);
const res = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: form });
process.stdout.write(JSON.stringify({ status: res.status, text: await res.text() }));
`;

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
  let t: Transport & { server: { url: string } };
  let owner: TestUser;
  let files: string;
  let stopLogin: () => Promise<void>;
  let loginUrl: string;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await httpTransport(tc.core);
    files = tempDir('portcullis-large-specs-');
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
    if (files) fs.rmSync(files, { recursive: true, force: true });
  });

  function upload(name: string, text: string) {
    const form = new FormData();
    form.append('file', new File([text], name));
    form.append('user_id', owner.id);
    return t.call<Env<ImportData>>('POST', '/api/import', { token: owner.token, raw: form });
  }

  /** Writes the file now (before the watch); the returned call uploads it from a child process. */
  function uploaderOf(name: string, text: string): () => Promise<{ status: number; text: string; json: Env<ImportData> }> {
    const file = `${files}/${name}`;
    fs.writeFileSync(file, text);
    return () =>
      new Promise((resolve, reject) => {
        const args = ['--input-type=module', '-e', UPLOAD_CLIENT, `${t.server.url}/api/import`, owner.token, owner.id, file, name];
        execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
          if (err) return reject(new Error(`the upload client failed: ${stderr || err.message}`));
          const answer = JSON.parse(stdout) as { status: number; text: string };
          resolve({ ...answer, json: JSON.parse(answer.text) as Env<ImportData> });
        });
      });
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
    const sdl = overTokenLimit();
    const r = await watched(t, () => upload('huge.graphql', sdl));
    expect(r.value.status).toBe(400);
    expect(r.value.json.message).toBe(
      `The GraphQL schema is too large: it has more than ${IMPORT_LIMITS.maxGraphqlTokens.toLocaleString('en-US')} tokens (names, punctuation and strings). Import the part of the schema you want to scan.`,
    );
    expectResponsive(r);
  });

  it('refuses an introspection result with more types than the limit before building it', async () => {
    const json = introspectionFlood();
    const r = await watched(t, () => upload('introspection.json', json));
    expect(r.value.status).toBe(400);
    expect(r.value.json.message).toMatch(/^The GraphQL schema has [\d,]+ types; at most 20,000 are read\./);
    expectResponsive(r);
  });

  it('refuses 25 MB of "{}," (8.7 million objects) before parsing it', { timeout: 120_000 }, async () => {
    // JSON.parse built these outside the JS heap: 11 s of loop and 800 MB once, and a worker at its heap limit
    // aborted the whole process (nodejs/node#47224).
    const head = '{"openapi":"3.0.3","info":{"title":"Objects","version":"1"},"paths":{},"x-objects":[';
    const upload = uploaderOf('objects.json', `${head}${'{},'.repeat(8_700_000)}{}]}`);
    const r = await watched(t, upload);
    expect(r.value.status, r.value.text).toBe(400);
    expect(r.value.json.message).toBe('The file has more than 2,500,000 values, more than an import holds. Import a smaller part of it.');
    expectResponsive(r);
  });

  // Within every limit, yet seconds of graphql-js or JSON work: read in the import worker, the loop stays free.
  it('imports 150,000 GraphQL fields across 1,500 types (460,000 tokens) while the loop stays responsive', { timeout: 240_000 }, async () => {
    const upload = uploaderOf('fields.graphql', graphqlFieldsAcrossTypes(1_500, 100));
    const r = await watched(t, upload);
    expect(r.value.status, r.value.text).toBe(201);
    expect(r.value.json.data.format).toBe('graphql-sdl');
    expect(r.value.json.data.endpoint_count).toBe(1_500);
    expectResponsive(r);
  });

  it('imports a GraphQL schema of 20,000 types while the loop stays responsive', { timeout: 240_000 }, async () => {
    const upload = uploaderOf('types.graphql', graphqlManyTypes(IMPORT_LIMITS.maxGraphqlDefinitions));
    const r = await watched(t, upload);
    expect(r.value.status, r.value.text).toBe(201);
    expect(r.value.json.data.endpoint_count).toBe(4_999);
    expectResponsive(r);
  });

  it('imports a 25 MB OpenAPI file of 10,000 operations while the loop stays responsive', { timeout: 240_000 }, async () => {
    const json = largeOpenApi();
    expect(json.length).toBeGreaterThan(24 * 1024 * 1024);
    const upload = uploaderOf('large.json', json);
    const r = await watched(t, upload);
    expect(r.value.status, r.value.text).toBe(201);
    expect(r.value.json.data.endpoint_count).toBe(IMPORT_LIMITS.maxEndpoints);
    expect(r.value.json.data.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^Only the first 10,000 operations were imported/));
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
