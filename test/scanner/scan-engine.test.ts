// Whole scans against small loopback APIs, asserting on what reached the target: SKIP endpoints,
// producer -> consumer ids (body and Location), the auth health check, key 1 failing mid-scan, the
// scan budget, progress events, skipped cross-user checks, and an event loop that stays free.

import { vulnerabilityCount } from '../../shared/severity';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { Flag } from '../../shared/constants';
import type { ScanDetails } from '../../shared/contract';
import { createMemoryLogger } from '../../electron/log';
import { defineCheck } from '../../electron/scanner/checks/common/helpers';
import type { FindingDraft, Identities } from '../../electron/scanner/checks/types';
import type { ScanEvent } from '../../electron/scanner/events';
import { runScan, type ScanJob } from '../../electron/scanner/run';
import type { NewEndpoint } from '../../electron/store/apis';
import { createTestCore, openTransport, type TestCore } from '../helpers/core';
import { BEARER_SECURITY, miniApiEndpoints, miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(flaws = {}, coreOver: Parameters<typeof createTestCore>[0] = {}) {
  const tc = await createTestCore(coreOver);
  const target = await startMiniApi(flaws);
  cleanups.push(() => tc.close(), () => target.close());
  const user = await tc.core.services.repos.users.create({ email: `u${Math.random()}@example.com`, username: `u${Date.now()}${Math.random().toString(36).slice(2, 6)}`, firstName: 'T', lastName: 'U', passwordHash: null }, new Date());
  return { tc, target, user };
}

async function scan(
  tc: TestCore,
  userId: string,
  apiId: string,
  keys: { key1: string; key2?: string | null },
  opts: { rps?: number } = {},
): Promise<ScanDetails> {
  const s = tc.core.services.scans;
  const scanId = await s.create(userId, { apiId, profile: 'owasp', key1: keys.key1, key2: keys.key2 ?? null, rps: opts.rps ?? 0 });
  await s.start(userId, { apiId });
  await s.wait(scanId);
  return s.details(scanId);
}

function withFlags(endpoints: NewEndpoint[], change: Record<string, Flag[]>): NewEndpoint[] {
  return endpoints.map((e) => ({ ...e, flags: change[`${e.method} ${e.path}`] ?? e.flags }));
}

describe('what reaches the target', () => {
  it('sends nothing to SKIP endpoints, and writes only to objects the scan created', async () => {
    const { tc, target, user } = await setup();
    const endpoints = withFlags(miniApiEndpoints(), { 'GET /health': ['SKIP'], 'GET /pets': ['SKIP', 'BKEN_AUTH'] });
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url, endpoints), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: target.users.bob.token });
    expect(d.status).toBe('completed');
    expect(target.requests.filter((r) => r.url.startsWith('/health'))).toHaveLength(0);
    // OPTIONS /pets is the CORS preflight of POST /pets, which is not skipped.
    expect(target.requests.filter((r) => r.url === '/pets' && r.method === 'GET')).toHaveLength(0);
    // Reads, updates and deletes of /pets/{petId} use ids that the scan's own POSTs created.
    const byId = target.requests.filter((r) => /^\/pets\/\d+$/.test(r.url));
    expect(byId.length).toBeGreaterThan(0);
    for (const r of byId) expect(target.createdBy.has(Number(r.url.split('/')[2]))).toBe(true);
    for (const r of byId.filter((x) => x.method === 'PUT' || x.method === 'DELETE')) expect(target.createdBy.get(Number(r.url.split('/')[2]))).toBe(1);
    // The seeded pets 1 and 2 (not the scan's) were never touched.
    expect(byId.some((r) => r.url === '/pets/1' || r.url === '/pets/2')).toBe(false);
    expect(d.results.scan_info.requests_sent).toBe(target.requests.length);
  });

  it('sends nothing at all when every endpoint is skipped', async () => {
    const { tc, target, user } = await setup();
    const endpoints = miniApiEndpoints().map((e) => ({ ...e, flags: ['SKIP'] as Flag[] }));
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url, endpoints), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token });
    expect(d.status).toBe('completed');
    expect(target.requests).toHaveLength(0);
    expect(d.results.scan_info.errors.join(' ')).toMatch(/SKIP/);
  });

  it('does not touch writes it has no object for', async () => {
    const { tc, target, user } = await setup();
    const endpoints = withFlags(miniApiEndpoints(), { 'POST /pets': ['SKIP'] });
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url, endpoints), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token });
    // The documented writes: route discovery's empty forms to guessed upload and fetch paths are not among them.
    const documented = target.requests.filter((r) => r.url.startsWith('/pets'));
    expect(documented.filter((r) => r.method === 'PUT' || r.method === 'DELETE' || r.method === 'POST').map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(d.results.scan_info.errors.join('\n')).toMatch(/PUT \/pets\/\{petId\} was not exercised/);
  });

  it('takes the id of a created object from the Location header', async () => {
    const { tc, target, user } = await setup();
    const notes = new Set<string>();
    target.extra = (req, res) => {
      const auth = req.headers.authorization === `Bearer ${target.users.alice.token}`;
      if (req.url === '/notes' && req.method === 'POST') {
        const id = `n-${notes.size + 1}x`;
        notes.add(id);
        res.writeHead(auth ? 201 : 401, { location: `/notes/${id}` });
        res.end();
        return true;
      }
      const m = /^\/notes\/([^/]+)$/.exec(req.url ?? '');
      if (m) {
        res.writeHead(notes.has(m[1]!) && auth ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: m[1], text: 'hello' }));
        return true;
      }
      return false;
    };
    const base = miniApiEndpoints()[0]!;
    const endpoints: NewEndpoint[] = [
      { ...base, method: 'POST', path: '/notes', security: null, request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { text: { type: 'string' } } } } },
      { ...base, method: 'GET', path: '/notes/{noteId}', security: null, parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'string', example: 'example-id' } }] },
    ];
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url, endpoints), new Date());
    await scan(tc, user.id, apiId, { key1: target.users.alice.token });
    const reads = target.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/notes/'));
    expect(reads.length).toBeGreaterThan(0);
    // Created ids, as they are or with an injection payload after them (path segments are input points).
    for (const r of reads) expect([...notes].some((id) => decodeURIComponent(r.url.slice('/notes/'.length)).startsWith(id)), r.url).toBe(true);
    expect(reads.some((r) => r.url.includes('example-id'))).toBe(false);
  });
});

