// Precision and reproducible evidence (issue 16, items 3 and 4): each rule with the trap that would
// fire without it. Business-flow throttling only on flows sensitive by nature, the rest one API-wide
// API4 finding; a flaw proven without credentials scored PR:N with a curl command without a key; the
// scan's own credentials are not exposed tokens; a deferral never ends with neither check reporting;
// a stateful finding replays as a numbered list of curl commands on a fresh instance; an API-wide
// finding is shown at the first endpoint where it was seen, never "* *".

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { accountPasswordOther } from '../../electron/scanner/checks/api1-object-authorization/account-takeover';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { jwtTampering } from '../../electron/scanner/checks/api2-authentication/jwt-tampering';
import { tokenInResponse } from '../../electron/scanner/checks/api2-authentication/token-exposure';
import { tokenClaims } from '../../electron/scanner/checks/api3-property-authorization/token-claims';
import { noRateLimit } from '../../electron/scanner/checks/api4-resource-consumption/rate-limit';
import { flowNotThrottled, flowStake, sensitiveFlow } from '../../electron/scanner/checks/api6-business-flows/flow-throttling';
import { securityHeaders } from '../../electron/scanner/checks/api8-misconfiguration/security-headers';
import { statefulSteps } from '../../electron/scanner/evidence';
import { buildFinding } from '../../electron/scanner/findings';
import { Exchange, type RequestAuth } from '../../electron/scanner/http/exchange';
import { Redactor } from '../../electron/scanner/redact';
import { esc } from '../../electron/reports/export/html';
import { xml } from '../../electron/reports/export/junit';
import { loadReportInput } from '../../electron/reports/loader';
import { renderReport } from '../../electron/reports/render';
import { openStore } from '../../electron/store/database';
import { scanChecks } from '../helpers/check-scan';
import { tempDir } from '../helpers/core';
import { seedReportFixture } from '../helpers/report-fixture';
import { endpoint, expectWellFormed, isCurlSequence, scanServer, targetWith } from './check-harness';

// ---------------------------------------------------------------- small loopback APIs

type Handler = (req: http.IncomingMessage, body: string) => { status: number; body?: unknown; headers?: Record<string, string> };

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const out = handler(req, body);
      res.writeHead(out.status, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...out.headers });
      res.end(out.body === undefined ? '' : JSON.stringify(out.body));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const KEY1 = 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA';
const KEY2 = 'k2Hn4Rt8Wq1Zx6Vb3Ms9Lp7Kd2Fg5Jc0';
const bearer = (req: http.IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
const PUBLIC = { security: [] };

// ---------------------------------------------------------------- throttling

describe('business flows vs the missing rate limit', () => {
  it('API6 is only for flows sensitive by nature: an ordinary create is not one (trap: POST /books with the UABF flag)', () => {
    const flagged = (method: string, path: string, over = {}) => endpoint(method, path, { flags: ['UABF', 'SEC_MISC'], ...over }) as never;
    for (const [m, p] of [['POST', '/books'], ['POST', '/notes'], ['POST', '/projects/{id}/tasks'], ['PUT', '/profile']] as const) {
      expect(sensitiveFlow(flagged(m, p))).toBe(false);
      expect(flowNotThrottled.appliesTo(flagged(m, p))).toBe(false);
    }
    for (const [m, p] of [['POST', '/auth/signup'], ['POST', '/users/v1/register'], ['POST', '/checkout'], ['POST', '/orders'], ['POST', '/transfers'], ['POST', '/password/reset'], ['POST', '/posts/{id}/votes'], ['POST', '/products/{id}/reviews'], ['POST', '/auth/otp/verify']] as const) {
      expect(flowNotThrottled.appliesTo(flagged(m, p)), `${m} ${p}`).toBe(true);
    }
    // The operation says what the call does when the path does not.
    expect(flowNotThrottled.appliesTo(flagged('POST', '/accounts', { operation_id: 'signUp' }))).toBe(true);
  });

  it('a public sign-up with no limit is reported as needing no credentials (PR:N, a curl without a key)', async () => {
    let n = 0;
    const base = await serve((req) => (req.method === 'POST' && req.url === '/signup' ? { status: 201, body: { id: ++n, status: 'registered' } } : { status: 404, body: {} }));
    const signup = endpoint('POST', '/signup', {
      ...PUBLIC,
      flags: ['UABF', 'SEC_MISC'],
      request_body: { content_type: 'application/json', required: true, schema: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } },
      responses: { '201': { description: 'ok', content_type: 'application/json', schema: null } },
    });
    // Sign-up on: with it off the scan registers nobody, so the sign-up gets no request at all.
    const { findings } = await scanServer(base, [signup], [flowNotThrottled], { 1: KEY1 }, undefined, 'auto');
    expect(findings.map((f) => [f.check_id, f.method, f.path])).toEqual([['api6-flow-not-throttled', 'POST', '/signup']]);
    expect(findings[0]!.cvss_vector).toContain('/PR:N/');
    expect(findings[0]!.curl).not.toMatch(/authorization|PORTCULLIS_KEY/i);
    expect(findings[0]!.evidence).toContain('requests without credentials');
  });

  it('the missing rate limit is one API-wide API4 finding at the burst endpoint, listing where no limit was seen', async () => {
    const base = await serve((req) => (bearer(req) === KEY1 ? { status: 200, body: [{ id: 1, name: req.url }] } : { status: 401, body: {} }));
    const eps = ['/items', '/orders', '/reports'].map((p) => endpoint('GET', p, { flags: ['URC', 'SEC_MISC'] }));
    const { findings } = await scanServer(base, eps, [noRateLimit], { 1: KEY1 });
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({ check_id: 'api4-no-rate-limit', method: 'GET', path: '/items', parameter: 'rate-limit' });
    expect(f!.description).toContain('Seen on (3): GET /items, GET /orders, GET /reports');
    expect(f!.evidence).toContain('GET /orders: no rate-limit header in its answer');
  });
});

