// The API2 account checks: login user enumeration, short-code guessing and changes without the
// current password. Each finds its flaw on the target with that flaw on, stays silent on the
// hardened twin and within its budget, and a small hand-written API shows each precision rule.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authBruteForce } from '../../electron/scanner/checks/api2-authentication/brute-force';
import { changeWithoutCurrentPassword } from '../../electron/scanner/checks/api2-authentication/reauthentication';
import { CODE_BURST, shortCodeBruteForce } from '../../electron/scanner/checks/api2-authentication/short-codes';
import { userEnumeration } from '../../electron/scanner/checks/api2-authentication/user-enumeration';
import { flowNotThrottled } from '../../electron/scanner/checks/api6-business-flows/flow-throttling';
import { isShortCodeRoute } from '../../electron/scanner/checks/common/short-codes';
import type { Flag } from '../../shared/constants';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, summary, targetWith } from './check-harness';
import { API2_ACCOUNT_CHECKS } from './check-groups';

const ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login', 'PUT /me/password', 'PUT /users/{userId}/email', 'POST /auth/otp/verify', 'POST /auth/verify-email'];
/** The login burst runs alongside, to show each route is reported once (the business-flow check's share is shown by appliesTo below: its sign-up burst would use up the sign-ups these tests need). */
const WITH_NEIGHBOURS: Check[] = [...API2_ACCOUNT_CHECKS, authBruteForce];

describe('API2 account checks on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, WITH_NEIGHBOURS, { only: ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it('run, stay silent and within their budgets', () => {
    expect(s.outcome.status).toBe('completed');
    for (const c of API2_ACCOUNT_CHECKS) expect(s.outcome.checksRun.map((r) => r.check_id)).toContain(c.id);
    expect(s.findings).toEqual([]);
    expectWithinBudget(s, WITH_NEIGHBOURS);
    expect(t.internalErrors).toEqual([]);
  });
});