describe('keys', () => {
  it('fails before scanning when key 1 or key 2 is refused', async () => {
    const { tc, target, user } = await setup();
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const bad1 = await scan(tc, user.id, apiId, { key1: 'not-a-real-key-1234567890', key2: target.users.bob.token });
    expect(bad1.status).toBe('failed');
    expect(bad1.results.scan_info.failure_reason).toMatch(/^Key 1 was not accepted by the API: GET \/me answered 401 with key 1\./);
    expect(bad1.results.scan_info.failure_reason).not.toContain('not-a-real-key');
    const before = target.requests.length;
    expect(before).toBeLessThanOrEqual(3);
    const bad2 = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: 'wrong-second-key-0987654321' });
    expect(bad2.status).toBe('failed');
    expect(bad2.results.scan_info.failure_reason).toMatch(/^Key 2 was not accepted by the API/);
    expect(bad2.results.results).toHaveLength(0);
  });

  it('finds which of several schemes the key works with (bearer or X-API-Key)', async () => {
    const { tc, target, user } = await setup();
    // This API takes an API key in X-API-Key; a bearer header is refused.
    target.extra = (req) => {
      const apiKey = req.headers['x-api-key'];
      if (typeof apiKey === 'string') req.headers.authorization = `Bearer ${apiKey}`;
      else delete req.headers.authorization;
      return false;
    };
    const input = miniApiInput(user.id, target.url);
    input.security = {
      schemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      default: [{ bearer: [] }, { apiKey: [] }],
    };
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(input, new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: target.users.bob.token });
    expect(d.status).toBe('completed');
    expect(d.results.scan_info.errors).toContain('Key 1 works with the "apiKey" security scheme; it is used wherever an endpoint accepts several.');
    const keyed = target.requests.filter((r) => r.headers['x-api-key'] === target.users.alice.token);
    expect(keyed.length).toBeGreaterThan(5);
  });

  it.each([15, 25, 35])('stops with a clear reason when key 1 stops working mid-scan (revoked at request %i)', async (at) => {
    const { tc, target, user } = await setup();
    let n = 0;
    target.extra = () => {
      n += 1;
      if (n === at) target.revoke(target.users.alice.token);
      return false;
    };
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: target.users.bob.token });
    // Any key-1 request after the revocation got a 401: then the scan must not pass as completed.
    const refused = target.requests.slice(at).some((r) => r.headers.authorization === `Bearer ${target.users.alice.token}`);
    expect(refused).toBe(at < 35 ? true : refused);
    if (refused) {
      expect(d.status).toBe('failed');
      expect(d.results.scan_info.failure_reason).toMatch(/^Key 1 stopped working during the scan: GET \/me answered 401 where it answered 200 earlier\./);
    } else {
      expect(d.status).toBe('completed');
    }
  });

  it('repeats the last scan with its keys and settings (scheduled scans), keeping keys only once', async () => {
    const { tc, target, user } = await setup();
    const s = tc.core.services;
    const apiId = await s.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    await expect(s.scans.createFromPrevious(user.id, apiId)).rejects.toThrow('No earlier scan of this API to repeat');
    const first = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: target.users.bob.token }, { rps: 0 });
    const againId = await s.scans.createFromPrevious(user.id, apiId);
    const firstRow = await s.repos.scans.findById(first.scan_id);
    const againRow = await s.repos.scans.findById(againId);
    expect(firstRow?.secret_ref).toBeNull();
    // Besides the identity setup that signed in (kept per API, "scan:setup:<id>"), the keys are kept once: by the new scan.
    const kept = (await s.repos.secrets.list()).filter(({ ref }) => !ref.startsWith('scan:setup:'));
    expect(kept.map(({ ref, backend }) => ({ ref, backend }))).toEqual([{ ref: againRow!.secret_ref, backend: 'aes-256-gcm' }]);
    expect(JSON.parse(againRow!.config)).toMatchObject({ rps: 0, hasKey2: true });
    await s.scans.start(user.id, { apiId });
    await s.scans.wait(againId);
    expect((await s.scans.details(againId)).status).toBe('completed');
    expect(target.requests.some((r) => r.headers.authorization === `Bearer ${target.users.bob.token}`)).toBe(true);
  });

  it('fails clearly when the API cannot be reached', async () => {
    const { tc, user } = await setup();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, `http://127.0.0.1:${port}`), new Date());
    const d = await scan(tc, user.id, apiId, { key1: 'k-123456789' });
    expect(d.status).toBe('failed');
    expect(d.results.scan_info.failure_reason).toBe(`Could not reach the API at http://127.0.0.1:${port}: connection refused.`);
  });
});