// ---------------------------------------------------------------- what is at stake (issue 28 item 6)

describe('a missing limit or cache header is information unless money, credentials, messages or personal data are at stake', () => {
  it('a flow is scored by what it moves: nouns of the route itself, actions of its summary', () => {
    const e = (method: string, p: string, over = {}) => endpoint(method, p, { flags: ['UABF'], ...over }) as never;
    expect(flowStake(e('POST', '/orders'))).toBe('money');
    expect(flowStake(e('POST', '/b2b/v2/orders'))).toBe('money');
    expect(flowStake(e('POST', '/basket/{id}/checkout'))).toBe('money');
    expect(flowStake(e('POST', '/wallet/{id}', { summary: 'Transfer funds to another user' }))).toBe('money');
    expect(flowStake(e('POST', '/password/reset'))).toBe('credentials');
    expect(flowStake(e('POST', '/auth/otp/send'))).toBe('credentials');
    expect(flowStake(e('POST', '/invitations'))).toBe('messages');
    // Storage of a card, sign-ups, votes and reviews move none of these.
    expect(flowStake(e('POST', '/api/Cards', { summary: 'Save a payment card' }))).toBeNull();
    expect(flowStake(e('POST', '/users/v1/register', { summary: 'Register new user' }))).toBeNull();
    expect(flowStake(e('POST', '/posts/{id}/votes'))).toBeNull();
    expect(flowStake(e('PUT', '/products/{id}/reviews', { summary: 'Write a review of a product' }))).toBeNull();
  });

  it('an unthrottled sign-up is information, an unthrottled order a risk (same burst, same server)', async () => {
    let n = 0;
    const base = await serve((req) => (req.method === 'POST' ? { status: 201, body: { id: ++n } } : { status: 404, body: {} }));
    const body = { content_type: 'application/json', required: true, schema: { type: 'object', properties: { note: { type: 'string' } } } };
    const eps = ['/signup', '/orders'].map((p) => endpoint('POST', p, { ...PUBLIC, flags: ['UABF'], request_body: body, responses: { '201': { description: 'ok', content_type: 'application/json', schema: null } } }));
    const { findings } = await scanServer(base, eps, [flowNotThrottled], { 1: KEY1 }, undefined, 'auto');
    expect(findings.map((f) => [f.path, f.severity]).sort()).toEqual([
      ['/orders', 'medium'],
      ['/signup', 'info'],
    ]);
    expect(findings.find((f) => f.path === '/signup')!.description).toContain('moves no money, credentials or messages');
  });

  it('no rate limit: information on answers without personal data, low where they carry e-mail addresses', async () => {
    const quiet = await serve((req) => (bearer(req) === KEY1 ? { status: 200, body: [{ id: 1, title: 'Blue mug', price: 9 }] } : { status: 401, body: {} }));
    const personal = await serve((req) => (bearer(req) === KEY1 ? { status: 200, body: [{ id: 1, email: 'ada@example.com' }] } : { status: 401, body: {} }));
    const eps = [endpoint('GET', '/items', { flags: ['URC', 'SEC_MISC'] })];
    const [a, b] = await Promise.all([scanServer(quiet, eps, [noRateLimit], { 1: KEY1 }), scanServer(personal, eps, [noRateLimit], { 1: KEY1 })]);
    expect(a.findings.map((f) => f.severity)).toEqual(['info']);
    expect(a.findings[0]!.description).toContain('Its answer carries no personal or secret data');
    expect(b.findings.map((f) => f.severity)).toEqual(['low']);
    expect(b.findings[0]!.description).toContain('an e-mail address in [0].email');
  });

  it('no Cache-Control: no-store: low where the authenticated answer carries personal data, information elsewhere', async () => {
    const base = await serve((req) => {
      if (bearer(req) !== KEY1) return { status: 401, body: {}, headers: { 'cache-control': 'private' } };
      const body = req.url === '/me' ? { id: 7, email: 'ada@example.com', phone: '+44 20 7946 0000' } : [{ id: 3, title: 'Spring sale' }];
      return { status: 200, body, headers: { 'cache-control': 'private' } };
    });
    const eps = ['/me', '/adverts'].map((p) => endpoint('GET', p, { flags: ['SEC_MISC'] }));
    const { findings } = await scanServer(base, eps, [securityHeaders], { 1: KEY1 });
    expect(findings.map((f) => [f.vulnerability_name, f.path, f.severity]).sort()).toEqual([
      ['Authenticated responses may be cached', '/me', 'low'],
      ['Authenticated responses without personal data may be cached', '/adverts', 'info'],
    ]);
  });

  it('a two-factor route handing the caller its own setup token is not an exposure; a one-time code there is', async () => {
    const setup = jwt('caller-setup');
    const base = await serve((req) => {
      if (bearer(req) !== KEY1) return { status: 401, body: {} };
      if (req.url === '/2fa/status') return { status: 200, body: { setup: true, setupToken: setup } };
      if (req.url === '/2fa/code') return { status: 200, body: { sent: true, otp: '482913' } };
      return { status: 404, body: {} };
    });
    const eps = ['/2fa/status', '/2fa/code'].map((p) => endpoint('GET', p, { flags: ['BKEN_AUTH'] }));
    const { findings } = await scanServer(base, eps, [tokenInResponse], { 1: KEY1 });
    expect(findings.map((f) => [f.path, f.parameter])).toEqual([['/2fa/code', 'otp']]);
  });

  it("a token carrying the holder's own two-factor secret, from a two-factor route, is not an exposure; from another route it is", async () => {
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const token = (route: string) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '7', route, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })}.c2lnbmF0dXJlLW5vdC1jaGVja2Vk`;
    const base = await serve((req) => (bearer(req) !== KEY1 ? { status: 401, body: {} } : { status: 200, body: { setupToken: token(req.url ?? '') } }));
    const eps = ['/2fa/status', '/profile/export'].map((p) => endpoint('GET', p, { flags: ['BOPLA', 'BKEN_AUTH'] }));
    const { findings } = await scanServer(base, eps, [tokenClaims], { 1: KEY1 });
    expect(findings.map((f) => [f.vulnerability_name, f.path])).toEqual([['Token issued by the API carries secrets or API keys', '/profile/export']]);
  });
});

// ---------------------------------------------------------------- PR:N

function exchange(seq: number, method: string, url: string, auth: RequestAuth, status: number, body: unknown, reqBody: unknown = null, headers: Record<string, string> = {}): Exchange {
  const text = JSON.stringify(body);
  return new Exchange(
    seq,
    { method, url, headers, body: reqBody === null ? null : JSON.stringify(reqBody), auth, placements: [{ in: 'header', name: 'authorization', format: 'bearer' }] },
    { status, headers: { 'content-type': 'application/json' }, body: text, bytes: text.length, truncated: false },
    null,
    5,
  );
}

const redactor = () =>
  new Redactor([
    { label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY1 },
    { label: '[key 2]', envVar: 'PORTCULLIS_KEY_2', value: KEY2 },
  ]);
const AS1: RequestAuth = { kind: 'key', key: 1 };
const AS2: RequestAuth = { kind: 'key', key: 2 };
const NONE: RequestAuth = { kind: 'none' };

describe('a flaw that needs no credentials says so', () => {
  it('scores PR:N when the proving request carried no credential, whatever the check\'s vector (trap: a PR:L check)', () => {
    const check = noRateLimit; // PR:L in its metadata
    expect(check.cvss).toContain('/PR:L/');
    const anon = exchange(1, 'GET', 'http://127.0.0.1:9/items', NONE, 200, [{ id: 1 }]);
    const f = buildFinding(check, { description: 'x', exchanges: [{ label: 'Attack', exchange: anon }] }, endpoint('GET', '/items') as never, redactor());
    expect(f.cvss_vector).toContain('/PR:N/');
    expect(f.cvss_score).toBeGreaterThan(buildFinding(check, { description: 'x', exchanges: [{ label: 'Attack', exchange: exchange(2, 'GET', 'http://127.0.0.1:9/items', AS1, 200, [], null, { authorization: `Bearer ${KEY1}` }) }] }, null, redactor()).cvss_score);
    expect(f.curl).toBe("curl -i -X GET 'http://127.0.0.1:9/items'");
  });

  it('keeps the check\'s vector when the proof was sent with a key', () => {
    const keyed = exchange(1, 'GET', 'http://127.0.0.1:9/items', AS1, 200, [], null, { authorization: `Bearer ${KEY1}` });
    const f = buildFinding(noRateLimit, { description: 'x', exchanges: [{ label: 'Attack', exchange: keyed }] }, null, redactor());
    expect(f.cvss_vector).toBe(noRateLimit.cvss);
    expect(f.curl).toContain('"$PORTCULLIS_KEY_1"');
  });
});

// ---------------------------------------------------------------- one severity model

describe('a finding\'s severity is the CVSS 3.1 band of its own score', () => {
  it('follows the final vector, not a label: the same check is medium with a key and high when no credential was needed', () => {
    const read = exchange(1, 'GET', 'http://127.0.0.1:9/items/1', AS1, 200, { id: 1 }, null, { authorization: `Bearer ${KEY1}` });
    const keyed = buildFinding(bolaCreateSteal, { description: 'x', exchanges: [{ label: 'Attack', exchange: read }] }, null, redactor());
    expect(keyed).toMatchObject({ cvss_score: 6.5, severity: 'medium' });
    const anon = exchange(2, 'GET', 'http://127.0.0.1:9/items/1', NONE, 200, { id: 1 });
    const open = buildFinding(bolaCreateSteal, { description: 'x', exchanges: [{ label: 'Attack', exchange: anon }] }, null, redactor());
    expect(open).toMatchObject({ cvss_score: 7.5, severity: 'high' });
  });

  it('is info exactly when the vector has no impact (0.0), and low, medium, high at the band edges', () => {
    const at = (cvss: string) => buildFinding(noRateLimit, { description: 'x', cvss, exchanges: [] }, null, redactor());
    expect(at('CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N')).toMatchObject({ cvss_score: 0, severity: 'info' });
    expect(at('CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N')).toMatchObject({ cvss_score: 3.7, severity: 'low' });
    expect(at('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L')).toMatchObject({ cvss_score: 4.3, severity: 'medium' });
    expect(at('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:L')).toMatchObject({ cvss_score: 6.3, severity: 'medium' });
    expect(at('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:L/A:N')).toMatchObject({ cvss_score: 7.1, severity: 'high' });
    expect(at('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N')).toMatchObject({ cvss_score: 9.1, severity: 'high' });
  });
});

// ---------------------------------------------------------------- the scan's own credentials

describe('the scan\'s own credentials are not exposed tokens', () => {
  it('its own token echoed to it is not reported; another identity\'s token in an answer is (high)', async () => {
    const base = await serve((req) => {
      const who = bearer(req);
      if (who !== KEY1 && who !== KEY2) return { status: 401, body: {} };
      if (req.url === '/account') return { status: 200, body: { user: 'alice', session_token: who } };
      if (req.url === '/team') return { status: 200, body: { members: [{ name: 'bob', session_token: KEY2 }] } };
      return { status: 404, body: {} };
    });
    const eps = [endpoint('GET', '/account'), endpoint('GET', '/team')];
    const { findings } = await scanServer(base, eps, [tokenInResponse], { 1: KEY1, 2: KEY2 });
    expect(findings.map((f) => [f.path, f.parameter, f.severity])).toEqual([['/team', 'members[0].session_token', 'high']]);
    expect(findings[0]!.description).toContain("another user's credential");
    for (const f of findings) expect(`${f.evidence}${f.curl}${f.description}`).not.toContain(KEY2);
  });

  it('its own two-factor setup secret is not reported, the same secret from another route is (trap)', async () => {
    const secret = 'JBSWY3DPEHPK3PXPq7Zr9Lm2';
    const base = await serve((req) => {
      if (bearer(req) !== KEY1) return { status: 401, body: {} };
      return { status: 200, body: { otp_secret: secret, issuer: 'acme' } };
    });
    const eps = [endpoint('GET', '/me/2fa/setup'), endpoint('GET', '/devices/current')];
    const { findings } = await scanServer(base, eps, [tokenInResponse], { 1: KEY1 });
    expect(findings.map((f) => f.path)).toEqual(['/devices/current']);
  });
});

// ---------------------------------------------------------------- deferrals

function jwt(sub: string): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub, iat: 1767225600 })}.${Buffer.from(`sig-${sub}-0123456789abcdef`).toString('base64url')}`;
}

