// Identity budgets (issue 15): logging in and verifying all identities adds at most 2 s to a scan's
// start on loopback, and a burst of 401s for one identity causes exactly one login.
// Start cost: scans with no checks (only the identity phase) of the test target's hardened twin,
// static keys against login recipes, OAuth2 and cookie sessions; and VAmPI with two login recipes
// when its start script is there. Bursts: 50 requests at once after the session was ended behind
// the scan's back, after the token expired, and to an endpoint that refuses the identity itself.
// Run: npm run build:targets && npm run bench -- identities

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scanConfigSchema, type IdentityInput } from '../../shared/identities';
import { AS_KEY1 } from '../../electron/scanner/http/exchange';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import { runScan } from '../../electron/scanner/run';
import type { HttpEngine } from '../../electron/scanner/http/engine';
import { scanChecks } from '../../test/helpers/check-scan';
import { sessionEngine } from '../../test/helpers/identity-session';
import { startVampi, VAMPI_SPEC, vampiAvailable } from '../../test/helpers/vampi';
import fs from 'node:fs';
import { startTarget, type Target } from '../../test/targets';
import { writeResult } from '../lib/results';

const RUNS = 7;
const BURST = 50;
const START_BUDGET_MS = 2000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => Math.round(x);

type Seeded = 'alice' | 'bob' | 'admin' | 'carol';
const recipe = (t: Target, user: Seeded, role: IdentityInput['role'] = 'user'): IdentityInput => ({
  name: user,
  role,
  login: { request: { path: '/auth/login', json: { username: t.users[user].username, password: t.users[user].password } }, token: { from: 'body', pointer: '/accessToken' } },
});
const session = (t: Target, user: Seeded): IdentityInput => ({
  name: user,
  cookie: { request: { path: '/auth/session', json: { username: t.users[user].username, password: t.users[user].password } }, csrf: { from: 'cookie', name: t.session.csrfCookie, header: t.session.csrfHeader } },
});

/** Wall time of a scan that runs no check: the identity phase and the verification alone. */
async function startTime(t: Target, identities: IdentityInput[] | null): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    const s = await scanChecks(t, [], identities ? { identities } : {});
    times.push(performance.now() - t0);
    if (s.outcome.status !== 'completed') throw new Error(`scan failed: ${s.outcome.failureReason}`);
  }
  return median(times);
}

const startup: Record<string, number> = {};
{
  // Each sign-in kind on a fresh target (the hardened twin throttles repeated password sign-ins per client).
  const cases: [string, (t: Target) => IdentityInput[] | null][] = [
    ['static keys (2)', () => null],
    ['login recipes (4: two users, privileged, lower)', (t) => [recipe(t, 'alice'), recipe(t, 'bob'), recipe(t, 'admin', 'privileged'), recipe(t, 'carol', 'lower')]],
    ['OAuth2 client credentials (2)', (t) => ['alice', 'bob'].map((u) => ({ name: u, oauth2: { grant: 'client_credentials', client_id: t.oauth.clients[u as 'alice'].clientId, client_secret: t.oauth.clients[u as 'alice'].clientSecret! } }))],
    ['cookie sessions with CSRF (2)', (t) => [session(t, 'alice'), session(t, 'bob')]],
  ];
  for (const [label, identities] of cases) {
    const t = await startTarget({ mode: 'hardened', rateLimit: { limit: 100_000, windowMs: 10_000 } });
    startup[label] = ms(await startTime(t, identities(t)));
    await t.close();
    console.log(`start of a scan, ${label}: ${startup[label]} ms (median of ${RUNS})`);
  }
}