describe('budget and progress', () => {
  it('never sends more than the scan budget', async () => {
    const { tc, target, user } = await setup({}, { scan: { maxRequestsPerScan: 15 } });
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token, key2: target.users.bob.token });
    expect(d.status, d.results.scan_info.failure_reason ?? '').toBe('completed');
    expect(target.requests.length).toBeLessThanOrEqual(15);
    expect(d.results.scan_info.requests_sent).toBe(target.requests.length);
    expect(d.results.scan_info.errors.join(' ')).toMatch(/request budget \(15 requests\) ran out/);
    // Stored with its kind: the budget note is one of the scan's problems, the others are information.
    const problems = d.results.scan_info.problems ?? [];
    expect(problems.some((p) => /request budget \(15 requests\) ran out/.test(p))).toBe(true);
    expect(problems.every((p) => d.results.scan_info.errors.includes(p))).toBe(true);
  });

  it('reports progress and the end as events', async () => {
    const { tc, target, user } = await setup({ weakHeaders: true });
    const events: ScanEvent[] = [];
    const off = tc.core.services.scanEvents.subscribe((e) => events.push(e));
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const d = await scan(tc, user.id, apiId, { key1: target.users.alice.token }, { rps: 50 });
    off();
    const progress = events.filter((e) => e.type === 'scan:progress');
    expect(progress.length).toBeGreaterThan(1);
    for (const p of progress) if (p.type === 'scan:progress') expect(p.done).toBeLessThanOrEqual(p.total);
    const finished = events.filter((e) => e.type === 'scan:finished');
    expect(finished).toEqual([expect.objectContaining({ type: 'scan:finished', status: 'completed', scanId: d.scan_id, findings: vulnerabilityCount(d.results.results), score: d.results.scan_info.score })]);
  });
});