describe.each([
  ['login-user-enumeration' as const, userEnumeration, 'POST /auth/login', /unknown_user/],
  ['verification-code-no-throttle' as const, shortCodeBruteForce, 'POST /auth/verify-email', /12 wrong 6-digit codes/],
  ['flow-otp' as const, shortCodeBruteForce, 'POST /auth/otp/verify', /no throttling, lockout or challenge/],
  ['password-change-no-current' as const, changeWithoutCurrentPassword, 'PUT /me/password', /could then log in with the new password/],
])('%s', (flaw, check, route, proof) => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await targetWith(flaw);
    s = await scanChecks(t, WITH_NEIGHBOURS, { only: ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it(`is found by ${check.id} only, once`, () => {
    expect(summary(s.findings)).toEqual([`${check.title} | ${route}`]);
    expect(s.of(check)[0]!.description).toMatch(proof);
    expectWellFormed(s, s.findings);
    expectWithinBudget(s, WITH_NEIGHBOURS);
  });

  it('acts only on users the scan registered', async () => {
    // alice (key 1) was never the target: she can still log in, and no wrong password or code was sent with her name.
    const res = await fetch(`${t.baseUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: t.users.alice.password }) });
    expect(res.status).toBe(200);
    const seeded = [t.users.alice, t.users.bob, t.users.admin, t.users.carol];
    const named = (path: string, field: 'username' | 'email') => t.requests.filter({ method: 'POST', path }).filter((r) => seeded.some((u) => r.body?.includes(`"${u[field]}"`)));
    expect(named('/api/v2/auth/login', 'username').filter((r) => r.status === 401)).toEqual([]);
    // At most the scan's shared baseline (the spec's example), never the burst.
    expect(named('/api/v2/auth/verify-email', 'email').length).toBeLessThanOrEqual(1);
    expect(t.requests.count({ method: 'POST', path: '/api/v2/auth/verify-email' })).toBeLessThanOrEqual(CODE_BURST + 2);
  });
});

describe('severity and proof', () => {
  it('reports a change without the current password as info, proven by a login', async () => {
    const t = await targetWith('password-change-no-current');
    try {
      const s = await scanChecks(t, [changeWithoutCurrentPassword], { only: ROUTES, signup: 'auto' });
      const f = s.of(changeWithoutCurrentPassword)[0]!;
      expect([f.severity, f.confidence]).toEqual(['info', 'high']);
      expect(f.description).toMatch(/needs a session that was already stolen/);
      expect(f.evidence).toContain('Proof: login with the new password');
    } finally {
      await t.close();
    }
  });

  it('skips the change check where the scan may not create users', async () => {
    const t = await targetWith('password-change-no-current');
    try {
      const s = await scanChecks(t, [changeWithoutCurrentPassword], { only: ROUTES, signup: 'off' });
      expect(s.findings).toEqual([]);
      expect(s.outcome.skipped.map((x) => x.check_id)).toEqual([changeWithoutCurrentPassword.id]);
    } finally {
      await t.close();
    }
  });
});

// ---------------------------------------------------------------- hand-written APIs for the precision rules

const TOKEN = 'tok-enum-7d1c2b3a4f5e6d7c8b9a';
const LOGIN = endpoint('POST', '/login', {
  flags: ['BKEN_AUTH'],
  security: [],
  request_body: { content_type: 'application/json', required: true, schema: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } } },
});

/** A login API: `answer` decides the body (and delay) of each refused login; GET /me tells key 1 it is "known". */
async function loginApi(answer: (name: string, known: boolean) => { status?: number; body: unknown; delayMs?: number }): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url === '/me') {
        res.writeHead(req.headers.authorization === `Bearer ${TOKEN}` ? 200 : 401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id: 5, username: 'known' }));
      }
      const name = String((JSON.parse(raw || '{}') as { username?: string }).username ?? '');
      const a = answer(name, name === 'known');
      setTimeout(() => {
        res.writeHead(a.status ?? 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function enumerate(answer: Parameters<typeof loginApi>[0]) {
  const api = await loginApi(answer);
  try {
    return await scanServer(api.url, [endpoint('GET', '/me'), LOGIN], [userEnumeration], { 1: TOKEN });
  } finally {
    api.close();
  }
}

describe('user enumeration precision', () => {
  it('finds a message that differs, on key 1\'s own user (a static key)', async () => {
    const { findings, outcome } = await enumerate((_n, known) => ({ body: { error: known ? 'Wrong password' : 'No such user' } }));
    expect(findings.map((f) => [f.path, f.confidence])).toEqual([['/login', 'high']]);
    expect(findings[0]!.description).toMatch(/error is "No such user" for an unknown user and "Wrong password"/);
    expect(outcome.requestsByCheck[userEnumeration.id]).toBe(4);
  });

  it('ignores fields that change between identical tries (request ids, clocks, counters)', async () => {
    let n = 0;
    const { findings } = await enumerate(() => ({ body: { error: 'Invalid credentials', requestId: Math.random().toString(36), at: Date.now() + n++ } }));
    expect(findings).toEqual([]);
  });

  it('takes the names it sent out of the answers before comparing', async () => {
    const { findings } = await enumerate((name) => ({ body: { error: `Invalid credentials for ${name}` } }));
    expect(findings).toEqual([]);
  });

  it('finds a consistent delay for existing users, confirmed alone', async () => {
    const { findings, outcome } = await enumerate((_n, known) => ({ body: { error: 'Invalid credentials' }, delayMs: known ? 150 : 0 }));
    expect(findings.map((f) => [f.path, f.confidence])).toEqual([['/login', 'medium']]);
    expect(findings[0]!.description).toMatch(/known user with a wrong password in \d+/);
    expect(outcome.requestsByCheck[userEnumeration.id]).toBe(10);
  });

  it('does not take one slow answer for a difference', async () => {
    let calls = 0;
    const { findings } = await enumerate(() => ({ body: { error: 'Invalid credentials' }, delayMs: ++calls === 2 ? 150 : 0 }));
    expect(findings).toEqual([]);
  });
});

describe('short-code routes', () => {
  const body = (props: Record<string, unknown>) => ({ content_type: 'application/json', required: true, schema: { type: 'object', properties: props } });
  const route = (path: string, props: Record<string, unknown>) => ({ ...endpoint('POST', path), request_body: body(props) });

  it('are the code checks, not logins, coupons or long reset tokens', () => {
    expect(isShortCodeRoute({ ...route('/auth/otp/verify', { code: { type: 'string', pattern: '^[0-9]{6}$' } }), id: 'a' })).toBe(true);
    expect(isShortCodeRoute({ ...route('/account/pin', { pin: { type: 'string' } }), id: 'b' })).toBe(true);
    expect(isShortCodeRoute({ ...route('/password-reset/confirm', { email: { type: 'string' }, code: { type: 'string', pattern: '^\\d{6}$' }, newPassword: { type: 'string' } }), id: 'c' })).toBe(true);
    // A login with a second factor needs the password first: the login burst's.
    expect(isShortCodeRoute({ ...route('/login', { username: { type: 'string' }, password: { type: 'string' }, otp: { type: 'string' } }), id: 'd' })).toBe(false);
    // A coupon code, and a reset code that may be a long token.
    expect(isShortCodeRoute({ ...route('/cart/coupon', { code: { type: 'string', pattern: '^[0-9]{6}$' } }), id: 'e' })).toBe(false);
    expect(isShortCodeRoute({ ...route('/password-reset/confirm', { reset_code: { type: 'string' }, newPassword: { type: 'string' } }), id: 'f' })).toBe(false);
    expect(isShortCodeRoute({ ...route('/auth/otp/verify', { code: { type: 'string', maxLength: 64 } }), id: 'g' })).toBe(false);
  });

  it('are left out by the login burst and the business-flow check', () => {
    const flags: Flag[] = ['BKEN_AUTH', 'UABF'];
    const otp = { ...route('/auth/otp/verify', { code: { type: 'string', pattern: '^[0-9]{6}$' } }), id: 'a', flags };
    const reset = { ...route('/password-reset/confirm', { email: { type: 'string' }, code: { type: 'string', pattern: '^\\d{6}$' }, newPassword: { type: 'string' } }), id: 'b', flags };
    for (const e of [otp, reset]) {
      expect(shortCodeBruteForce.appliesTo(e)).toBe(true);
      expect(authBruteForce.appliesTo(e)).toBe(false);
      expect(flowNotThrottled.appliesTo(e)).toBe(false);
    }
  });

  it('stay silent when a code of the wrong shape is answered like a wrong code (the codes were never checked)', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(req.url === '/me' ? 200 : 400, { 'content-type': 'application/json' });
        res.end(req.url === '/me' ? '{"id":1,"username":"known"}' : '{"error":"bad request"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { findings, outcome } = await scanServer(url, [endpoint('GET', '/me'), { ...route('/auth/otp/verify', { code: { type: 'string', pattern: '^[0-9]{6}$' } }), flags: ['BKEN_AUTH'] }], [shortCodeBruteForce], { 1: TOKEN });
      expect(findings).toEqual([]);
      expect(outcome.requestsByCheck[shortCodeBruteForce.id]).toBe(CODE_BURST + 1);
    } finally {
      server.close();
    }
  });
});

// ---------------------------------------------------------------- server errors among the answers

describe('login-unknown-user-error (a login that crashes on unknown usernames)', () => {
  const MOBILE = ['GET /me', 'POST /auth/signup', 'POST /mobile/login'];
  const checks = [userEnumeration, authBruteForce];

  it('is found by the enumeration (500 against 401) and the burst, on users the scan registered', async () => {
    const t = await targetWith('login-unknown-user-error');
    try {
      const s = await scanChecks(t, checks, { only: MOBILE, signup: 'auto' });
      expect(summary(s.findings).sort()).toEqual([`${authBruteForce.title} | POST /mobile/login`, `${userEnumeration.title} | POST /mobile/login`].sort());
      expect(s.of(userEnumeration)[0]!.description).toMatch(/HTTP 500 for an unknown user, HTTP 401 for a known user with a wrong password/);
      // The split held over a second round of names and tries: 4 of each side.
      expect(s.of(userEnumeration)[0]!.evidence).toMatch(/8 logins, alternated/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, checks);
      const seeded = [t.users.alice, t.users.bob, t.users.admin, t.users.carol];
      expect(t.requests.filter({ method: 'POST', path: '/api/v2/mobile/login' }).filter((r) => seeded.some((u) => r.body?.includes(`"${u.username}"`)))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('stays silent on the hardened twin (one answer for both, throttled)', async () => {
    const t = await hardened();
    try {
      const s = await scanChecks(t, checks, { only: MOBILE, signup: 'auto' });
      expect(s.findings).toEqual([]);
      expect(t.internalErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('server errors among login answers', () => {
  it('enumeration: a 500 for unknown names and a 401 for the known one, over two rounds, is a difference', async () => {
    const { findings, outcome } = await enumerate((_n, known) => (known ? { body: { error: 'Invalid credentials' } } : { status: 500, body: { error: 'Internal server error' } }));
    expect(findings.map((f) => [f.path, f.confidence])).toEqual([['/login', 'high']]);
    expect(outcome.requestsByCheck[userEnumeration.id]).toBe(8);
  });

  it('enumeration: a 500 that comes and goes on both sides is no difference', async () => {
    let calls = 0;
    // Unknown, known, unknown, known, ...: the fault hits the 1st and 4th, then the 5th and 8th.
    const { findings } = await enumerate(() => (++calls % 4 === 1 || calls % 4 === 0 ? { status: 500, body: { error: 'Internal server error' } } : { body: { error: 'Invalid credentials' } }));
    expect(findings).toEqual([]);
  });

  it('enumeration: only server errors is nothing to compare, and says so', async () => {
    const { findings, outcome } = await enumerate(() => ({ status: 500, body: { error: 'Internal server error' } }));
    expect(findings).toEqual([]);
    expect(outcome.requestsByCheck[userEnumeration.id]).toBe(4);
    expect(outcome.errors.join('\n')).toMatch(/user enumeration not tested: every login.*server error/);
  });

  async function burst(answer: (n: number) => { status?: number; body: unknown }) {
    let n = 0;
    const api = await loginApi(() => answer(++n));
    try {
      return await scanServer(api.url, [endpoint('GET', '/me'), LOGIN], [authBruteForce], { 1: TOKEN });
    } finally {
      api.close();
    }
  }

  it('brute force: goes on past guesses the API crashed on and reports the whole series', async () => {
    const { findings } = await burst((n) => (n % 3 === 0 ? { status: 500, body: { error: 'Internal server error' } } : { body: { error: 'Invalid credentials' } }));
    expect(findings.map((f) => f.path)).toEqual(['/login']);
    expect(findings[0]!.description).toMatch(/processed 1[01] wrong passwords in a row, \d answered HTTP 401 and \d with a server error \(500\) that did not stop the series/);
  });

  it('brute force: a limit that shows after a server error still counts', async () => {
    const { findings } = await burst((n) => (n === 2 ? { status: 500, body: { error: 'Internal server error' } } : n > 5 ? { status: 429, body: { error: 'Too many attempts' } } : { body: { error: 'Invalid credentials' } }));
    expect(findings).toEqual([]);
  });

  it('brute force: answers that turn into server errors for good may be a failing limit: no finding', async () => {
    let guesses = 0;
    const { findings, outcome } = await burst(() => (++guesses > 6 ? { status: 500, body: { error: 'Internal server error' } } : { body: { error: 'Invalid credentials' } }));
    expect(findings).toEqual([]);
    expect(outcome.errors.join('\n')).toMatch(/throttling not tested: the answers were server errors from attempt \d+ on/);
  });

  it('brute force: a route that only answers server errors is not tested, and says so', async () => {
    const { findings, outcome } = await burst(() => ({ status: 500, body: { error: 'Internal server error' } }));
    expect(findings).toEqual([]);
    expect(outcome.requestsByCheck[authBruteForce.id]).toBe(3);
    expect(outcome.errors.join('\n')).toMatch(/throttling not tested: the first 3 attempts were all answered with a server error/);
  });
});