let vampi: { static: number; recipes: number } | null = null;
if (vampiAvailable()) {
  const v = await startVampi({ vulnerable: true });
  try {
    const imported = importApiDocument(new Uint8Array(fs.readFileSync(VAMPI_SPEC)), { filename: 'openapi3.yml' });
    const endpoints = imported.endpoints.map((e, i) => ({ ...e, id: `v${i}` }));
    const run = async (identities: IdentityInput[]) => {
      const t0 = performance.now();
      const out = await runScan(
        {
          scanId: '00000000-0000-4000-8000-0000000000cc',
          api: { id: 'vampi', name: 'VAmPI', baseUrl: v.url, security: imported.security },
          endpoints,
          identities: scanConfigSchema.parse({ identities }),
          engine: { concurrency: 8, rps: 0, timeoutMs: 10_000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 1000, maxRequestsPerEndpoint: 100, tlsVerify: true, allowLocal: true },
          options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
          checks: [],
          signal: new AbortController().signal,
        },
        { logger: createMemoryLogger('warn'), progress: () => undefined, finding: async () => true },
      );
      if (out.status !== 'completed') throw new Error(`VAmPI scan failed: ${out.failureReason}`);
      return performance.now() - t0;
    };
    const login = async (u: string, p: string) => ((await (await fetch(`${v.url}/users/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u, password: p }) })).json()) as { auth_token: string }).auth_token;
    const statics: number[] = [];
    const recipes: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      statics.push(await run([{ name: 'key 1', token: await login('name1', 'pass1') }, { name: 'key 2', token: await login('name2', 'pass2') }]));
      recipes.push(
        await run(
          [['alice', 'name1', 'pass1'], ['bob', 'name2', 'pass2']].map(([name, u, p]) => ({ name: name!, login: { request: { path: '/users/v1/login', json: { username: u, password: p } }, token: { from: 'body' as const, pointer: '/auth_token' } } })),
        ),
      );
    }
    vampi = { static: ms(median(statics)), recipes: ms(median(recipes)) };
    console.log(`start of a VAmPI scan: static tokens ${vampi.static} ms, two login recipes ${vampi.recipes} ms (median of ${RUNS})`);
  } finally {
    await v.stop();
  }
}

const oneSession = sessionEngine;

async function burst(engine: HttpEngine, path: string): Promise<{ statuses: number[]; ms: number }> {
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: BURST }, () => engine.send({ method: 'GET', url: engine.resolve(path), auth: AS_KEY1 })));
  return { statuses: [...new Set(answers.map((a) => a.status))], ms: ms(performance.now() - t0) };
}

const bursts: Record<string, { logins: number; statuses: number[]; ms: number }> = {};
{
  // The session ended behind the scan's back (another check logged out): 50 401s, one login.
  const t = await startTarget({ mode: 'hardened', rateLimit: { limit: 100_000, windowMs: 10_000 } });
  const { engine, session: s } = await oneSession(t.baseUrl, session(t, 'alice'));
  const c = s.credential!;
  await fetch(`${t.baseUrl}/auth/session`, { method: 'DELETE', headers: { cookie: Object.entries(c.cookies).map(([k, v]) => `${k}=${v}`).join('; '), ...c.headers } });
  const before = t.logins.count({ username: 'alice' });
  const b = await burst(engine, '/me');
  bursts['session ended: 50 requests'] = { logins: t.logins.count({ username: 'alice' }) - before, ...b };
  await engine.close();
  await t.close();
}
{
  // The token expired: 50 requests, one login before they go out.
  const t = await startTarget({ mode: 'hardened', tokenTtlSeconds: 2, rateLimit: { limit: 100_000, windowMs: 10_000 } });
  const { engine } = await oneSession(t.baseUrl, recipe(t, 'alice'));
  await new Promise((r) => setTimeout(r, 2100));
  const before = t.logins.count({ username: 'alice' });
  const b = await burst(engine, '/me');
  bursts['token expired: 50 requests'] = { logins: t.logins.count({ username: 'alice' }) - before, ...b };
  await engine.close();
  await t.close();
}
{
  // An endpoint that refuses the identity itself: 50 401s, no login (the canary still works).
  let logins = 0;
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/login') return void res.end(JSON.stringify({ token: `tok-${++logins}-aaaaaaaaaaaaaaaaaaaa` }));
    if (req.url === '/me' && req.headers.authorization?.startsWith('Bearer tok-')) return void res.end('{"id":1,"username":"u"}');
    res.writeHead(401).end('{"error":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { engine } = await oneSession(base, { name: 'u', login: { request: { path: '/login', json: {} }, token: { from: 'body', pointer: '/token' } } });
  const before = logins;
  const b = await burst(engine, '/secret');
  bursts["the endpoint's own 401: 50 requests"] = { logins: logins - before, ...b };
  await engine.close();
  await new Promise<void>((r) => server.close(() => r()));
}
for (const [k, v] of Object.entries(bursts)) console.log(`burst, ${k}: ${v.logins} login(s), statuses ${v.statuses.join(',')}, ${v.ms} ms`);

const overhead = Math.max(...Object.entries(startup).filter(([k]) => !k.startsWith('static')).map(([, v]) => v - startup['static keys (2)']!), vampi ? vampi.recipes - vampi.static : 0);
const ok = overhead <= START_BUDGET_MS && bursts['session ended: 50 requests']!.logins === 1 && bursts['token expired: 50 requests']!.logins === 1 && bursts["the endpoint's own 401: 50 requests"]!.logins === 0;
console.log(`largest start overhead of signing in: ${overhead} ms (budget ${START_BUDGET_MS} ms); bursts ${ok ? 'within' : 'NOT within'} budget`);
writeResult('identities', { runs: RUNS, startup, vampi, overheadMs: overhead, budgetMs: START_BUDGET_MS, bursts, ok });
process.exit(ok ? 0 : 1);