describe('identities and cross-user checks', () => {
  const seen: Identities[] = [];
  const crossUser = defineCheck({
    id: 'api1-engine-probe',
    title: 'Engine probe: a cross-user check',
    flag: 'BOLA',
    owasp: 'API1:2023',
    cwe: 'CWE-639',
    confidence: 'medium',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    kind: 'passive',
    safety: 'safe',
    scope: 'api',
    budget: 0,
    needsKey2: true,
    description: 'Records the identities the engine learnt; reports nothing.',
    remediation: 'Nothing to fix: this check only observes.',
    references: ['https://owasp.org/API-Security/'],
    appliesTo: () => true,
    async *run(ctx) {
      seen.push(ctx.identities);
      yield* [] as FindingDraft[];
    },
  });

  async function runWith(target: MiniApi, keys: ScanJob['keys']) {
    return runScan(
      {
        scanId: '00000000-0000-4000-8000-00000000abcd',
        api: { id: 'a', name: 'mini', baseUrl: target.url, security: BEARER_SECURITY },
        endpoints: miniApiEndpoints().map((e, i) => ({ ...e, id: `e${i}` })),
        keys,
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 1000, maxRequestsPerEndpoint: 100, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [crossUser],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger(), progress: () => undefined, finding: async () => true },
    );
  }

  it('proves two different users from a /me-like endpoint', async () => {
    const target = await startMiniApi();
    cleanups.push(() => target.close());
    const out = await runWith(target, { 1: target.users.alice.token, 2: target.users.bob.token });
    expect(out.skipped).toEqual([]);
    expect(seen.pop()).toMatchObject({ distinct: true, key1: { id: '1', accepted: true, source: 'GET /me' }, key2: { id: '2', accepted: true } });
  });

  it('skips cross-user checks without key 2, and says why', async () => {
    const target = await startMiniApi();
    cleanups.push(() => target.close());
    const without = await runWith(target, { 1: target.users.alice.token });
    expect(without.skipped).toEqual([{ check_id: 'api1-engine-probe', title: crossUser.title, owasp: 'API1:2023', reason: expect.stringMatching(/^Needs a second user \(key 2\)/), code: 'needs-second-identity' }]);
  });

  it('refuses identities that are the same user, before any check runs', async () => {
    const target = await startMiniApi();
    cleanups.push(() => target.close());
    const same = await runWith(target, { 1: target.users.alice.token, 2: target.users.alice.token });
    expect(same.status).toBe('failed');
    expect(same.failureReason).toBe('Key 1 and key 2 are the same user (the same key value). Each identity needs its own account: give key 2 another user\'s credential, or leave it empty.');
    expect(same.progress.done).toBe(0);
  });
});

