// A flaw reachable without credentials is scored PR:N (issue 31), whichever check proved it with a key: a
// public route that dumps every user's plain-text password is critical (9.1), not the medium 6.5 of a key-1
// read; the same dump behind a credential stays PR:L (high: other accounts' passwords), one's own password
// stays medium, and a route that shows anonymous callers less keeps its credential.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_PROOF_NOTE, replayableProof, sameAnswer, withoutCredentials } from '../../electron/scanner/anonymous-proof';
import { excessiveDataExposure } from '../../electron/scanner/checks/api3-property-authorization/data-exposure';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { Exchange, type ExchangeRequest } from '../../electron/scanner/http/exchange';
import { Redactor } from '../../electron/scanner/redact';
import { severityLevel } from '../../shared/severity';
import { endpoint, scanServer } from './check-harness';

const KEY = 'tok-ann-1f2e3d4c5b6a79881726354a';
const USERS = [
  { id: 1, username: 'root', email: 'root@shop.example', password: 'Root-pw-77' },
  { id: 2, username: 'ann', email: 'ann@shop.example', password: 'Ann-pw-123' },
  { id: 3, username: 'ben', email: 'ben@shop.example', password: 'Ben-pw-456' },
];

let server: http.Server;
let baseUrl = '';
let anonymousRequests: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    const signedIn = req.headers.authorization === `Bearer ${KEY}`;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!signedIn) anonymousRequests.push(path);
    // A debug route left open: every user with their password, to anyone.
    if (path === '/debug/users') return res.end(JSON.stringify({ users: USERS }));
    // A profile page: anyone sees names; only a signed-in caller also gets the passwords.
    if (path === '/people') return res.end(JSON.stringify({ users: USERS.map((u) => (signedIn ? u : { id: u.id, username: u.username })) }));
    if (!signedIn) {
      res.statusCode = 401;
      return res.end('{"error":"sign in first"}');
    }
    // The same dump, behind a credential.
    if (path === '/admin/users') return res.end(JSON.stringify({ users: USERS }));
    // The caller's own account, password included.
    if (path === '/me/account') return res.end(JSON.stringify(USERS[1]));
    res.statusCode = 404;
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function scan(): Promise<Map<string, BuiltFinding>> {
  anonymousRequests = [];
  const { findings } = await scanServer(
    baseUrl,
    ['/debug/users', '/people', '/admin/users', '/me/account'].map((p) => endpoint('GET', p, { flags: ['BOPLA'] })),
    [excessiveDataExposure],
    { 1: KEY },
  );
  return new Map(findings.filter((f) => f.parameter === 'plaintext-password').map((f) => [f.path, f]));
}

