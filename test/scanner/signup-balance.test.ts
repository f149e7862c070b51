// Mass assignment at a second sign-up with its own users (signup-balance): the rewards club keeps
// members of its own and has no login, only base64("username:password") in a header. The check
// registers on every sign-up, builds its users' credentials the way key 1's is built, reads them
// back through the self read of that sign-up, and compares the balance it sent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupMassAssignment } from '../../electron/scanner/checks/api3-property-authorization/signup-privileges';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import { call } from '../targets/testing';
import type { Target } from '../targets';
import { expectWellFormed, hardened, summary, targetWith } from './check-harness';

const ROUTES = ['POST /auth/signup', 'POST /rewards/members', 'GET /rewards/members/me'];
const MEMBER = { username: 'alice-club', password: 'Alice-club-pass-1' };

/** Alice joins the club the ordinary way; key 1 is her club credential, as the club's documentation says to send it. */
async function clubScan(t: Target): Promise<CheckScan> {
  const joined = await call(t, 'POST', '/api/v2/rewards/members', { body: MEMBER });
  expect(joined.status).toBe(201);
  const token = Buffer.from(`${MEMBER.username}:${MEMBER.password}`).toString('base64');
  return scanChecks(t, [signupMassAssignment], { only: ROUTES, signup: 'auto', identities: [{ name: 'alice', token, place: { header: 'X-Rewards-Auth' } }] });
}

describe('signup-balance', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await targetWith('signup-balance');
    s = await clubScan(t);
  });
  afterAll(() => t.close());

  it('is found on the second sign-up, by the balance its own self read shows', () => {
    expect(summary(s.findings)).toEqual([`${signupMassAssignment.title} | POST /rewards/members`]);
    const f = s.of(signupMassAssignment)[0]!;
    expect(f.parameter).toBe('points');
    expect(f.description).toMatch(/"points": 31337.*shows points = 31337 in its own profile, where a user registered normally shows points = 0/);
    expect(f.description).toMatch(/balance or credit of their choosing/);
    expectWellFormed(s, s.findings);
  });

  it('authenticates its users with their own name and password, encoded like key 1', () => {
    const created = s.outcome.identities.filter((i) => i.created && /rewards\/members/.test(i.obtained));
    expect(created.length).toBeGreaterThanOrEqual(2);
    for (const i of created) expect(i.verified_as).toMatch(/registered by the scan/);
    // Alice's own membership is untouched: her credential still reads her 0 points.
    return call(t, 'GET', '/api/v2/rewards/members/me', { headers: { 'x-rewards-auth': Buffer.from(`${MEMBER.username}:${MEMBER.password}`).toString('base64') } }).then((me) => {
      expect(me.status).toBe(200);
      expect(me.json.points).toBe(0);
    });
  });

  it('reports nothing on the shop sign-up, whose users the club does not know', () => {
    expect(s.findings.some((f) => f.path === '/auth/signup')).toBe(false);
  });
});

describe('signup-balance on the hardened twin', () => {
  it('stays silent, having registered there', async () => {
    const t = await hardened();
    try {
      const s = await clubScan(t);
      expect(s.findings).toEqual([]);
      expect(t.requests.count({ method: 'POST', path: '/api/v2/rewards/members' })).toBeGreaterThanOrEqual(3);
      expect(t.internalErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
