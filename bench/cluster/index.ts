// Issue 19 budget: two team-server nodes on one PostgreSQL database hold 200 concurrent users with 0
// errors and p99 under 300 ms. The same load runs against one node on SQLite, one node on PostgreSQL
// and two nodes on one PostgreSQL, each a real `portcullis serve` process (needs `npm run build:core`).
//
// Users: 200, each signed in with their own session and owning 3 APIs of 30 endpoints and a completed
// scan of 15 findings. Each user loops: think 0.5-1.5 s, then one call of the mix (list APIs 40%,
// dashboard 20%, scan details 20%, endpoints of an API 20%); with two nodes, calls alternate between
// them as a round-robin load balancer would. Warm-up 5 s, then 30 s measured.
// Run: npm run build:core && npm run bench -- cluster [--users 200] [--seconds 30] [--think 500-1500]

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { createCore, type Core } from '../../electron/core';
import { createLogger } from '../../electron/log';
import { seedFinding, seedScan } from '../../test/helpers/seed';
import { startPostgres, type TestPostgres } from '../../test/helpers/postgres';
import { writeResult } from '../lib/results';
import { startServe, type ServeProcess } from '../lib/serve';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '200' }, seconds: { type: 'string', default: '30' }, think: { type: 'string', default: '500-1500' } },
});
const USERS = Number(values.users);
const SECONDS = Number(values.seconds);
/** Each user's pause between calls, ms (`--think 0-0`: back-to-back calls, the saturation point). */
const [THINK_MIN, THINK_MAX] = values.think.split('-').map(Number) as [number, number];
const WARMUP_MS = 5000;
const APIS_PER_USER = 3;
const ENDPOINTS_PER_API = 30;
const FINDINGS_PER_SCAN = 15;
const SECRET_KEY = crypto.randomBytes(32).toString('base64');

interface Member {
  token: string;
  apiIds: string[];
  scanId: string;
}