describe('a deferral never ends with neither check reporting', () => {
  // Any JWT-shaped bearer token gets alice's data; no token is refused.
  const jwtOnly = () => serve((req) => (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(bearer(req)) ? { status: 200, body: { id: 1, username: 'alice', email: 'alice@example.com' } } : { status: 401, body: { error: 'no token' } }));
  const me = () => endpoint('GET', '/me');

  it('the JWT check reports the made-up token itself when the missing-credentials check does not run (trap: it used to only note it)', async () => {
    const base = await jwtOnly();
    const { findings } = await scanServer(base, [me()], [jwtTampering], { 1: jwt('alice') });
    expect(findings.map((f) => [f.check_id, f.vulnerability_name, f.method, f.path])).toEqual([['api2-jwt-tampering', 'Made-up JWT accepted', 'GET', '/me']]);
  });

  it('and stays quiet when the missing-credentials check reported the same endpoint', async () => {
    const base = await jwtOnly();
    const { findings } = await scanServer(base, [me()], [jwtTampering, noOrInvalidCredentials], { 1: jwt('alice') });
    expect(findings.map((f) => [f.check_id, f.method, f.path])).toEqual([['api2-credentials-not-enforced', 'GET', '/me']]);
  });
});

// ---------------------------------------------------------------- stateful evidence

