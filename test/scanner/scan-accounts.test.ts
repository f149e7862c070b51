// The scan's own accounts (issue 30, item 5), counted at permissive targets. With sign-up off a whole
// scan registers nobody, through REST or GraphQL, whichever check would have; with sign-up on every
// user it registers (its own test users and those a check's request happened to make) has its own
// random password, is listed with it for the SecretStore, and no password shows in a finding.

import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../electron/scanner/checks/index';
import { FORMAT_VALUES } from '../../electron/scanner/schema-values';
import { PASSWORD_PLACEHOLDER } from '../../electron/scanner/passwords';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { scanChecks } from '../helpers/check-scan';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { startTarget, type Target } from '../targets';
import { startGraphqlTarget, type GraphqlTarget } from '../targets/graphql/index';

/** The password the issue found shared by 37 accounts, and the spec's example password of the test target. */
const FIXED_PASSWORDS = ['Portcullis-Passw0rd!', 'correct-horse-battery-staple'];
const SIGNUP = '/api/v2/auth/signup';
/** The rewards club's sign-up: members of its own (routes/rewards.ts). */
const CLUB_SIGNUP = '/api/v2/rewards/members';

const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function rest(): Promise<Target> {
  const t = await startTarget({ mode: 'vulnerable' });
  open.push(t);
  return t;
}

async function graphql(): Promise<GraphqlTarget> {
  const t = await startGraphqlTarget({ mode: 'vulnerable' });
  open.push(t);
  return t;
}

/** Everything a finding shows a reader: what exports and reports are made of. */
function findingText(findings: BuiltFinding[]): string {
  return JSON.stringify(findings);
}

describe('sign-up off', () => {
  it('a whole scan of a permissive REST target registers nobody', async () => {
    const t = await rest();
    const s = await scanChecks(t, CHECKS, { identities: [{ name: 'alice', token: t.users.alice.key }, { name: 'bob', token: t.users.bob.key }], signup: 'off' });
    expect(s.outcome.status).toBe('completed');
    expect(t.requests.count({ method: 'POST', path: SIGNUP }), 'requests to the sign-up operation').toBe(0);
    expect(t.requests.count({ method: 'POST', path: CLUB_SIGNUP }), 'requests to the other sign-up operation').toBe(0);
    expect(s.outcome.createdUsers).toEqual([]);
    expect(s.outcome.createdUserSecrets).toEqual([]);
    expect(s.outcome.errors).toContain('Sign-up is off, so the scan registers nobody: no request was sent to POST /auth/signup, POST /rewards/members, which register users.');
    // The checks that need a user of their own say why they did not run.
    const signupCheck = s.outcome.skipped.find((x) => x.check_id === 'api3-signup-privilege-fields');
    expect(signupCheck?.reason).toMatch(/^The scan may not register users here \(sign-up is off\): no request goes to POST \/auth\/signup/);
    for (const id of ['api1-account-password-other', 'api1-account-email-other', 'api5-account-delete-other']) {
      expect(s.outcome.skipped.find((x) => x.check_id === id)?.reason, id).toMatch(/may not register users here/);
    }
  }, 240_000);

  it('a whole scan of a permissive GraphQL target registers no member', async () => {
    const t = await graphql();
    const s = await scanGraphqlChecks(t, CHECKS, { identities: [{ name: 'alice', token: t.users.alice.key }, { name: 'bob', token: t.users.bob.key }], signup: 'off' });
    expect(s.outcome.status).toBe('completed');
    const registrations = t.requests.filter((r) => /\bregister\s*\(/.test(r.body ?? ''));
    expect(registrations.map((r) => r.body)).toEqual([]);
    expect(s.outcome.createdUsers).toEqual([]);
    expect(s.outcome.errors.join('\n')).toContain('no request was sent to Mutation.register');
  }, 240_000);
});

describe('sign-up on', () => {
  it('gives every user the scan registers its own password, keeps each for the SecretStore, and shows none in a finding', async () => {
    const t = await rest();
    const s = await scanChecks(t, CHECKS, { identities: [{ name: 'alice', token: t.users.alice.key }], signup: 'auto' });
    expect(s.outcome.status).toBe('completed');
    const registered = t.requests.filter((r) => r.method === 'POST' && (r.path === SIGNUP || r.path === CLUB_SIGNUP) && r.status === 201).map((r) => JSON.parse(r.body!) as { username: string; password: string });
    // The scan's test users and the users the checks' own sign-up requests made (injection, the flow burst...).
    expect(registered.length).toBeGreaterThan(12);
    const passwords = registered.map((r) => r.password);
    expect(new Set(passwords).size, 'one password per account').toBe(passwords.length);
    for (const p of passwords) {
      expect(FIXED_PASSWORDS.some((f) => p.includes(f)), p).toBe(false);
      expect(p).not.toContain(PASSWORD_PLACEHOLDER);
    }
    // Every one of them is the scan's: listed, with its password for the SecretStore only.
    expect(s.outcome.createdUserSecrets.map((u) => u.password).sort()).toEqual([...passwords].sort());
    expect(s.outcome.createdUsers.map((u) => u.username).sort()).toEqual(registered.map((r) => r.username).sort());
    for (const u of s.outcome.createdUsers) expect(Object.keys(u).sort()).toEqual(['email', 'operation', 'purpose', 'username']);
    // Findings are what every export is made of: no password of these accounts, no fixed password.
    expect(s.findings.some((f) => f.method === 'POST' && f.path === '/auth/signup'), 'findings about the sign-up itself').toBe(true);
    const text = findingText(s.findings);
    for (const p of [...passwords, ...FIXED_PASSWORDS, PASSWORD_PLACEHOLDER]) expect(text.includes(p), p).toBe(false);
    expect(text).toContain('[a generated password]');
  }, 240_000);

  it('prepares no request with a fixed password: the synthesised value is a placeholder', () => {
    expect(FORMAT_VALUES.password).toBe(PASSWORD_PLACEHOLDER);
  });
});