/** Seeds the users through a core on the store (cheap password hashes: the load never signs in). */
async function seed(core: Core): Promise<Member[]> {
  const call = async (method: string, p: string, body?: unknown, token?: string) => {
    const res = await core.fetch(
      new Request(`http://bench${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const json = (await res.json()) as { data: Record<string, unknown>; message: string };
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
    return json.data;
  };
  const { db } = core.store;
  const members: Member[] = [];
  for (let u = 0; u < USERS; u += 1) {
    const username = `load${u}`;
    await call('POST', '/api/auth/signup', { firstName: 'Load', lastName: `User ${u}`, email: `${username}@example.com`, username, password: 'benchmark-pass-1' });
    const login = (await call('POST', '/api/auth/login', { username, password: 'benchmark-pass-1' })) as { token: string; user: { id: string } };
    const apiIds: string[] = [];
    for (let a = 0; a < APIS_PER_USER; a += 1) {
      const endpoints = Array.from({ length: ENDPOINTS_PER_API }, (_, i) => ({ method: i % 3 ? 'GET' : 'POST', path: `/v1/items${a}/${i}/{id}` }));
      const made = (await call('POST', '/api/apis/manual', { name: `API ${a} of ${username}`, base_url: 'https://api.example.com', endpoints }, login.token)) as { api: { id: string } };
      apiIds.push(made.api.id);
    }
    const at = new Date(Date.now() - 3600_000).toISOString();
    const scanId = await seedScan(db, apiIds[0]!, login.user.id, { status: 'completed', created_at: at, completed_at: at, score: 70 });
    for (let f = 0; f < FINDINGS_PER_SCAN; f += 1) {
      await seedFinding(db, scanId, apiIds[0]!, { name: `Finding ${f % 5}`, cvss: [9.1, 7.5, 6.5, 5.3, 3.1][f % 5]!, path: `/v1/items0/${f}/{id}` }, at);
    }
    members.push({ token: login.token, apiIds, scanId });
  }
  return members;
}

interface Sample {
  ms: number;
  ok: boolean;
  kind: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs the user loops against the nodes; returns the samples of the measured window. */
async function load(urls: string[], members: Member[]): Promise<{ samples: Sample[]; errors: string[] }> {
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
  const samples: Sample[] = [];
  const errors: string[] = [];
  const start = performance.now();
  const end = start + WARMUP_MS + SECONDS * 1000;
  let turn = 0;
  const one = async (m: Member): Promise<void> => {
    const r = Math.random();
    const api = m.apiIds[Math.floor(Math.random() * m.apiIds.length)]!;
    const [kind, method, p, body] =
      r < 0.4
        ? ['list APIs', 'GET', '/api/apis', undefined]
        : r < 0.6
          ? ['dashboard', 'GET', '/api/dashboard/overview', undefined]
          : r < 0.8
            ? ['scan details', 'POST', '/api/scan/details', { scan_id: m.scanId }]
            : ['endpoints', 'POST', '/api/endpoints', { api_id: api }];
    const url = urls[turn++ % urls.length]!;
    const t0 = performance.now();
    let ok = false;
    try {
      const res = await undiciFetch(`${url}${p}`, {
        method,
        dispatcher,
        headers: { authorization: `Bearer ${m.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.arrayBuffer();
      ok = res.status === 200;
      if (!ok && errors.length < 10) errors.push(`${kind}: ${res.status}`);
    } catch (err) {
      if (errors.length < 10) errors.push(`${kind}: ${(err as Error).message}`);
    }
    const done = performance.now();
    if (t0 >= start + WARMUP_MS && done <= end) samples.push({ ms: done - t0, ok, kind });
  };
  await Promise.all(
    members.map(async (m, i) => {
      // Users arrive over the first second, not in one burst.
      await new Promise((r) => setTimeout(r, (i / members.length) * 1000));
      while (performance.now() < end) {
        if (THINK_MAX > 0) await new Promise((r) => setTimeout(r, THINK_MIN + Math.random() * (THINK_MAX - THINK_MIN)));
        if (performance.now() >= end) break;
        await one(m);
      }
    }),
  );
  await dispatcher.close();
  return { samples, errors };
}

function summarise(name: string, samples: Sample[], errors: string[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed = samples.filter((s) => !s.ok).length;
  const byKind = Object.fromEntries(
    [...new Set(samples.map((s) => s.kind))].map((kind) => {
      const k = samples.filter((s) => s.kind === kind).map((s) => s.ms).sort((a, b) => a - b);
      return [kind, { count: k.length, p50: +percentile(k, 50).toFixed(1), p99: +percentile(k, 99).toFixed(1) }];
    }),
  );
  const row = {
    setup: name,
    requests: samples.length,
    perSecond: +(samples.length / SECONDS).toFixed(1),
    errors: failed,
    p50: +percentile(ms, 50).toFixed(1),
    p95: +percentile(ms, 95).toFixed(1),
    p99: +percentile(ms, 99).toFixed(1),
    max: +(ms.at(-1) ?? 0).toFixed(1),
    byKind,
    firstErrors: errors,
  };
  console.log(`${name}: ${row.requests} calls (${row.perSecond}/s), errors ${row.errors}, p50 ${row.p50} ms, p95 ${row.p95} ms, p99 ${row.p99} ms, max ${row.max} ms`);
  for (const [kind, k] of Object.entries(byKind)) console.log(`  ${kind.padEnd(13)} ${String(k.count).padStart(5)} calls, p50 ${k.p50} ms, p99 ${k.p99} ms`);
  if (errors.length) console.log(`  first errors: ${errors.join('; ')}`);
  return row;
}

const logger = createLogger({ level: 'warn' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-cluster-'));
const dirs: string[] = [];
const newDir = (name: string) => {
  const d = path.join(tmp, name);
  fs.mkdirSync(d, { mode: 0o700 });
  dirs.push(d);
  return d;
};
const coreOptions = { shell: 'server' as const, logger, scryptCost: { N: 1024, r: 8, p: 1 }, signupThrottle: { maxFailures: 1_000_000, windowMs: 60_000 }, runScheduler: false };

let cluster: TestPostgres | null = null;
const rows = [];
try {
  // One node on SQLite.
  const sqliteDir = newDir('sqlite');
  const t0 = performance.now();
  const sqliteCore = await createCore({ ...coreOptions, dataDir: sqliteDir, secretKey: SECRET_KEY });
  const sqliteMembers = await seed(sqliteCore);
  await sqliteCore.close();
  console.log(`seeded ${USERS} users on SQLite in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  {
    const node = await startServe(sqliteDir, { PORTCULLIS_SECRET_KEY: SECRET_KEY });
    try {
      const { samples, errors } = await load([node.url], sqliteMembers);
      rows.push(summarise('one node, SQLite', samples, errors));
    } finally {
      await node.stop();
    }
  }

  // PostgreSQL: one node, then two nodes on the same database.
  cluster = await startPostgres();
  const databaseUrl = await cluster.createDatabase('bench_cluster');
  const t1 = performance.now();
  const pgCore = await createCore({ ...coreOptions, dataDir: newDir('pg-seed'), databaseUrl, secretKey: SECRET_KEY });
  const pgMembers = await seed(pgCore);
  await pgCore.close();
  console.log(`seeded ${USERS} users on PostgreSQL in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const env = { PORTCULLIS_SECRET_KEY: SECRET_KEY, PORTCULLIS_DATABASE_URL: databaseUrl };
  for (const count of [1, 2]) {
    const nodes: ServeProcess[] = [];
    try {
      for (let i = 0; i < count; i += 1) nodes.push(await startServe(newDir(`pg-node-${count}-${i}`), env));
      const { samples, errors } = await load(
        nodes.map((n) => n.url),
        pgMembers,
      );
      rows.push(summarise(count === 1 ? 'one node, PostgreSQL' : 'two nodes, one PostgreSQL', samples, errors));
    } finally {
      for (const n of nodes) await n.stop();
    }
  }
} finally {
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const two = rows.find((r) => r.setup.startsWith('two'));
const budget = { users: USERS, p99LimitMs: 300, met: two ? two.errors === 0 && two.p99 < 300 : false };
console.log(`budget (two nodes, ${USERS} users: 0 errors, p99 < 300 ms): ${budget.met ? 'met' : 'NOT met'}${THINK_MAX > 0 ? '' : ' (no think time: a saturation run, not the budget)'}`);
const thinking = THINK_MAX > 0;
writeResult(thinking ? 'cluster' : 'cluster-saturation', { date: new Date().toISOString(), cpus: os.availableParallelism(), loadavg: os.loadavg(), users: USERS, seconds: SECONDS, thinkMs: [THINK_MIN, THINK_MAX], rows, budget });
