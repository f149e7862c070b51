// Foundation budgets (issue 2): `serve` start-up on a fresh data dir, GET /api/user/profile over
// HTTP with 50 concurrent clients, and calls through the IPC bridge in-process.
// Run: npm run build:core && npm run bench -- foundation

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createCore } from '../../electron/core';
import { createBridgeHandler } from '../../electron/ipc-bridge';
import { createLogger } from '../../electron/log';
import { writeResult } from '../lib/results';
import { startServe } from '../lib/serve';

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));

async function json(url: string, body: unknown): Promise<{ data: { token: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as { data: { token: string } };
}

async function startup(): Promise<{ runs: number[]; median: number; max: number }> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const dir = tmp('pc-bench-start-');
    const s = await startServe(dir);
    runs.push(Math.round(s.startMs));
    await s.stop();
    await new Promise((r) => setTimeout(r, 200));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return { runs, median: sorted[2]!, max: sorted[4]! };
}

async function httpProfile(): Promise<{ requestsPerSec: number; p99Ms: number; errors: number; non2xx: number }> {
  const dir = tmp('pc-bench-http-');
  const s = await startServe(dir);
  const user = { firstName: 'Bench', lastName: 'Mark', email: 'bench@example.com', username: 'bench', password: 'benchmark1' };
  await json(`${s.url}/api/auth/signup`, user);
  const { data } = await json(`${s.url}/api/auth/login`, { username: 'bench', password: 'benchmark1' });
  const result = await autocannon({
    url: `${s.url}/api/user/profile`,
    connections: 50,
    duration: 10,
    headers: { authorization: `Bearer ${data.token}` },
  });
  await s.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  return { requestsPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function ipcCalls(): Promise<{ callsPerSec: number; calls: number }> {
  const dir = tmp('pc-bench-ipc-');
  const core = await createCore({ shell: 'desktop', dataDir: dir, logger: createLogger({ level: 'warn' }) });
  const handler = createBridgeHandler({ fetch: (r, i) => core.fetch(r, i), appOrigin: 'app://portcullis' });
  const frame = { senderFrame: { url: 'app://portcullis/index.html', parent: null } };
  const enc = (b: unknown) => new TextEncoder().encode(JSON.stringify(b));
  await handler(frame, { method: 'POST', path: '/api/auth/signup', headers: { 'content-type': 'application/json' }, body: enc({ firstName: 'B', lastName: 'M', email: 'b@example.com', username: 'bmark', password: 'benchmark1' }) });
  const login = await handler(frame, { method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json' }, body: enc({ username: 'bmark', password: 'benchmark1' }) });
  const { token } = (JSON.parse(new TextDecoder().decode(login.body)) as { data: { token: string } }).data;
  const req = { method: 'GET', path: '/api/user/profile', headers: { authorization: `Bearer ${token}` } };
  for (let i = 0; i < 2000; i += 1) await handler(frame, structuredClone(req)); // warm-up
  const calls = 30_000;
  const t0 = performance.now();
  // The renderer issues calls concurrently; keep 8 in flight, cloning each as IPC would.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < calls) {
        next += 1;
        const res = await handler(frame, structuredClone(req));
        if (res.status !== 200) throw new Error(`status ${res.status}`);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { callsPerSec: Math.round(calls / secs), calls };
}

const results = { startupMs: await startup(), httpProfile: await httpProfile(), ipc: await ipcCalls() };
console.log(JSON.stringify(results, null, 2));
const budgets = [
  ['serve start-up <= 1000 ms (max of 5)', results.startupMs.max <= 1000],
  ['HTTP profile >= 2000 req/s at 50 clients', results.httpProfile.requestsPerSec >= 2000 && results.httpProfile.non2xx === 0],
  ['IPC bridge >= 5000 calls/s', results.ipc.callsPerSec >= 5000],
] as const;
for (const [name, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}`);
writeResult('foundation', results);
process.exitCode = budgets.every(([, ok]) => ok) ? 0 : 1;
