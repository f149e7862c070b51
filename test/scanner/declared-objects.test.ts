// Objects the user says each identity owns (`objects:`): on an API where nothing can be created (its
// create wants a CAPTCHA) and nothing lists a user's objects, they are what the BOLA checks need to
// prove ownership; writes reach them only with `writes: existing`.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityConfig } from '../../shared/identities';
import { createMemoryLogger } from '../../electron/log';
import { bolaTokenSwap } from '../../electron/scanner/checks/api1-object-authorization/id-swaps';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan } from '../../electron/scanner/run';
import { endpoint } from './check-harness';

const TOKENS: Record<string, string> = { 'tok-alice-4f1e9c2b7a': 'alice', 'tok-bob-8d3a6e1f5c': 'bob' };
const NOTES: Record<string, { id: number; owner: string; title: string; body: string }> = {
  '11': { id: 11, owner: 'alice', title: 'Alice quarterly plan', body: 'alpha-7731 launch in Lyon' },
  '12': { id: 12, owner: 'bob', title: 'Bob salary review', body: 'bravo-2290 raise to 61k' },
};

let url = '';
let server: http.Server;
const seen: string[] = [];
beforeAll(async () => {
  // Any signed-in user reads any note (the flaw); creating one needs a CAPTCHA the scan cannot solve.
  server = http.createServer((req, res) => {
    const who = TOKENS[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
    seen.push(`${req.method} ${req.url} ${who ?? 'anonymous'}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (!who) return send(401, { error: 'Sign in first.' });
      if (req.url === '/me') return send(200, { username: who, email: `${who}@corp.example` });
      if (req.method === 'POST' && req.url === '/notes') return send(400, { error: 'Solve the CAPTCHA first.' });
      const note = NOTES[/^\/notes\/(\d+)$/.exec(req.url ?? '')?.[1] ?? ''];
      if (!note) return send(404, { error: 'Not found.' });
      if (req.method === 'GET') return send(200, note);
      if (req.method === 'PUT') return send(200, note);
      return send(405, { error: 'Method not allowed.' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const noteBody = { content_type: 'application/json', required: true, schema: { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } } } };
const ENDPOINTS = [endpoint('GET', '/me'), endpoint('POST', '/notes', { request_body: noteBody }), endpoint('GET', '/notes/{noteId}'), endpoint('PUT', '/notes/{noteId}', { request_body: noteBody })];

async function scan(objects: boolean, writes: 'created' | 'existing') {
  const identities: IdentityConfig[] = [
    { name: 'alice', role: 'user', token: 'tok-alice-4f1e9c2b7a', ...(objects ? { objects: { '/notes/{id}': ['11'] } } : {}) },
    { name: 'bob', role: 'user', token: 'tok-bob-8d3a6e1f5c', ...(objects ? { objects: { '/notes/{id}': ['12'] } } : {}) },
  ];
  const findings: BuiltFinding[] = [];
  const from = seen.length;
  const outcome = await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'custom', name: 'Notes', baseUrl: url, security: { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] } },
      endpoints: ENDPOINTS.map((e, i) => ({ ...e, id: `c${i}` })),
      identities: { identities, signup: 'off' },
      engine: { concurrency: 2, rps: 0, timeoutMs: 5_000, retries: 0, maxBodyBytes: 1024 * 1024, maxRequestsPerScan: 2_000, maxRequestsPerEndpoint: 200, tlsVerify: true, allowLocal: true },
      options: { lowerPrivilegeKey: 2, allowExistingObjects: writes === 'existing' },
      checks: [bolaTokenSwap, noOrInvalidCredentials],
      signal: new AbortController().signal,
    },
    { logger: createMemoryLogger('warn'), progress: () => {}, finding: async (f) => (findings.push(f), true) },
  );
  return { findings, outcome, requests: seen.slice(from) };
}

describe('objects: per identity', () => {
  it('proves a cross-user read on an API where nothing can be created or listed', async () => {
    const { findings, requests } = await scan(true, 'created');
    const bola = findings.filter((f) => f.check_id === 'api1-bola-token-swap');
    expect(bola.map((f) => `${f.method} ${f.path}`)).toEqual(['GET /notes/{noteId}']);
    expect(bola[0]!.evidence).toContain("noteId=11 is alice's by the scan configuration (objects:) and not in bob's");
    expect(requests).toContain('GET /notes/11 bob');
    // The default write policy: no write reaches an object the scan did not create, declared or not.
    expect(requests.filter((r) => r.startsWith('PUT '))).toEqual([]);
  });

  it('finds nothing without them: no object of the users is known', async () => {
    const { findings } = await scan(false, 'created');
    expect(findings.filter((f) => f.check_id === 'api1-bola-token-swap')).toEqual([]);
  });

  it('lets writes reach the declared objects with writes: existing', async () => {
    const { requests } = await scan(true, 'existing');
    expect(requests).toContain('PUT /notes/11 alice');
  });
});
