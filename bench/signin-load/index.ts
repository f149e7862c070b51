// Sign-in under load (issue 18, item 2): 50 users signing in at once against a real `serve` process
// (the OWASP scrypt cost, this machine's cores). Budgets (issue 18): every answer is a session or a
// 503 with Retry-After, and the median answer comes within 1 s; GET /api/apis p99 under 200 ms while
// sign-ins keep arriving. Also reported: how long admitted sign-ins took (each waits for at most one
// other hash) and how long clients that honour Retry-After take to all get in.
// Run: npm run build:core && npm run bench -- signin-load

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { writeResult } from '../lib/results';
import { startServe } from '../lib/serve';

const USERS = 50;
const PASSWORD = 'benchmark1';

interface Answer {
  status: number;
  ms: number;
  retryAfter: number | null;
  token?: string;
}

async function post(url: string, body: unknown, token?: string): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as { data?: { token?: string } } | null;
  const retry = res.headers.get('retry-after');
  return { status: res.status, ms: performance.now() - t0, retryAfter: retry === null ? null : Number(retry), token: json?.data?.token };
}

const login = (url: string, i: number) => post(`${url}/api/auth/login`, { username: `load${i}`, password: PASSWORD });

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const round = (n: number) => Math.round(n);

/** Sign-ups one after another (each is a hash), retrying a 503 after its Retry-After. */
async function signUpUsers(url: string): Promise<void> {
  for (let i = 0; i < USERS; i += 1) {
    const body = { firstName: 'Load', lastName: `User${i}`, email: `load${i}@example.com`, username: `load${i}`, password: PASSWORD };
    for (;;) {
      const a = await post(`${url}/api/auth/signup`, body);
      if (a.status === 201 || a.status === 200) break;
      if (a.status !== 503) throw new Error(`sign-up answered ${a.status}`);
      await new Promise((r) => setTimeout(r, (a.retryAfter ?? 1) * 1000));
    }
  }
}

/** One burst: 50 sign-ins at the same moment; each answer's status and time. */
async function burst(url: string): Promise<Answer[]> {
  return Promise.all(Array.from({ length: USERS }, (_, i) => login(url, i)));
}

/** 50 clients that sign in and, on 503, come back after Retry-After: how long until all are in. */
async function honouringRetryAfter(url: string): Promise<{ allInMs: number; attempts: number; worstClientMs: number }> {
  const t0 = performance.now();
  let attempts = 0;
  const perClient = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const start = performance.now();
      for (;;) {
        attempts += 1;
        const a = await login(url, i);
        if (a.status === 200) return performance.now() - start;
        if (a.status !== 503 || a.retryAfter === null) throw new Error(`sign-in answered ${a.status}`);
        await new Promise((r) => setTimeout(r, a.retryAfter! * 1000));
      }
    }),
  );
  return { allInMs: round(performance.now() - t0), attempts, worstClientMs: round(Math.max(...perClient)) };
}

/** GET /api/apis for one user with 20 APIs, measured while 50 clients keep signing in. */
async function listUnderLoad(url: string, token: string): Promise<{ p50Ms: number; p99Ms: number; requestsPerSec: number; errors: number; non2xx: number; signIns: number }> {
  for (let i = 0; i < 20; i += 1) {
    const a = await post(`${url}/api/apis/manual`, { name: `Load API ${i}`, base_url: 'https://api.example.com', endpoints: [{ method: 'GET', path: `/items/${i}` }] }, token);
    if (a.status !== 200 && a.status !== 201) throw new Error(`manual API answered ${a.status}`);
  }
  let running = true;
  let signIns = 0;
  const load = Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      while (running) {
        const a = await login(url, i);
        signIns += 1;
        if (a.status === 503) await new Promise((r) => setTimeout(r, (a.retryAfter ?? 1) * 1000));
      }
    }),
  );
  const result = await autocannon({ url: `${url}/api/apis`, connections: 10, duration: 10, headers: { authorization: `Bearer ${token}` } });
  running = false;
  await load;
  return { p50Ms: result.latency.p50, p99Ms: result.latency.p99, requestsPerSec: round(result.requests.average), errors: result.errors, non2xx: result.non2xx, signIns };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-signin-'));
// Fifty sign-ups from one address are the bench's set-up, not an attack.
const server = await startServe(dir, { PORTCULLIS_SIGNUP_LIMIT: '10000' });
try {
  await signUpUsers(server.url);
  const quiet = await login(server.url, 0);
  const answers = await burst(server.url);
  // Let the throttle's hashes drain before the next phase.
  await new Promise((r) => setTimeout(r, 2000));
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 503);
  const wellFormed = answers.every((a) => a.status === 200 || (a.status === 503 && a.retryAfter !== null && a.retryAfter > 0));
  const figures = {
    cores: os.availableParallelism(),
    quietSignInMs: round(quiet.ms),
    burst: {
      users: USERS,
      signedIn: ok.length,
      busy503: refused.length,
      other: answers.length - ok.length - refused.length,
      medianMs: round(quantile(answers.map((a) => a.ms), 0.5)),
      signedInMedianMs: round(quantile(ok.map((a) => a.ms), 0.5)),
      signedInMaxMs: round(Math.max(...ok.map((a) => a.ms))),
      busyMedianMs: refused.length ? round(quantile(refused.map((a) => a.ms), 0.5)) : null,
      retryAfterSeconds: [...new Set(refused.map((a) => a.retryAfter))],
    },
    retrying: await honouringRetryAfter(server.url),
    listApisUnderSignIns: await listUnderLoad(server.url, quiet.token!),
  };
  console.log(JSON.stringify(figures, null, 2));
  const budgets = [
    ['every sign-in answered with a session or 503 + Retry-After', wellFormed],
    ['median sign-in answer under 1 s with 50 at once', figures.burst.medianMs < 1000],
    ['GET /api/apis p99 < 200 ms under sign-in load, no errors', figures.listApisUnderSignIns.p99Ms < 200 && figures.listApisUnderSignIns.non2xx === 0 && figures.listApisUnderSignIns.errors === 0],
  ] as const;
  for (const [name, pass] of budgets) console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}`);
  writeResult('signin-load', figures);
  process.exitCode = budgets.every(([, pass]) => pass) ? 0 : 1;
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