describe('a stateful finding replays as numbered curl commands', () => {
  it('reads ids assigned by the API into variables, and names the credentials by role; a burst of one request is not a sequence (trap)', () => {
    const create = exchange(3, 'POST', 'http://127.0.0.1:9/api/things', AS1, 201, { data: { id: 4711, title: 'mine' } }, { title: 'mine' }, { authorization: `Bearer ${KEY1}`, 'content-type': 'application/json' });
    const read = exchange(5, 'GET', 'http://127.0.0.1:9/api/things/4711', AS2, 200, { id: 4711, title: 'mine' }, null, { authorization: `Bearer ${KEY2}` });
    const steps = [
      { label: 'Attack: key 2 reads it', exchange: read },
      { label: 'key 1 creates the object', exchange: create },
    ];
    const f = buildFinding(bolaCreateSteal, { description: 'x', exchanges: steps, reproduce: read }, null, redactor());
    expect(isCurlSequence(f.curl)).toBe(true);
    expect(f.curl).toContain("BASE='http://127.0.0.1:9'");
    expect(f.curl).toContain("# 1. key 1 creates the object (key 1)\nOBJECT_ID=$(curl -s -X POST -H 'authorization: Bearer '\"$VICTIM_TOKEN\"");
    expect(f.curl).toContain("| jq -r '.data.id')");
    expect(f.curl).toContain("# 2. Attack: key 2 reads it (key 2) <- the proof\ncurl -i -X GET -H 'authorization: Bearer '\"$ATTACKER_TOKEN\" \"$BASE\"'/api/things/'\"$OBJECT_ID\"");
    expect(f.curl).not.toContain(KEY1);
    expect(f.curl).not.toContain(KEY2);
    const burst = [1, 2].map((n) => ({ label: `Request ${n}`, exchange: exchange(n, 'POST', 'http://127.0.0.1:9/api/votes', AS1, 201, { ok: true }, { v: n }) }));
    expect(statefulSteps(burst, burst[1]!.exchange)).toBeNull();
  });

  it('gives two different secrets of one kind two variables, and lists what each stands for (trap: a control password read as the new one)', () => {
    const r = new Redactor([
      { label: '[created user]', envVar: 'PORTCULLIS_CREATED_USER_PASSWORD', value: 'Pc-newpass9Kd2-8y' },
      { label: '[created user]', envVar: 'PORTCULLIS_CREATED_USER_PASSWORD', value: 'Pc-madeup4Rt7-9z' },
      { label: '[created-5]', envVar: 'PORTCULLIS_CREATED_5_TOKEN', value: KEY1 },
    ]);
    const as5: RequestAuth = { kind: 'identity', name: 'created-5' };
    const change = exchange(7, 'PUT', 'http://127.0.0.1:9/users/pcsvictim/password', as5, 204, {}, { password: 'Pc-newpass9Kd2-8y' }, { authorization: `Bearer ${KEY1}` });
    const proof = exchange(8, 'POST', 'http://127.0.0.1:9/login', NONE, 200, { ok: true }, { username: 'pcsvictim', password: 'Pc-newpass9Kd2-8y' });
    const control = exchange(9, 'POST', 'http://127.0.0.1:9/login', NONE, 401, {}, { username: 'pcsvictim', password: 'Pc-madeup4Rt7-9z' });
    const f = buildFinding(bolaCreateSteal, {
      description: 'x',
      exchanges: [
        { label: 'Attack: created-5 changes the password', exchange: change },
        { label: 'Proof: the victim logs in with it', exchange: proof },
        { label: 'Control: a made-up password', exchange: control },
      ],
      reproduce: change,
    }, null, r);
    const lines = f.curl.split('\n');
    expect(lines).toContain('#   TOKEN: the token of created-5');
    expect(lines.filter((l) => /^# {3}PORTCULLIS_CREATED_USER_PASSWORD(_2)?: the password of created user$/.test(l))).toHaveLength(2);
    const step = (n: number) => lines[lines.findIndex((l) => l.startsWith(`# ${n}. `)) + 1]!;
    expect(step(1)).toContain('"$PORTCULLIS_CREATED_USER_PASSWORD"');
    expect(step(1)).toContain(`'authorization: Bearer '"$TOKEN"`);
    expect(step(2)).toContain('"$PORTCULLIS_CREATED_USER_PASSWORD"');
    expect(step(3)).toContain('"$PORTCULLIS_CREATED_USER_PASSWORD_2"');
    for (const secret of ['Pc-newpass9Kd2-8y', 'Pc-madeup4Rt7-9z', KEY1]) expect(f.curl).not.toContain(secret);
  });

  it('the create-then-steal sequence works on a fresh instance of the target', async () => {
    const t = await targetWith('bola-create-update');
    let curl = '';
    try {
      const s = await scanChecks(t, [bolaCreateSteal], { only: ['GET /me', 'POST /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}'] });
      const [f] = s.of(bolaCreateSteal);
      expectWellFormed(s, s.findings);
      curl = f!.curl;
    } finally {
      await t.close();
    }
    expect(isCurlSequence(curl)).toBe(true);
    const fresh = await targetWith('bola-create-update');
    try {
      const script = curl.replace(/^BASE=.*$/m, `BASE='${new URL(fresh.baseUrl).origin}'`);
      // Asynchronously: the target answers from this process.
      const { stdout: out } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
        env: { PATH: process.env.PATH, VICTIM_TOKEN: fresh.users.alice.key, ATTACKER_TOKEN: fresh.users.bob.key },
        encoding: 'utf8',
        timeout: 20_000,
      });
      // The attacker's write shows in the owner's re-read, on the fresh instance.
      const marker = /pclbola[\w-]*/.exec(curl)![0];
      const statuses = [...out.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
      expect(statuses.every((x) => x < 300)).toBe(true);
      expect(out.split(/^HTTP\/1\.1 /m).pop()).toContain(marker);
    } finally {
      await fresh.close();
    }
  });
});

describe('an account finding replays from the registration of its users', () => {
  it('reads a token the login gives in a header, names the passwords by role, and keeps every secret out (unit)', () => {
    const [pwA, pwV, tokA] = ['Pc-attackerPw12-7x', 'Pc-victimPw1234-7x', 'tokA-9f8e7d6c5b4a3f2e1d0c'];
    const r = new Redactor([pwA, pwV, tokA].map((value) => ({ label: '[created user]', envVar: 'PORTCULLIS_CREATED_USER_TOKEN', value })));
    const asA: RequestAuth = { kind: 'identity', name: 'created-1' };
    const reg = (seq: number, name: string, pw: string, id: number) => exchange(seq, 'POST', 'http://127.0.0.1:9/signup', NONE, 201, { id }, { username: name, password: pw });
    const login = exchange(2, 'POST', 'http://127.0.0.1:9/login', NONE, 200, { ok: true }, { username: 'pcsa', password: pwA });
    login.response!.headers['x-auth-token'] = tokA;
    const del = exchange(5, 'DELETE', 'http://127.0.0.1:9/users/42', asA, 204, {}, null, { 'x-auth-token': tokA });
    const users = [
      { identity: 'created-1', role: 'attacker' as const, registration: reg(1, 'pcsa', pwA, 41), logins: [login], password: pwA, token: tokA },
      { identity: 'created-2', role: 'victim' as const, registration: reg(3, 'pcsv', pwV, 42), logins: [], password: pwV, token: null },
    ];
    const f = buildFinding(bolaCreateSteal, { description: 'x', exchanges: [{ label: 'Attack', exchange: del }], reproduce: del, setup: users }, null, r);
    expect(f.curl).toContain(`ATTACKER_TOKEN=$(curl -s -X POST -D - -o /dev/null --data-raw '{"username":"pcsa","password":"'"$ATTACKER_PASSWORD"'"}'`);
    expect(f.curl).toContain(`| grep -i '^x-auth-token:' | head -n 1 | cut -d ' ' -f 2- | tr -d '\\r')`);
    expect(f.curl).toContain(`VICTIM_ID=$(curl -s -X POST --data-raw '{"username":"pcsv","password":"'"$VICTIM_PASSWORD"'"}'`);
    expect(f.curl).toContain(`curl -i -X DELETE -H 'x-auth-token: '"$ATTACKER_TOKEN" "$BASE"'/users/'"$VICTIM_ID"`);
    expect(f.curl.split('\n').slice(2, 5)).toEqual(['# Throwaway passwords for the users these steps register and change (choose your own; any the API accepts):', 'ATTACKER_PASSWORD="${ATTACKER_PASSWORD:-Choose-your-own-1x}"', 'VICTIM_PASSWORD="${VICTIM_PASSWORD:-Choose-your-own-2x}"']);
    for (const secret of [pwA, pwV, tokA]) expect(f.curl).not.toContain(secret);
  });

  const ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login', 'PUT /users/{userId}/password'];

  it('another user\'s password change: register and log in both users, change, log in as the victim with the new password (fresh instance)', async () => {
    const t = await targetWith('password-change-other');
    let curl = '';
    try {
      const s = await scanChecks(t, [accountPasswordOther], { only: ROUTES, signup: 'auto' });
      const [f] = s.of(accountPasswordOther);
      expectWellFormed(s, s.findings);
      curl = f!.curl;
    } finally {
      await t.close();
    }
    expect(isCurlSequence(curl)).toBe(true);
    // The scan's generated passwords (Pc-...-7x/8y/9z) never appear: the reader chooses the users' passwords.
    expect(curl).not.toMatch(/Pc-[A-Za-z0-9]{12}-\d[a-z]/);
    const steps = curl.split('\n').filter((l) => /^# \d+\. /.test(l));
    expect(steps.slice(0, 4).map((l) => l.replace(/created-\d+/g, 'U'))).toEqual([
      '# 1. Setup: U (the attacker) registers (no credentials)',
      '# 2. Setup: U logs in (no credentials)',
      '# 3. Setup: U (the victim) registers (no credentials)',
      '# 4. Setup: U logs in (no credentials)',
    ]);
    expect(curl).toMatch(/^ATTACKER_PASSWORD="\$\{ATTACKER_PASSWORD:-[^}]+\}"$/m);
    expect(curl).toMatch(/^ATTACKER_TOKEN=\$\(curl -s -X POST .*'"\$ATTACKER_PASSWORD"'.* \| jq -r '\.accessToken'\)$/m);
    expect(curl).toMatch(/^VICTIM_ID=\$\(curl -s -X POST .*'"\$VICTIM_PASSWORD"'/m);
    expect(curl).toMatch(/^curl -i -X PUT .*-H 'authorization: Bearer '"\$ATTACKER_TOKEN".*"\$BASE"'\/api\/v2\/users\/'"\$VICTIM_ID"'\/password'$/m);
    expect(curl).not.toContain('# Set first');
    const victim = /'"\$VICTIM_PASSWORD"'.*"username":"(pcs\w+)"|"username":"(pcs\w+)"[^\n]*'"\$VICTIM_PASSWORD"'/.exec(curl.split('\n').find((l) => l.startsWith('VICTIM_ID='))!);
    const username = victim![1] ?? victim![2]!;
    const fresh = await targetWith('password-change-other');
    try {
      const script = curl.replace(/^BASE=.*$/m, `BASE='${new URL(fresh.baseUrl).origin}'`);
      const chosen = { ATTACKER_PASSWORD: 'Attacker-pw-41x', VICTIM_PASSWORD: 'Victim-pw-42x', NEW_PASSWORD: 'Taken-over-43x', WRONG_PASSWORD: 'Made-up-pw-44x' };
      // Asynchronously: the target answers from this process.
      const { stdout: out } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { env: { PATH: process.env.PATH, ...chosen }, encoding: 'utf8', timeout: 20_000 });
      // An answer's body ends without a newline: the next status line follows it on the same line.
      const statuses = [...out.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses).toHaveLength(4);
      expect(statuses.slice(0, -1).every((x) => x < 300)).toBe(true);
      expect(statuses.at(-1)).toBe(401);
      const login = (password: string) => fetch(`${fresh.baseUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
      expect((await login(chosen.NEW_PASSWORD)).status).toBe(200);
      expect((await login(chosen.VICTIM_PASSWORD)).status).toBe(401);
    } finally {
      await fresh.close();
    }
  });
});

// ---------------------------------------------------------------- every report format

describe('every report format shows the numbered steps', () => {
  it('JSON, HTML, JUnit and the technical PDF carry each step of a sequence, and no secret', async () => {
    const dir = tempDir('portcullis-steps-');
    const store = await openStore(path.join(dir, 'portcullis.db'));
    try {
      const fx = await seedReportFixture(store.db, { findings: 3 });
      const input = (await loadReportInput(store.db, fx.scanId))!;
      const create = exchange(3, 'POST', 'http://127.0.0.1:9/api/things', AS1, 201, { id: 'c0ffee42' }, { title: 'mine' }, { authorization: `Bearer ${KEY1}` });
      const read = exchange(5, 'GET', 'http://127.0.0.1:9/api/things/c0ffee42', AS2, 200, { id: 'c0ffee42' }, null, { authorization: `Bearer ${KEY2}` });
      const { curl } = buildFinding(bolaCreateSteal, { description: 'x', exchanges: [{ label: 'key 1 creates it', exchange: create }, { label: 'Attack: key 2 reads it', exchange: read }], reproduce: read }, null, redactor());
      input.findings[0] = { ...input.findings[0]!, curl };
      const steps = ['# 1. key 1 creates it (key 1)', '# 2. Attack: key 2 reads it (key 2) <- the proof', "| jq -r '.id')", '"$BASE"'];
      const json = (await renderReport(input, 'json', { timeZone: 'UTC' })).body.toString('utf8');
      const html = (await renderReport(input, 'html', { timeZone: 'UTC' })).body.toString('utf8');
      const junit = (await renderReport(input, 'junit', { timeZone: 'UTC' })).body.toString('utf8');
      const pdf = path.join(dir, 'technical.pdf');
      fs.writeFileSync(pdf, (await renderReport(input, 'technical', { timeZone: 'UTC' })).body);
      const pdfText = (await promisify(execFile)('pdftotext', ['-raw', pdf, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      expect(JSON.stringify(JSON.parse(json))).toContain(JSON.stringify(curl).slice(1, -1));
      for (const step of steps) {
        expect(html).toContain(esc(step));
        expect(junit).toContain(xml(step));
        expect(pdfText.replace(/\n/g, ' ')).toContain(step.slice(0, 24));
      }
      for (const text of [json, html, junit, pdfText]) for (const k of [KEY1, KEY2]) expect(text).not.toContain(k);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- API-wide findings

describe('an API-wide finding is shown at the first endpoint where it was seen', () => {
  it('security headers: method and path of the first affected endpoint, never "* *", the fingerprint still API-wide', async () => {
    const base = await serve(() => ({ status: 200, body: { ok: true }, headers: { 'x-content-type-options': '', server: 'nginx/1.18.0' } }));
    const { findings } = await scanServer(base, [endpoint('GET', '/b'), endpoint('GET', '/a')], [securityHeaders], { 1: KEY1 });
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect([f.method, f.path]).toEqual(['GET', '/a']);
      expect(f.evidence.startsWith('Method: GET\nPath: /a\n')).toBe(true);
    }
  });
});