describe('a flaw reachable without credentials', () => {
  it('is scored PR:N with a keyless curl: a public dump of every password is critical', async () => {
    const byPath = await scan();
    expect([...byPath.keys()].sort()).toEqual(['/admin/users', '/debug/users', '/me/account', '/people']);

    const dump = byPath.get('/debug/users')!;
    expect(dump.cvss_vector).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N');
    expect(dump.cvss_score).toBe(9.1);
    expect(dump.severity).toBe('high');
    expect(severityLevel(dump)).toBe('critical');
    expect(dump.curl).toContain(`${baseUrl}/debug/users`);
    expect(dump.curl).not.toMatch(/authorization|PORTCULLIS_KEY/i);
    expect(dump.evidence).toContain(ANONYMOUS_PROOF_NOTE);
    // The answer shown is still the check's own, its passwords masked; the second request showed nothing new.
    for (const u of USERS) expect(`${dump.evidence}\n${dump.curl}`).not.toContain(u.password);

    // The same dump behind a credential: other accounts' passwords (integrity high), but a key is needed.
    const admin = byPath.get('/admin/users')!;
    expect(admin.cvss_vector).toBe('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N');
    expect(severityLevel(admin)).toBe('high');
    expect(admin.curl).toContain('PORTCULLIS_KEY_1');
    expect(admin.evidence).not.toContain(ANONYMOUS_PROOF_NOTE);

    // One's own password: one account, the one already signed in.
    const own = byPath.get('/me/account')!;
    expect(own.cvss_vector).toBe('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N');
    expect(severityLevel(own)).toBe('medium');

    // Anyone reaches the route, but without a credential it shows no password: the flaw needs the key.
    const people = byPath.get('/people')!;
    expect(people.cvss_vector).toContain('/PR:L/');
    expect(people.curl).toContain('PORTCULLIS_KEY_1');

    // Each route was asked once without credentials at most (its no-credential baseline).
    for (const p of ['/debug/users', '/people', '/admin/users', '/me/account']) expect(anonymousRequests.filter((x) => x === p).length).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('the anonymous replay', () => {
  const request = (over: Partial<ExchangeRequest> = {}): ExchangeRequest => ({
    method: 'GET',
    url: `https://api.example.test/orders/7?api_key=${KEY}&page=2&sig=${encodeURIComponent(`Bearer ${KEY}`)}`,
    headers: { authorization: `Bearer ${KEY}`, cookie: 'session=abc', 'x-api-key': KEY, 'x-trace': `t-${KEY}`, accept: 'application/json' },
    body: null,
    auth: { kind: 'key', key: 1 },
    placements: [
      { in: 'header', name: 'X-Api-Key', format: 'raw' },
      { in: 'query', name: 'api_key', format: 'raw' },
    ],
    ...over,
  });
  const answer = (status: number, body: string, req = request()) => new Exchange(1, req, { status, headers: {}, body, bytes: body.length, truncated: false }, null, 5);
  const redactor = new Redactor([{ label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY }]);
  const safe = { safety: 'safe' as const };

  it('takes out every credential and every value that holds one of the scan\'s secrets', () => {
    const probe = withoutCredentials(answer(200, '{}'), redactor);
    expect(probe.auth).toEqual({ kind: 'none' });
    expect(probe.placements).toEqual([]);
    expect(probe.headers).toEqual({ accept: 'application/json' });
    expect(new URL(String(probe.url)).search).toBe('?page=2');
  });

  it('is only for reads sent as an identity by safe checks, never a forged token', () => {
    const read = answer(200, '{}');
    expect(replayableProof(safe, { description: '', exchanges: [] }, read)).toBe(true);
    expect(replayableProof({ safety: 'intrusive' }, { description: '', exchanges: [] }, read)).toBe(false);
    expect(replayableProof({ ...safe, measuresThrottling: true }, { description: '', exchanges: [] }, read)).toBe(false);
    expect(replayableProof(safe, { description: '', exchanges: [] }, answer(200, '{}', request({ method: 'POST' })))).toBe(false);
    expect(replayableProof(safe, { description: '', exchanges: [] }, answer(200, '{}', request({ auth: { kind: 'none' } })))).toBe(false);
    expect(replayableProof(safe, { description: '', exchanges: [] }, answer(200, '{}', request({ auth: { kind: 'credential', value: 'x', label: 'a forged token' } })))).toBe(false);
    expect(replayableProof(safe, { description: '', exchanges: [], forge: { kind: 'alg-none' } as never }, read)).toBe(false);
  });

  it('counts the same 2xx answer with the same data only', () => {
    const proof = answer(200, '{"id":7,"owner":"ann","total":12.5,"updated_at":"2026-01-01T00:00:00Z"}');
    expect(sameAnswer(proof, answer(200, '{"id":7,"owner":"ann","total":12.5,"updated_at":"2026-02-02T10:00:00Z"}'))).toBe(true);
    expect(sameAnswer(proof, answer(401, proof.body))).toBe(false);
    expect(sameAnswer(proof, answer(200, '{"id":7}'))).toBe(false);
    expect(sameAnswer(proof, answer(200, '{}'))).toBe(false);
    expect(sameAnswer(answer(404, '{}'), answer(404, '{}'))).toBe(false);
  });
});
