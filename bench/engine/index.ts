// Engine benchmark, in one run against a trivial loopback target (its own process):
//  1. raw undici throughput at concurrency 64 (the reference);
//  2. HttpEngine.send throughput at concurrency 64, cap off (scope, budgets, credentials, body reads);
//  3. a whole scan with the registered checks, cap off, concurrency 64 (4,000 endpoints after a
//     500-endpoint warm-up scan): requests per second, start to finish;
//  4. a synthetic 1,000-endpoint spec (OpenAPI 3, imported by the importer) scanned with the cap
//     off, in a process of its own: wall time and peak RSS.
// Run: npm run bench -- engine. Figures go to bench/results/engine.json; docs/benchmarks.md
// "## Engine" records them. Wall-clock figures depend on what else the machine runs: the scanner's
// CPU time per request (also reported) does not. BENCH_ONLY=scan BENCH_SCAN_ENDPOINTS=N runs one scan;
// BENCH_BY_CHECK=1 prints its requests by check, BENCH_TIMELINE=1 its progress.

import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createCore } from '../../electron/core';
import { createLogger } from '../../electron/log';
import { HttpEngine } from '../../electron/scanner/http/engine';
import { importApiDocument } from '../../electron/importer/index';
import { writeResult } from '../lib/results';

/** Scanner CPU time per request in microseconds (robust to a busy machine, unlike wall time). */
const cpu: Record<string, number> = {};
function cpuPer(start: NodeJS.CpuUsage, n: number): number {
  const d = process.cpuUsage(start);
  return Math.round((d.user + d.system) / n);
}
const CONCURRENCY = 64;
const RAW_REQUESTS = Number(process.env.BENCH_RAW_REQUESTS ?? 60_000);

