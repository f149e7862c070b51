// API2 token checks against the test target (and one small HS256 API): JWT tampering, login /
// reset throttling, keys in the URL, tokens in responses. Each finds its flaw alone, stays silent
// on the hardened twin and keeps to its budget.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authBruteForce } from '../../electron/scanner/checks/api2-authentication/brute-force';
import { crackJwt, jwtTampering, parseJwt } from '../../electron/scanner/checks/api2-authentication/jwt-tampering';
import { credentialsInUrl, tokenInResponse } from '../../electron/scanner/checks/api2-authentication/token-exposure';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';
import { TOKEN_CHECKS } from './check-groups';

const ME = 'GET /me';

describe('API2 token checks on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  let withApiKeys: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, TOKEN_CHECKS);
    withApiKeys = await scanChecks(t, TOKEN_CHECKS, { apiKeys: true });
  });
  afterAll(() => t.close());

  it.each(TOKEN_CHECKS.map((c) => [c.id, c] as const))('%s stays silent and within its budget', (_id, check) => {
    expect(s.of(check)).toEqual([]);
    expect(withApiKeys.of(check)).toEqual([]);
    expectWithinBudget(s, [check]);
    expectWithinBudget(withApiKeys, [check]);
  });

  it('the hardened login and reset routes throttled the bursts (the check saw it and stopped)', () => {
    expect(t.requests.count({ path: '/api/v2/auth/login', status: 429 })).toBeGreaterThan(0);
    expect(t.requests.count({ path: '/api/v2/auth/password-reset/confirm', status: 429 })).toBeGreaterThan(0);
  });

  it('skips JWT tampering when key 1 is not a JWT, and says why', () => {
    expect(withApiKeys.outcome.skipped.find((x) => x.check_id === jwtTampering.id)?.reason).toMatch(/not a JWT/);
  });
});

