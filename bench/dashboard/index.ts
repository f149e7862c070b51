// Dashboard budget (issue 7): GET /api/dashboard/overview <= 50 ms for a user with 1,000 APIs,
// 50,000 scans and 100,000 findings. Seeds a real SQLite file, then times the call through the core.
// Run: npm run bench -- dashboard

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../electron/core';
import { createLogger } from '../../electron/log';
import { writeResult } from '../lib/results';

const APIS = 1000;
const SCANS = 50_000;
const FINDINGS = 100_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-dash-'));
const core = await createCore({ shell: 'server', dataDir: dir, logger: createLogger({ level: 'warn' }), scryptCost: { N: 1024, r: 8, p: 1 } });
const db = core.store.sqlite;
const now = new Date();

const json = async (method: string, p: string, body?: unknown, token?: string) => {
  const res = await core.fetch(
    new Request(`http://bench${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  return (await res.json()) as { data: { token: string; user: { id: string } } };
};
await json('POST', '/api/auth/signup', { firstName: 'Dash', lastName: 'Board', email: 'dash@example.com', username: 'dash', password: 'benchmark1' });
const { data } = await json('POST', '/api/auth/login', { username: 'dash', password: 'benchmark1' });
const userId = data.user.id;

const t0 = performance.now();
const names = ['Broken Object Level Authorization', 'Missing security headers', 'CORS misconfiguration', 'SQL injection', 'Mass assignment', 'No rate limiting'];
db.transaction(() => {
  const api = db.prepare('INSERT INTO apis (id, owner_id, name, base_url, source_format, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const scan = db.prepare('INSERT INTO scans (id, api_id, user_id, profile, status, created_at, started_at, completed_at, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const finding = db.prepare(
    `INSERT INTO findings (id, scan_id, api_id, check_id, fingerprint, vulnerability_name, severity, confidence, owasp, description, recommendation, cvss_vector, cvss_score, method, path, evidence, created_at)
     VALUES (?, ?, ?, 'c', ?, ?, 'high', 'high', 'API1:2023', 'd', 'r', 'v', ?, 'GET', '/x', 'Method: GET', ?)`,
  );
  const apiIds: string[] = [];
  for (let i = 0; i < APIS; i += 1) {
    const id = randomUUID();
    apiIds.push(id);
    api.run(id, userId, `API ${i}`, 'https://api.example.com', 'manual', now.toISOString(), now.toISOString());
  }
  const scanIds: { id: string; api: string }[] = [];
  for (let i = 0; i < SCANS; i += 1) {
    const id = randomUUID();
    const apiId = apiIds[i % APIS]!;
    const at = new Date(now.getTime() - (SCANS - i) * 60_000).toISOString();
    scan.run(id, apiId, userId, 'OWASP_API_10', i % 10 === 0 ? 'failed' : 'completed', at, at, at, 80);
    scanIds.push({ id, api: apiId });
  }
  for (let i = 0; i < FINDINGS; i += 1) {
    const s = scanIds[(i * 7919) % SCANS]!;
    finding.run(randomUUID(), s.id, s.api, randomUUID(), names[i % names.length], (i % 100) / 10, now.toISOString());
  }
})();
const seedSecs = (performance.now() - t0) / 1000;
db.pragma('optimize');

const timings: number[] = [];
for (let i = 0; i < 25; i += 1) {
  const s = performance.now();
  const res = await core.fetch(new Request('http://bench/api/dashboard/overview', { headers: { authorization: `Bearer ${data.token}` } }));
  const body = (await res.json()) as { data: { total_apis: number } };
  timings.push(performance.now() - s);
  if (body.data.total_apis !== APIS) throw new Error('wrong total');
}
timings.sort((a, b) => a - b);
const figures = {
  apis: APIS,
  scans: SCANS,
  findings: FINDINGS,
  seedSeconds: Number(seedSecs.toFixed(1)),
  overviewMs: { first: Number(timings[0]!.toFixed(1)), median: Number(timings[12]!.toFixed(1)), p95: Number(timings[23]!.toFixed(1)) },
};
console.log(JSON.stringify(figures, null, 2));
const ok = figures.overviewMs.median <= 50;
console.log(`${ok ? 'PASS' : 'FAIL'}  overview <= 50 ms (median of 25)`);
writeResult('dashboard', figures);
await core.close();
if (process.env.KEEP_DB) console.log('kept', dir); else fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;
