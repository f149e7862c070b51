// A user listing any signed-in user may read (no /me-like route; its answer not described): the other
// identity's e-mail address is learnt from its own login request, so the listing is reported as other
// users' personal data (api3-excessive-data-exposure), with the tokens the listed records carry folded
// into that finding rather than reported as a token the route issues (api2-token-in-response).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../electron/log';
import { tokenInResponse } from '../../electron/scanner/checks/api2-authentication/token-exposure';
import { excessiveDataExposure } from '../../electron/scanner/checks/api3-property-authorization/data-exposure';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan } from '../../electron/scanner/run';
import { scanConfigSchema } from '../../shared/identities';
import { endpoint } from './check-harness';

const USERS = [
  { id: 1, email: 'root@shop.example', password: 'Root-pw-77', token: 'f3b1c9d27a4e4f0b8c6d5e2a1b9c8d7e', bearer: 'tok-root-2f9d8c7b6a5e4d3c2b1a09f8' },
  { id: 2, email: 'ann@shop.example', password: 'Ann-pw-123', token: '', bearer: 'tok-ann-1f2e3d4c5b6a79881726354a' },
  { id: 3, email: 'ben@shop.example', password: 'Ben-pw-456', token: '', bearer: 'tok-ben-9e8d7c6b5a4f30211203f4e5' },
];

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** `listEmails` off: the listing shows ids and roles only (the hardened twin). */
async function shop(listEmails: boolean): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/login') {
        const { email, password } = JSON.parse(body || '{}') as { email?: string; password?: string };
        const u = USERS.find((x) => x.email === email && x.password === password);
        res.statusCode = u ? 200 : 401;
        return res.end(JSON.stringify(u ? { authentication: { token: u.bearer } } : { error: 'Invalid email or password.' }));
      }
      const me = USERS.find((u) => `Bearer ${u.bearer}` === req.headers.authorization);
      if (!me) {
        res.statusCode = 401;
        return res.end('{"error":"No Authorization header was found"}');
      }
      if (req.url === '/basket') return res.end(JSON.stringify({ basket: { id: 100 + me.id, items: [] } }));
      if (req.url === '/users') {
        const data = USERS.map((u) => (listEmails ? { id: u.id, email: u.email, role: u.id === 1 ? 'admin' : 'customer', memberToken: u.token } : { id: u.id, role: 'customer' }));
        return res.end(JSON.stringify({ status: 'success', data }));
      }
      res.statusCode = 404;
      res.end('{"error":"not found"}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function scan(baseUrl: string): Promise<BuiltFinding[]> {
  const findings: BuiltFinding[] = [];
  const login = (u: (typeof USERS)[number]) => ({
    name: u.email.split('@')[0]!,
    login: { request: { method: 'POST', path: '/login', json: { email: u.email, password: u.password } }, token: { from: 'body' as const, pointer: '/authentication/token' } },
  });
  await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'custom', name: 'Custom', baseUrl, security: { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] } },
      // The listing's answer is not described (no schema): only BKEN_AUTH, as the importer flags it.
      endpoints: [endpoint('GET', '/basket', { flags: ['SEC_MISC'] }), endpoint('GET', '/users', { flags: ['BKEN_AUTH', 'SEC_MISC', 'IIM'] })].map((e, i) => ({ ...e, id: `c${i}` })),
      identities: { identities: scanConfigSchema.parse({ identities: [login(USERS[1]!), login(USERS[2]!)] }).identities, signup: 'off' },
      engine: { concurrency: 4, rps: 0, timeoutMs: 5_000, retries: 0, maxBodyBytes: 1024 * 1024, maxRequestsPerScan: 5_000, maxRequestsPerEndpoint: 200, tlsVerify: true, allowLocal: true },
      options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
      checks: [excessiveDataExposure, tokenInResponse],
      signal: new AbortController().signal,
    },
    { logger: createMemoryLogger('warn'), progress: () => {}, finding: async (f) => (findings.push(f), true) },
  );
  return findings;
}

describe('a listing of other users, the other identity known by its login request only', () => {
  it('reports the other users\' e-mail addresses and their tokens in one API3 finding', async () => {
    const findings = await scan(await shop(true));
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path} ${f.parameter} ${f.severity}`)).toEqual(['api3-excessive-data-exposure GET /users other-users-email medium']);
    const f = findings[0]!;
    // Key 2 (ben) is known only by the e-mail address its login sent.
    expect(f.description).toContain('2 addresses not ann\'s, ben\'s among them');
    expect(f.description).toContain('data[].memberToken');
    expect(f.evidence).not.toContain(USERS[0]!.token);
    expect(f.evidence).toContain('(from its login request)');
  });

  it('is silent when the listing shows no one\'s address', async () => {
    expect(await scan(await shop(false))).toEqual([]);
  });
});