describe('API2.2 JWT tampering', () => {
  it.each([
    ['jwt-alg-none', ['alg-none'], 'HS256'],
    // Every variant runs and each accepted one is reported: "alg": "none" has no signature either.
    ['jwt-sig-stripped', ['alg-none', 'signature-stripped'], 'HS256'],
    ['jwt-sig-unverified', ['alg-none', 'claims-changed', 'signature-altered', 'signature-stripped'], 'HS256'],
    ['jwt-sub-swap', ['claims-changed'], 'HS256'],
    // Header attacks: key 1 is then a partner token (RS256) where the attack needs the API's public key.
    ['jwt-key-confusion', ['key-confusion'], 'RS256'],
    ['jwt-kid-path', ['kid-path'], 'HS256'],
    ['jwt-embedded-jwk', ['jwk-embedded'], 'RS256'],
    ['jwt-jku-trusted', ['jku'], 'RS256'],
    ['jwt-x5c', ['x5c-embedded'], 'RS256'],
    ['jwt-x5u', ['x5u'], 'RS256'],
  ] as const)('finds %s', async (flaw, variants, alg) => {
    const t = await targetWith(flaw);
    try {
      const s = await scanChecks(t, [jwtTampering], { only: [ME], key1: await t.mintToken('alice', { alg }) });
      const found = s.of(jwtTampering);
      expect(found.map((f) => f.parameter).sort()).toEqual([...variants]);
      for (const f of found) expect(f.confidence).toBe('high');
      expect(found[0]!.evidence).toContain('== Control: a made-up JWT (made-up JWT) ==');
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [jwtTampering]);
    } finally {
      await t.close();
    }
  });

  it('stays silent on the hardened twin with a partner token (RS256): its public key is published, and every header attack is refused', async () => {
    const t = await hardened();
    try {
      const s = await scanChecks(t, [jwtTampering], { only: [ME], key1: await t.mintToken('alice', { alg: 'RS256' }) });
      expect(s.findings).toEqual([]);
      expectWithinBudget(s, [jwtTampering]);
      // The key was found and all four confusion forms were tried, besides kid, jwk, jku, x5c and x5u.
      expect(t.requests.count({ path: '/.well-known/jwks.json' })).toBe(1);
      expect(t.requests.count({ path: '/api/v2/me' })).toBeGreaterThanOrEqual(16);
    } finally {
      await t.close();
    }
  });

  it('finds jwt-exp-ignored when the key given is itself expired (no request needed)', async () => {
    const t = await targetWith('jwt-exp-ignored');
    try {
      const s = await scanChecks(t, [jwtTampering], { only: [ME], key1: await t.mintToken('alice', { expiresIn: -3600 }) });
      const f = s.of(jwtTampering).find((x) => x.parameter === 'expired')!;
      expect(f).toMatchObject({ vulnerability_name: 'Expired JWT accepted', confidence: 'high', severity: 'high', cvss_score: 7.4 });
      expect(f.description).toMatch(/passed 60 minutes before the scan/);
      expectWellFormed(s, s.findings);
    } finally {
      await t.close();
    }
  });

  it('finds a guessable HMAC secret offline and proves it with a re-signed token; an expired one is then refused', async () => {
    const secret = 'secret';
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const mint = (sub: string) => {
      const hp = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, exp: now + 3600 })}`;
      return `${hp}.${createHmac('sha256', secret).update(hp).digest('base64url')}`;
    };
    const server = http.createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const [h, p, sig] = token.split('.');
      const ok = !!h && !!p && createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') === sig && JSON.parse(Buffer.from(p, 'base64url').toString()).exp > Date.now() / 1000;
      const sub = ok ? (JSON.parse(Buffer.from(p!, 'base64url').toString()) as { sub: string }).sub : null;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { id: sub, username: `user-${sub}`, email: `user-${sub}@example.com` } : { error: 'unauthorized' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const key = mint('1001');
      expect(crackJwt(parseJwt(key)!)).toBe(secret);
      const { findings, outcome } = await scanServer(url, [endpoint('GET', '/me')], [jwtTampering], { 1: key, 2: mint('1002') });
      expect(findings.map((f) => f.parameter)).toEqual(['weak-secret']);
      expect(findings[0]!.description).toMatch(/well-known HMAC secret \("se\*\*\*\*", 6 characters\)/);
      expect(findings[0]!.evidence).not.toContain(key);
      expect(outcome.requestsByCheck[jwtTampering.id]).toBeLessThanOrEqual(jwtTampering.budget);
    } finally {
      server.close();
    }
  });
});

describe('API2.3 no throttling of login, token and reset attempts', () => {
  it('finds login-no-throttle', async () => {
    const t = await targetWith('login-no-throttle');
    try {
      const s = await scanChecks(t, [authBruteForce], { only: [ME, 'POST /auth/login', 'POST /auth/password-reset', 'POST /auth/password-reset/confirm'] });
      expect(s.of(authBruteForce).map((f) => [f.method, f.path, f.parameter, f.severity, f.confidence])).toEqual([['POST', '/auth/login', 'password', 'medium', 'medium']]);
      // Every wrong password was for key 1's own user, so a per-account limit would have shown.
      const bodies = t.requests.filter({ method: 'POST', path: '/api/v2/auth/login', status: 401 });
      expect(bodies.length).toBeGreaterThanOrEqual(10);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [authBruteForce]);
    } finally {
      await t.close();
    }
  });

  it('finds reset-no-throttle on the reset request and on its confirmation', async () => {
    const t = await targetWith('reset-no-throttle');
    try {
      const s = await scanChecks(t, [authBruteForce], { only: [ME, 'POST /auth/login', 'POST /auth/password-reset', 'POST /auth/password-reset/confirm'] });
      expect(s.of(authBruteForce).map((f) => `${f.method} ${f.path}`).sort()).toEqual(['POST /auth/password-reset', 'POST /auth/password-reset/confirm']);
      expect(t.outbox.filter((m) => m.to === t.users.alice.email).length).toBeGreaterThanOrEqual(10);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [authBruteForce]);
    } finally {
      await t.close();
    }
  });
});

describe('API2.4 credentials in the URL and tokens in responses', () => {
  it.each([
    ['a JWT', false, 'access_token'],
    ['an API key', true, 'api_key'],
  ] as const)('finds key-in-query with %s', async (_what, apiKeys, name) => {
    const t = await targetWith('key-in-query');
    try {
      const s = await scanChecks(t, [credentialsInUrl], { only: [ME], apiKeys });
      expect(s.of(credentialsInUrl).map((f) => [f.path, f.parameter, f.confidence])).toEqual([['/me', name, 'high']]);
      const f = s.of(credentialsInUrl)[0]!;
      expect(f.evidence).toContain(`> GET /api/v2/me?${name}=[key 1]`);
      expect(f.curl).toContain('$PORTCULLIS_KEY_1');
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [credentialsInUrl]);
    } finally {
      await t.close();
    }
  });

  it('finds token-in-response on the reset request for key 1\'s own account', async () => {
    const t = await targetWith('token-in-response');
    try {
      const s = await scanChecks(t, [tokenInResponse], { only: [ME, 'POST /auth/login', 'POST /auth/password-reset'] });
      expect(s.of(tokenInResponse).map((f) => [f.method, f.path, f.parameter, f.severity])).toEqual([['POST', '/auth/password-reset', 'resetToken', 'high']]);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [tokenInResponse]);
    } finally {
      await t.close();
    }
  });
});
