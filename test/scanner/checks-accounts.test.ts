// The account-level checks against the test target: each finds its flaw with only that flaw on,
// proves it the way the victim would notice, touches only users the scan registered itself, stays
// silent on the hardened twin, and is skipped with a reason where the scan may not create users.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEmailOther, accountPasswordOther } from '../../electron/scanner/checks/api1-object-authorization/account-takeover';
import { signupMassAssignment } from '../../electron/scanner/checks/api3-property-authorization/signup-privileges';
import { accountDeleteOther } from '../../electron/scanner/checks/api5-function-authorization/account-deletion';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { Target } from '../targets';
import { expectWellFormed, expectWithinBudget, hardened, summary, targetWith } from './check-harness';
import { ACCOUNT_CHECKS } from './check-groups';

const ACCOUNT_ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login', 'PUT /users/{userId}/password', 'PUT /users/{userId}/email', 'DELETE /users/{userId}', 'PUT /me/password'];

/** The seeded users' rows must come out of a scan untouched: the checks only act on users the scan registered. */
async function seededUsersIntact(t: Target): Promise<void> {
  for (const u of [t.users.alice, t.users.bob, t.users.admin, t.users.carol]) {
    const res = await fetch(`${t.baseUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u.username, password: u.password }) });
    expect(res.status, `${u.username} can still log in with the seeded password`).toBe(200);
  }
}

describe('account checks on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, ACCOUNT_CHECKS, { only: ACCOUNT_ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it('run, stay silent and within their budgets', () => {
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.skipped).toEqual([]);
    expect(s.outcome.checksRun.map((c) => c.check_id).sort()).toEqual(ACCOUNT_CHECKS.map((c) => c.id).sort());
    expect(s.findings).toEqual([]);
    expectWithinBudget(s, ACCOUNT_CHECKS);
    expect(t.internalErrors).toEqual([]);
  });

  it('list the users they registered, without their passwords', () => {
    expect(s.outcome.createdUsers.length).toBeGreaterThanOrEqual(3);
    for (const u of s.outcome.createdUsers) {
      expect(u.operation).toBe('POST /auth/signup');
      expect(Object.keys(u).sort()).toEqual(['email', 'operation', 'purpose', 'username']);
    }
    expect(s.outcome.identities.filter((i) => i.created).length).toBe(s.outcome.createdUsers.length);
  });

  it('leave the seeded users alone', () => seededUsersIntact(t));
});

describe.each([
  ['password-change-other' as const, accountPasswordOther, 'PUT /users/{userId}/password', /could then log in with that password/],
  ['email-change-other' as const, accountEmailOther, 'PUT /users/{userId}/email', /own profile now shows it/],
  ['account-delete-other' as const, accountDeleteOther, 'DELETE /users/{userId}', /can no longer log in/],
  ['signup-mass-assignment' as const, signupMassAssignment, 'POST /auth/signup', /Anyone can register as an administrator/],
])('%s', (flaw, check, route, proof) => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await targetWith(flaw);
    s = await scanChecks(t, ACCOUNT_CHECKS, { only: ACCOUNT_ROUTES, signup: 'auto' });
  });
  afterAll(() => t.close());

  it(`is found by ${check.id} only, with a proof the victim would see`, () => {
    expect(summary(s.findings)).toEqual([`${check.title} | ${route}`]);
    const f = s.of(check)[0]!;
    expect(f.confidence).toBe('high');
    expect(f.description).toMatch(proof);
    expect(f.evidence).toMatch(/== (Attack|Proof|Control|Baseline)/);
    expectWellFormed(s, s.findings);
    expectWithinBudget(s, ACCOUNT_CHECKS);
  });

  it('acts only on users the scan registered', () => seededUsersIntact(t));
});

describe('where the scan may not create users', () => {
  it('skips the account checks and says why', async () => {
    const t = await targetWith('password-change-other');
    try {
      const s = await scanChecks(t, ACCOUNT_CHECKS, { only: ACCOUNT_ROUTES, signup: 'off' });
      expect(s.findings).toEqual([]);
      expect(s.outcome.skipped.map((x) => x.check_id).sort()).toEqual(ACCOUNT_CHECKS.map((c) => c.id).sort());
      for (const x of s.outcome.skipped) expect(x.reason).toMatch(/may not register users here/);
      expect(s.outcome.createdUsers).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