async function startTarget(): Promise<{ url: string; stop(): void }> {
  const script = path.join('bench', 'engine', 'target.mjs');
  const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function rawUndici(url: string, n: number): Promise<number> {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  let next = 0;
  const worker = async () => {
    while (next++ < n) {
      const res = await pool.request({ method: 'GET', path: '/raw', headers: { authorization: 'Bearer bench-key-1' } });
      await res.body.text();
    }
  };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const s = (performance.now() - t0) / 1000;
  cpu.raw = cpuPer(c0, n);
  await pool.close();
  return n / s;
}

async function engineSend(url: string, n: number): Promise<number> {
  const engine = new HttpEngine({
    baseUrl: url,
    concurrency: CONCURRENCY,
    rps: 0,
    timeoutMs: 15_000,
    retries: 2,
    maxBodyBytes: 1 << 20,
    maxRequests: n + 10,
    allowLocal: true,
    keys: { 1: 'bench-key-1' },
    signal: new AbortController().signal,
  });
  let next = 0;
  const target = engine.resolve('/engine');
  const worker = async () => {
    while (next++ < n) {
      const ex = await engine.send({ method: 'GET', url: target, auth: { kind: 'key', key: 1 } });
      if (!ex.ok) throw new Error(`status ${ex.status}`);
    }
  };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const s = (performance.now() - t0) / 1000;
  cpu.send = cpuPer(c0, n);
  await engine.close();
  return n / s;
}

/** A synthetic OpenAPI 3 document: `count` operations over collections with list, create, read, update. */
export function syntheticSpec(count: number): string {
  const paths: Record<string, Record<string, unknown>> = {};
  const item = { $ref: '#/components/schemas/Item' };
  let ops = 0;
  for (let r = 0; ops < count; r += 1) {
    const base = `/v1/resource${r}`;
    const id = { name: `id${r}`, in: 'path', required: true, schema: { type: 'integer' } };
    const body = { required: true, content: { 'application/json': { schema: item } } };
    const ok = { '200': { description: 'ok', content: { 'application/json': { schema: item } } } };
    paths[base] = {
      get: { operationId: `list${r}`, parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', default: 20 } }], responses: ok },
      post: { operationId: `create${r}`, requestBody: body, responses: { '201': ok['200'] } },
    };
    paths[`${base}/{id${r}}`] = {
      get: { operationId: `read${r}`, parameters: [id], responses: ok },
      put: { operationId: `update${r}`, parameters: [id], requestBody: body, responses: ok },
    };
    ops += 4;
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Synthetic bench API', version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:1' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Item: { type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', example: 'n' }, size: { type: 'integer' } } } },
    },
    paths,
  });
}

async function scan(
  url: string,
  endpoints: number,
): Promise<{ seconds: number; requests: number; rps: number; cpuUsPerRequest: number; systemCpuUsPerRequest: number; peakRssMb: number; findings: number; status: string; endpoints: number; importMs: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-bench-'));
  const core = await createCore({ shell: 'cli', dataDir, secretStore: 'encrypted', logger: createLogger({ level: 'warn' }), scan: { maxRequestsPerScan: 1_000_000 } });
  try {
    const s = core.services;
    const user = await s.repos.users.create({ email: 'bench@example.com', username: 'bench', firstName: 'B', lastName: 'B', passwordHash: null }, new Date());
    const i0 = performance.now();
    const imported = importApiDocument(new TextEncoder().encode(syntheticSpec(endpoints)), { filename: 'bench.json' });
    const importMs = performance.now() - i0;
    const apiId = await s.repos.apis.createWithEndpoints(
      {
        ownerId: user.id,
        name: imported.name,
        baseUrl: url,
        sourceFormat: imported.format,
        sourceFilename: 'bench.json',
        specVersion: imported.spec_version,
        security: imported.security,
        endpoints: imported.endpoints,
      },
      new Date(),
    );
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
    const scanId = await s.scans.create(user.id, { apiId, profile: 'owasp', key1: 'bench-key-1', key2: 'bench-key-2', rps: 0, concurrency: CONCURRENCY });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const timeline: string[] = [];
    const off = s.scanEvents.subscribe((e) => {
      if (e.type === 'scan:progress') timeline.push(`${Math.round(performance.now() - t0)}ms:${e.requestsSent}r:${e.done}/${e.total}`);
    });
    await s.scans.start(user.id, { apiId });
    await s.scans.wait(scanId);
    const seconds = (performance.now() - t0) / 1000;
    off();
    if (process.env.BENCH_TIMELINE) process.stderr.write(`${timeline.join(' ')}\n`);
    if (process.env.BENCH_BY_CHECK) process.stderr.write(`${JSON.stringify((await s.scans.details(scanId)).results.scan_info.requests_by_check)}\n`);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const d = await s.scans.details(scanId);
    const requests = d.results.scan_info.requests_sent;
    const used = process.cpuUsage(c0);
    return {
      seconds,
      requests,
      rps: requests / seconds,
      cpuUsPerRequest: cpuPer(c0, requests),
      systemCpuUsPerRequest: Math.round(used.system / requests),
      peakRssMb: peak / 1024 / 1024,
      findings: d.results.results.length,
      status: d.status,
      endpoints: imported.endpoints.length,
      importMs: Math.round(importMs),
    };
  } finally {
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const target = await startTarget();
if (process.env.BENCH_ONLY === 'thousand') {
  // The 1,000-endpoint scan in a process of its own: its peak RSS is its own, not the high-water mark
  // a bigger scan before it left behind (V8 rarely gives heap pages back).
  process.stdout.write(`${JSON.stringify(await scan(target.url, 1000))}\n`);
  target.stop();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'scan') {
  await scan(target.url, 500);
  const r = await scan(target.url, Number(process.env.BENCH_SCAN_ENDPOINTS ?? 2000));
  process.stdout.write(`${JSON.stringify(r)}\n`);
  target.stop();
  process.exit(0);
}
try {
  await rawUndici(target.url, 5000); // warm-up
  const raw = await rawUndici(target.url, RAW_REQUESTS);
  await engineSend(target.url, 5000); // warm-up
  const send = await engineSend(target.url, RAW_REQUESTS);
  await scan(target.url, 500); // warm-up, as the raw client had one
  const scanChecks = await scan(target.url, Number(process.env.BENCH_SCAN_ENDPOINTS ?? 4000));
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, BENCH_ONLY: 'thousand' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`the 1,000-endpoint scan failed (exit ${child.status})`);
  const thousand = JSON.parse(child.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof scan>>;
  const result = {
    node: process.version,
    cpus: os.cpus().length,
    concurrency: CONCURRENCY,
    loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
    rawUndiciRps: Math.round(raw),
    rawUndiciCpuUsPerRequest: cpu.raw,
    engineSendRps: Math.round(send),
    engineSendCpuUsPerRequest: cpu.send,
    scanWithChecks: { ...scanChecks, rps: Math.round(scanChecks.rps), seconds: +scanChecks.seconds.toFixed(2), peakRssMb: Math.round(scanChecks.peakRssMb) },
    scanRatioToRaw: +(scanChecks.rps / raw).toFixed(2),
    thousandEndpoints: { ...thousand, rps: Math.round(thousand.rps), seconds: +thousand.seconds.toFixed(2), peakRssMb: Math.round(thousand.peakRssMb) },
    budgets: {
      scanAtLeastThirdOfRaw: scanChecks.rps >= raw / 3,
      thousandWithin60s: thousand.seconds <= 60,
      thousandRssWithin300Mb: thousand.peakRssMb <= 300,
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!process.env.BENCH_NO_WRITE) writeResult('engine', result);
  if (!Object.values(result.budgets).every(Boolean)) process.exitCode = 1;
} finally {
  target.stop();
}