describe('notes: problems apart from information (issue 31)', () => {
  const check = (id: string, run: Parameters<typeof defineCheck>[0]['run']) =>
    defineCheck({
      id,
      title: `Notes probe ${id}`,
      flag: 'SEC_MISC',
      owasp: 'API8:2023',
      cwe: 'CWE-16',
      confidence: 'low',
      cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
      kind: 'passive',
      safety: 'safe',
      scope: 'api',
      budget: 0,
      description: 'Leaves notes; reports nothing.',
      remediation: 'Nothing to fix: this check only notes.',
      references: ['https://owasp.org/API-Security/'],
      appliesTo: () => true,
      run,
    });

  it('a note is information unless the scan says it is a problem; a check that throws is a problem', async () => {
    const target = await startMiniApi();
    cleanups.push(() => target.close());
    const noting = check('api8-notes-probe', async function* (ctx) {
      ctx.note('The probe looked and chose not to test.');
      ctx.note('The probe could not put the record back (HTTP 500).', 'problem');
      yield* [] as FindingDraft[];
    });
    const throwing = check('api8-notes-thrower', async function* () {
      yield* [] as FindingDraft[];
      throw new Error('boom');
    });
    const out = await runScan(
      {
        scanId: '00000000-0000-4000-8000-00000000abce',
        api: { id: 'a', name: 'mini', baseUrl: target.url, security: BEARER_SECURITY },
        endpoints: miniApiEndpoints().map((e, i) => ({ ...e, id: `e${i}` })),
        keys: { 1: target.users.alice.token, 2: target.users.bob.token },
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 1000, maxRequestsPerEndpoint: 100, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [noting, throwing],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger(), progress: () => undefined, finding: async () => true },
    );
    expect(out.status).toBe('completed');
    expect(out.errors).toEqual(expect.arrayContaining(['The probe looked and chose not to test.', 'The probe could not put the record back (HTTP 500).', 'Check "Notes probe api8-notes-thrower" failed: boom']));
    expect([...out.problems].sort()).toEqual(['Check "Notes probe api8-notes-thrower" failed: boom', 'The probe could not put the record back (HTTP 500).']);
    // Every problem is one of the notes, in the notes' order.
    expect(out.errors.filter((e) => out.problems.includes(e))).toEqual(out.problems);
  });
});

describe('the event loop stays free during a scan', () => {
  it('answers /api calls promptly while scanning 300 endpoints uncapped', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 1, path: req.url, items: Array.from({ length: 20 }, (_, i) => ({ i, name: `n${i}` })) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cleanups.push(() => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }));
    const { tc, user } = await setup();
    const t = await openTransport('http', tc.core);
    cleanups.push(() => t.close());
    const endpoints = Array.from({ length: 300 }, (_, i) => ({ ...miniApiEndpoints()[1]!, path: `/r${i}` }));
    const apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(user.id, url, endpoints), new Date());
    const s = tc.core.services.scans;
    const scanId = await s.create(user.id, { apiId, profile: 'owasp', key1: 'k-1234567890', rps: 0, concurrency: 32 });
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    await s.start(user.id, { apiId });
    const latencies: number[] = [];
    while (s.isRunning(scanId)) {
      const t0 = performance.now();
      const res = await t.call('GET', '/api/environment');
      latencies.push(performance.now() - t0);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 10));
    }
    histogram.disable();
    const d = await s.details(scanId);
    expect(d.status).toBe('completed');
    expect(d.results.scan_info.requests_sent).toBeGreaterThan(600);
    expect(latencies.length).toBeGreaterThan(3);
    // Generous bounds: this machine may be shared; a scan that blocked the loop would stall for seconds.
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]!).toBeLessThan(250);
    expect(sorted[sorted.length - 1]!).toBeLessThan(2000);
    expect(histogram.percentile(99) / 1e6).toBeLessThan(1000);
  });
});

describe('the API deleted mid-scan', () => {
  it('stops sending requests for it', async () => {
    const { tc, target, user } = await setup({ delayMs: 30 });
    const s = tc.core.services;
    const apiId = await s.repos.apis.createWithEndpoints(miniApiInput(user.id, target.url), new Date());
    const scanId = await s.scans.create(user.id, { apiId, profile: 'owasp', key1: target.users.alice.token, key2: target.users.bob.token, rps: 10 });
    await s.scans.start(user.id, { apiId });
    while (target.requests.length < 5) await new Promise((r) => setTimeout(r, 20));
    await s.repos.apis.delete(apiId);
    await s.scans.wait(scanId);
    const count = target.requests.length;
    expect(count).toBeLessThan(40);
    await new Promise((r) => setTimeout(r, 300));
    expect(target.requests.length).toBe(count);
    expect(await s.repos.scans.findById(scanId)).toBeUndefined();
  });
});
