// Scans that hold on real servers (issue 27, items 1 and 2): against a server that answers one request at a
// time and slows down as requests pile up, the scan's pace drops and recovers, nothing times out, and the
// notes and the live pace say so; a 429 with Retry-After is waited out and the proof sent again; a check
// whose answers never come says "inconclusive" in the coverage instead of reporting nothing.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanPace } from '../../shared/contract';
import { createMemoryLogger } from '../../electron/log';
import { defineCheck } from '../../electron/scanner/checks/common/helpers';
import type { Check, CheckContext, FindingDraft } from '../../electron/scanner/checks/types';
import { slowOperation } from '../../electron/scanner/checks/api4-resource-consumption/slow-operation';
import { runScan, type ScanOutcome } from '../../electron/scanner/run';
import { BEARER_SECURITY, miniApiEndpoints } from '../helpers/mini-api';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Server {
  url: string;
  hits: { url: string; at: number }[];
}

/**
 * One worker: requests are answered one after the other, and each takes longer the more are waiting
 * (5 ms alone, 250 ms with seven behind it), like a development server under load.
 */
async function oneAtATime(special: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false): Promise<Server> {
  const hits: Server['hits'] = [];
  const queue: (() => void)[] = [];
  let busy = false;
  const next = () => {
    const job = queue.shift();
    if (!job) {
      busy = false;
      return;
    }
    busy = true;
    setTimeout(() => {
      job();
      next();
    }, 5 + 5 * queue.length ** 2);
  };
  const server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', at: performance.now() });
    req.resume();
    req.on('end', () => {
      if (special(req, res)) return;
      queue.push(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.url === '/me' ? '{"id":1,"username":"alice"}' : '[{"id":1,"name":"Rex"}]');
      });
      if (!busy) next();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function probeCheck(id: string, run: (ctx: CheckContext) => AsyncGenerator<FindingDraft>, over: Partial<Check> = {}): Check {
  return defineCheck({
    id,
    title: `Pace probe ${id}`,
    flag: 'SEC_MISC',
    owasp: 'API8:2023',
    cwe: 'CWE-16',
    confidence: 'medium',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    kind: 'active',
    safety: 'safe',
    scope: 'endpoint',
    budget: 200,
    description: 'Sends what the test needs.',
    remediation: 'Nothing to fix: a test probe.',
    references: ['https://owasp.org/API-Security/'],
    appliesTo: (e) => e.method === 'GET' && e.path === '/pets',
    run,
    ...over,
  });
}

async function scan(
  url: string,
  checks: Check[],
  engine: { concurrency: number; timeoutMs: number; retries?: number },
  paces: ScanPace[] = [],
  findings: string[] = [],
): Promise<ScanOutcome> {
  return runScan(
    {
      scanId: '00000000-0000-4000-8000-00000000face',
      api: { id: 'a', name: 'one worker', baseUrl: url, security: BEARER_SECURITY },
      endpoints: miniApiEndpoints().map((e, i) => ({ ...e, id: `e${i}`, flags: [...e.flags, 'URC'] })),
      keys: { 1: 'alice-token' },
      engine: { rps: 0, retries: 2, maxBodyBytes: 1 << 20, maxRequestsPerScan: 5000, maxRequestsPerEndpoint: 1000, tlsVerify: true, allowLocal: true, ...engine },
      options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
      checks,
      signal: new AbortController().signal,
    },
    { logger: createMemoryLogger(), progress: (_p, _c, pace) => pace && paces.push(pace), finding: async (f) => (findings.push(`${f.check_id} ${f.method} ${f.path}: ${f.vulnerability_name}`), true) },
  );
}

describe('the pace of a scan (issue 27)', () => {
  it('slows down for a one-worker server that slows under load, recovers, and ends with no timeout', async () => {
    const server = await oneAtATime();
    // A check that keeps sixteen requests waiting, as a scan's many tasks do.
    const busy = probeCheck('api8-pace-busy', async function* (ctx) {
      let sent = 0;
      const worker = async () => {
        while (sent < 60) {
          sent += 1;
          await ctx.send({ method: 'GET', url: ctx.url(`/pets?n=${sent}`), auth: { kind: 'key', key: 1 } });
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      yield* [] as FindingDraft[];
    });
    const paces: ScanPace[] = [];
    const out = await scan(server.url, [busy], { concurrency: 8, timeoutMs: 3000 }, paces);
    expect(out.status).toBe('completed');
    const notes = out.errors.join('\n');
    expect(notes).not.toMatch(/Requests without a response/);
    expect(notes, notes).toMatch(/Pace: at \d+ s the scan slowed down to 4 requests in flight \(from 8\): an answer took [\d.]+ m?s/);
    expect(notes).toMatch(/Pace: at \d+ s the scan sped up to 5 requests in flight \(from 4\): answers came back at the usual speed/);
    // The live view saw it too: down, then up again.
    const lowest = paces.findIndex((p) => p.limit < p.max);
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(paces.slice(lowest).some((p) => p.limit > paces[lowest]!.limit)).toBe(true);
    expect(paces[0]).toMatchObject({ max: 8, rps: 0, alone: false });
  }, 30_000);

  it('waits out a 429 with Retry-After and sends the proof again, which finds the flaw', async () => {
    let refused = 0;
    const server = await oneAtATime((req, res) => {
      if (req.url !== '/pets?proof=1' || refused++ > 0) return false;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end('{"error":"too many requests"}');
      return true;
    });
    const proof = probeCheck('api8-pace-proof', async function* (ctx) {
      const ex = await ctx.send({ method: 'GET', url: ctx.url('/pets?proof=1'), auth: { kind: 'key', key: 1 } });
      if (ex.ok && ex.body.includes('Rex')) yield { description: 'The proof came back.', exchanges: [{ label: 'Proof', exchange: ex }] };
    });
    const found: string[] = [];
    const out = await runScan(
      {
        scanId: '00000000-0000-4000-8000-00000000fade',
        api: { id: 'a', name: 'limited', baseUrl: server.url, security: BEARER_SECURITY },
        endpoints: miniApiEndpoints().map((e, i) => ({ ...e, id: `e${i}` })),
        keys: { 1: 'alice-token' },
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 2, maxBodyBytes: 1 << 20, maxRequestsPerScan: 5000, maxRequestsPerEndpoint: 1000, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [proof],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger(), progress: () => undefined, finding: async (f) => (found.push(f.check_id), true) },
    );
    expect(out.status).toBe('completed');
    expect(found).toEqual(['api8-pace-proof']);
    const proofs = server.hits.filter((h) => h.url === '/pets?proof=1');
    // Refused, sent again after the wait, then once without credentials (anonymous-proof.ts: PR:N when it answers the same).
    expect(proofs).toHaveLength(3);
    expect(proofs[1]!.at - proofs[0]!.at).toBeGreaterThanOrEqual(950);
    const pets = out.coverage.operations.find((o) => o.method === 'GET' && o.path === '/pets')!;
    expect(pets.ran).toContain('api8-pace-proof');
  }, 20_000);

  it('says a check was inconclusive in the coverage and the notes when its answers never came', async () => {
    const server = await oneAtATime((req) => req.url === '/pets?never=1');
    const waiting = probeCheck('api8-pace-unanswered', async function* (ctx) {
      const ex = await ctx.send({ method: 'GET', url: ctx.url('/pets?never=1'), auth: { kind: 'key', key: 1 } });
      if (ex.ok) yield { description: 'Cannot happen: the target never answers.', exchanges: [{ label: 'Probe', exchange: ex }] };
    });
    const out = await scan(server.url, [waiting], { concurrency: 4, timeoutMs: 300, retries: 1 });
    expect(out.status).toBe('completed');
    expect(server.hits.filter((h) => h.url === '/pets?never=1')).toHaveLength(2);
    const pets = out.coverage.operations.find((o) => o.method === 'GET' && o.path === '/pets')!;
    expect(pets.ran).not.toContain('api8-pace-unanswered');
    expect(pets.skipped).toContainEqual({ check_id: 'api8-pace-unanswered', reason: 'timeout', detail: 'inconclusive: 1 timeout (after retries)' });
    expect(out.coverage.summary.reasons.map((r) => r.reason)).toContain('timeout');
    expect(out.errors.join('\n')).toContain('1 check could not conclude on 1 operation: requests they needed went unanswered even after retries (1 timed out).');
  }, 20_000);

  it('sends a slow operation of a one-worker server once, while others wait behind it, and reports it once (issue 27)', async () => {
    // A pet's page holds the only worker for 5.3 s; everything else takes 5 ms (plus the queue).
    const server = await oneAtATime((req, res) => {
      if (!req.url?.startsWith('/pets/7')) return false;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      }, 5_300);
      return true;
    });
    const busy = probeCheck('api8-pace-around-slow', async function* (ctx) {
      const pet = ctx.allEndpoints.find((e) => e.method === 'GET' && e.path === '/pets/{petId}')!;
      const pets = (n: number) => ctx.send({ method: 'GET', url: ctx.url(`/pets?n=${n}`), auth: { kind: 'key', key: 1 } });
      // Requests ahead of it, the slow one, requests behind it; then the slow one asked for again.
      const first = [pets(1), pets(2), pets(3), ctx.send({ method: 'GET', url: ctx.url('/pets/7'), auth: { kind: 'key', key: 1 } }, pet), pets(4), pets(5), pets(6)];
      await Promise.all(first);
      await ctx.send({ method: 'GET', url: ctx.url('/pets/7?again=1'), auth: { kind: 'key', key: 1 } }, pet);
      await Promise.all([pets(7), pets(8)]);
      yield* [] as FindingDraft[];
    });
    const findings: string[] = [];
    const out = await scan(server.url, [busy, slowOperation], { concurrency: 4, timeoutMs: 8_000, retries: 2 }, [], findings);
    expect(out.status).toBe('completed');
    // The requests queued behind it waited, but were never taken for slow ones; the slow one was never sent again.
    expect(server.hits.filter((h) => h.url.startsWith('/pets/7'))).toHaveLength(1);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(/^api4-slow-operation GET \/pets\/\{petId\}: Resource-intensive operation: one request took [56]\.\d s \(slow response\)$/);
    const notes = out.errors.join('\n');
    expect(notes).not.toMatch(/Requests without a response/);
    expect(notes).toMatch(/GET \/pets\/\{petId\} took 5\.\d s to answer with nothing else in flight/);
  }, 30_000);
});
