// Dashboard budget (issue 7): GET /api/dashboard/overview <= 50 ms for a user with 1,000 APIs,
// 50,000 scans and 100,000 findings. Seeds a real SQLite file through Kysely (batched inserts in one
// transaction), then times the call through the core.
// Run: npm run bench -- dashboard

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../electron/core';
import { createLogger } from '../../electron/log';
import { apiRow } from '../../test/helpers/seed';
import { writeResult } from '../lib/results';

const APIS = 1000;
const SCANS = 50_000;
const FINDINGS = 100_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-dash-'));
const core = await createCore({ shell: 'server', dataDir: dir, logger: createLogger({ level: 'warn' }), scryptCost: { N: 1024, r: 8, p: 1 } });
const { db } = core.store;
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
/** Rows per INSERT: well under the bound-parameter limits of SQLite (32,766) and PostgreSQL (65,535). */
const BATCH = 500;
async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}
await db.transaction().execute(async (trx) => {
  const apiIds: string[] = [];
  const apis = [];
  for (let i = 0; i < APIS; i += 1) {
    const id = randomUUID();
    apiIds.push(id);
    apis.push(apiRow(id, userId, `API ${i}`, now.toISOString()));
  }
  await insertInBatches(apis, (batch) => trx.insertInto('apis').values(batch).execute());
  const scans = [];
  for (let i = 0; i < SCANS; i += 1) {
    const at = new Date(now.getTime() - (SCANS - i) * 60_000).toISOString();
    scans.push({
      id: randomUUID(),
      api_id: apiIds[i % APIS]!,
      user_id: userId,
      profile: 'OWASP_API_10',
      status: i % 10 === 0 ? 'failed' : 'completed',
      created_at: at,
      started_at: at,
      completed_at: at,
      failure_reason: null,
      progress_done: 0,
      progress_total: 0,
      requests_sent: 0,
      score: 80,
      config: '{}',
      secret_ref: null,
      notes: '{}',
    });
  }
  await insertInBatches(scans, (batch) => trx.insertInto('scans').values(batch).execute());
  const findings = [];
  for (let i = 0; i < FINDINGS; i += 1) {
    const s = scans[(i * 7919) % SCANS]!;
    findings.push({
      id: randomUUID(),
      scan_id: s.id,
      api_id: s.api_id,
      check_id: 'c',
      fingerprint: randomUUID(),
      vulnerability_name: names[i % names.length]!,
      severity: 'high',
      confidence: 'high',
      owasp: 'API1:2023',
      cwe: null,
      description: 'd',
      recommendation: 'r',
      cvss_vector: 'v',
      cvss_score: (i % 100) / 10,
      method: 'GET',
      path: '/x',
      parameter: null,
      evidence: 'Method: GET',
      curl: '',
      references: '[]',
      trend: 'new',
      created_at: now.toISOString(),
    });
  }
  await insertInBatches(findings, (batch) => trx.insertInto('findings').values(batch).execute());
});
const seedSecs = (performance.now() - t0) / 1000;
// SQLite only: refresh the planner's statistics after the bulk load, as a long-running store would have.
core.store.sqlite?.pragma('optimize');

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
