// Credentials handled outside the usual shapes (issue 28 item 5): a code checked without credentials
// after an earlier step asked for it (and of a length the description does not give), a password
// change in the query string of a GET, and a default password that opens an administrator account.
// Each is found on the test target with its flaw on and stays silent on the hardened twin.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtArgument } from '../../electron/scanner/checks/api2-authentication/jwt-argument';
import { changeWithoutCurrentPassword } from '../../electron/scanner/checks/api2-authentication/reauthentication';
import { codeRequestStep, shortCodeBruteForce } from '../../electron/scanner/checks/api2-authentication/short-codes';
import { excessiveDataExposure } from '../../electron/scanner/checks/api3-property-authorization/data-exposure';
import { weakCredentials } from '../../electron/scanner/checks/api2-authentication/weak-credentials';
import { shortCodeField } from '../../electron/scanner/checks/common/short-codes';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, summary, targetWith } from './check-harness';

const ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login', 'POST /auth/sms-login', 'POST /auth/sms-login/verify', 'GET /account/change-password', 'GET /account/summary', 'GET /exports/storage'];
const CHECKS: Check[] = [shortCodeBruteForce, changeWithoutCurrentPassword, weakCredentials, jwtArgument, excessiveDataExposure];

describe('credential checks on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, CHECKS, { only: ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it('run, stay silent and within their budgets', () => {
    expect(s.outcome.status).toBe('completed');
    for (const c of CHECKS) expect(s.outcome.checksRun.map((r) => r.check_id)).toContain(c.id);
    expect(s.findings).toEqual([]);
    expectWithinBudget(s, CHECKS);
    expect(t.internalErrors).toEqual([]);
  });
});

describe.each([
  [['sms-login-code-no-throttle' as const], shortCodeBruteForce, 'One-time codes and PINs can be guessed (no throttling) | POST /auth/sms-login/verify', /12 wrong 4-digit codes in a row/],
  [
    ['password-change-over-get' as const],
    changeWithoutCurrentPassword,
    'Password changed over GET, in the query string, without the current password | GET /account/change-password',
    /could then log in with the new password.*query string of a GET/,
  ],
  // The login's own lockout (5 wrong passwords per account) would stop the list before "changeme": the check stops at it (the hardened run above).
  [['default-admin-password' as const, 'login-no-throttle' as const], weakCredentials, 'Account opens with a common password (weak or default credential) | POST /auth/login', /account admin \(a common default name\) with a common or default password/],
  [['cloud-key-in-answer' as const], excessiveDataExposure, 'Secret or API key exposed in a response | GET /exports/storage', /returns secrets or API keys in connection/],
])('%s', (flaws, check, row, proof) => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await targetWith(...flaws);
    s = await scanChecks(t, CHECKS, { only: ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it(`is found by ${check.id} only, once`, () => {
    expect(summary(s.findings)).toEqual([row]);
    expect(s.of(check)[0]!.description).toMatch(proof);
    expectWellFormed(s, s.findings);
    expectWithinBudget(s, CHECKS);
    expect(t.internalErrors).toEqual([]);
  });
});

describe('token-argument-unverified', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await targetWith('token-argument-unverified');
    s = await scanChecks(t, CHECKS, { only: ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it('is found by api2-jwt-argument, once per accepted variant, with the genuine token and the control as evidence', () => {
    expect(summary(s.findings)).toEqual([
      'Token argument "token" accepts a JWT with "alg": "none" (unsigned) | GET /account/summary',
      'Token argument "token" accepts a JWT with an altered signature | GET /account/summary',
      'Token argument "token" accepts a JWT without signature | GET /account/summary',
    ]);
    const f = s.of(jwtArgument)[0]!;
    expect(f.evidence).toContain('Control: a made-up JWT');
    expect(f.severity).toBe('high');
    expectWellFormed(s, s.findings);
    expectWithinBudget(s, CHECKS);
  });
});

describe('the earlier step of an anonymous code', () => {
  const body = (props: Record<string, unknown>) => ({ content_type: 'application/json', required: true, schema: { type: 'object', properties: props } });
  const verify = { ...endpoint('POST', '/api4/otp/verify', { request_body: body({ otp: { type: 'string' } }) }), id: 'v' };
  const login = { ...endpoint('POST', '/api4/login', { request_body: body({ mobileno: { type: 'string' } }) }), id: 'l' };
  const other = { ...endpoint('POST', '/api5/login', { request_body: body({ mobileno: { type: 'string' } }) }), id: 'o' };
  const password = { ...endpoint('POST', '/api4/signin', { request_body: body({ username: { type: 'string' }, password: { type: 'string' } }) }), id: 'p' };

  it('is the POST beside it that names a phone, an e-mail or a user and asks for no password', () => {
    expect(codeRequestStep(verify, [other, password, login, verify])?.path).toBe('/api4/login');
    expect(codeRequestStep(verify, [other, password, verify])).toBeNull();
  });

  it('leaves the code length open when the schema does not give one', () => {
    expect(shortCodeField(verify)).toEqual({ field: 'otp', digits: 6, known: false });
  });
});
