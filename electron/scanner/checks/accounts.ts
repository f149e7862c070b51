// Account-level checks: what one user can do to another user's account — change its password or
// e-mail, delete it — and privilege fields accepted at registration. Attacker and victim are both
// users the scan registered itself (ctx.accounts), so these writes never touch an account the scan
// did not create; each is proven the way the victim would notice: logging in with the new password,
// reading its own profile, failing to log in at all.

import type { Endpoint } from '../../../shared/contract';
import type { Exchange, RequestAuth } from '../http/exchange';
import { CONFIRM_FIELD, findSignupOperation, PASSWORD_FIELD, propsOf, type CreateResult } from '../identities/accounts';
import type { CreatedAccount, IdentitySession } from '../identities/session';
import { randomAlnum } from '../random';
import { mutate, prepareRequest, type PreparedRequest } from '../requests';
import { synthesize } from '../schema-values';
import { defineCheck, describeEndpoint } from './helpers';
import type { CheckContext } from './types';

const OWASP_API1 = 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/';
const OWASP_API3 = 'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/';
const OWASP_API5 = 'https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/';

const USERS_SEGMENT = /^(users?|accounts?|members?|customers?|profiles?|people|persons?|employees?|players?|clients?|subscribers?)$/i;
const USER_PARAM = /^(user|account|member|customer|profile|person|employee|player|client|subscriber)[-_]?(id|name|key|uuid)?$|^(username|login|handle|email|uid)$/i;
const CURRENT_PASSWORD = /^(current|old|existing|previous|present)[-_]?(pass(word)?|pwd)$/i;
const EMAIL_FIELD = /^(e-?mail|email_?address|mail|new_?email)$/i;
const RECOVERY = /reset|forgot|recover|lost/i;

const VERSION_SEGMENT = /^(v\d+(\.\d+)*|api|rest|latest)$/i;

/** The static segment before position i, skipping version segments (/users/v1/{id} -> "users"). */
function collectionBefore(segs: string[], i: number): string | null {
  for (let j = i - 1; j >= 0; j -= 1) {
    if (segs[j]!.startsWith('{')) return null;
    if (!VERSION_SEGMENT.test(segs[j]!)) return segs[j]!;
  }
  return null;
}

/** The path parameter that names a user: one right after a users-like segment, or named like a user. */
export function userParam(e: Pick<Endpoint, 'path'>): string | null {
  const segs = e.path.split('/').filter(Boolean);
  for (let i = segs.length - 1; i >= 0; i -= 1) {
    const m = /^\{(.+)\}$/.exec(segs[i]!);
    if (!m) continue;
    const prev = collectionBefore(segs, i);
    if ((prev && USERS_SEGMENT.test(prev)) || USER_PARAM.test(m[1]!)) return m[1]!;
  }
  return null;
}

/** DELETE /users/{id}: the path ends with a user parameter right after a users-like collection. */
function isUserDelete(e: Pick<Endpoint, 'path'>): boolean {
  const segs = e.path.split('/').filter(Boolean);
  const last = segs.length - 1;
  const m = /^\{(.+)\}$/.exec(segs[last] ?? '');
  const prev = collectionBefore(segs, last);
  return !!m && !!prev && USERS_SEGMENT.test(prev);
}

/** The value a user parameter takes for an account: its name, e-mail or id, by the parameter's name. */
function accountValue(param: string, account: CreatedAccount, values: Record<string, string>): string | null {
  if (/mail/i.test(param)) return account.email ?? values.email ?? null;
  if (/name|login|handle|nick/i.test(param)) return account.username ?? values.username ?? values.login ?? account.email ?? null;
  return account.id ?? values.id ?? values.user_id ?? values.userId ?? values.uid ?? null;
}

function bodyObject(e: Endpoint): Record<string, unknown> {
  const v = synthesize(e.request_body?.schema ?? null, { forRequest: true });
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * The victim's current password is what an attacker does not have: the bodies leave it out, or
 * (the second try, where the schema asks for it) give a wrong one.
 */
type Current = 'omit' | 'wrong';

function fieldNames(e: Endpoint, body: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys((propsOf(e.request_body?.schema) ?? {})), ...Object.keys(body)])];
}

function setCurrent(body: Record<string, unknown>, name: string, current: Current): void {
  if (current === 'omit') delete body[name];
  else body[name] = `Wrong-${randomAlnum(10)}-1`;
}

/** A password-change body: every new-password field set. */
function passwordBody(e: Endpoint, next: string, current: Current): Record<string, unknown> {
  const body = bodyObject(e);
  let set = false;
  for (const n of fieldNames(e, body)) {
    if (CURRENT_PASSWORD.test(n)) setCurrent(body, n, current);
    else if (PASSWORD_FIELD.test(n) || CONFIRM_FIELD.test(n) || /^new[-_]?pass/i.test(n)) {
      body[n] = next;
      set = true;
    }
  }
  if (!set) body.password = next;
  return body;
}

function emailBody(e: Endpoint, next: string, current: Current): Record<string, unknown> {
  const body = bodyObject(e);
  let set = false;
  for (const n of fieldNames(e, body)) {
    if (EMAIL_FIELD.test(n)) {
      body[n] = next;
      set = true;
    } else if (CURRENT_PASSWORD.test(n) || PASSWORD_FIELD.test(n)) setCurrent(body, n, current);
  }
  if (!set) body.email = next;
  return body;
}

/** Does the operation's body ask for the current password? */
function asksCurrentPassword(e: Endpoint): boolean {
  return Object.keys((propsOf(e.request_body?.schema) ?? {})).some((n) => CURRENT_PASSWORD.test(n) || (/e-?mail/i.test(e.path) && PASSWORD_FIELD.test(n)));
}

/** Sends the change without the current password, then (where the body asks for one) with a wrong one: the first answer below 400, else the last. */
async function change(ctx: CheckContext, ep: Endpoint, build: (current: Current) => PreparedRequest, as: RequestAuth): Promise<Exchange> {
  let ex = await ctx.sendPrepared(build('omit'), as);
  if (ex.response && ex.status >= 400 && ex.status !== 401 && asksCurrentPassword(ep) && ctx.budgetLeft() > 0) ex = await ctx.sendPrepared(build('wrong'), as);
  return ex;
}

const asIdentity = (s: IdentitySession): RequestAuth => ({ kind: 'identity', name: s.name });

interface Pair {
  attacker: Extract<CreateResult, { session: unknown }>;
  victim: Extract<CreateResult, { session: unknown }>;
}

/** Two fresh users of the scan's own: one acts on the other. Null (with a note) when they cannot be had. */
async function pair(ctx: CheckContext, what: string): Promise<Pair | null> {
  if (!ctx.accounts) {
    ctx.skip('The scan may not register users here (sign-up is off, or the API has no sign-up operation): this check only ever acts on accounts the scan created.');
    return null;
  }
  const attacker = await ctx.accounts.attacker();
  if ('error' in attacker) {
    ctx.note(`${describeEndpoint(ctx.endpoint)}: ${what} not tested, ${attacker.error}.`);
    return null;
  }
  const victim = await ctx.accounts.create(`victim of the ${what} check`);
  if ('error' in victim) {
    ctx.note(`${describeEndpoint(ctx.endpoint)}: ${what} not tested, ${victim.error}.`);
    return null;
  }
  return { attacker, victim };
}

/**
 * The attacker and a fresh victim, with the value of the endpoint's user parameter that names the
 * victim (its name, e-mail or id); null, with a note, when they cannot be had.
 */
async function aimAtVictim(ctx: CheckContext, what: string): Promise<(Pair & { param: string; value: string }) | null> {
  const param = userParam(ctx.endpoint)!;
  const users = await pair(ctx, what);
  if (!users) return null;
  const value = accountValue(param, users.victim.account, users.victim.session.values);
  if (!value) {
    ctx.note(`${describeEndpoint(ctx.endpoint)}: the victim's ${param} is unknown (neither the registration answer nor a /me-like endpoint gave it); ${what} not tested.`);
    return null;
  }
  return { ...users, param, value };
}

/** The endpoint's request aimed at the victim's account, with a body. */
function aimedAt(ctx: CheckContext, ep: Endpoint, param: string, value: string, body: Record<string, unknown> | null): PreparedRequest {
  const req = prepareRequest(ep, { base: (p) => ctx.url(p), placements: ctx.authSpec(ep).placements, pathValues: { [param]: { value, source: 'created' } } });
  return body ? mutate(req, { bodyValue: body }) : req;
}

function proofLines(exchanges: Exchange[], label: string): { label: string; exchange: Exchange }[] {
  return exchanges.map((exchange, i) => ({ label: exchanges.length > 1 ? `${label} (step ${i + 1})` : label, exchange }));
}

// ---------------------------------------------------------------- another user's password

export const accountPasswordOther = defineCheck({
  id: 'api1-account-password-other',
  title: "Another user's password can be changed",
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2,
  techniques: ['ACCOUNT.password-other'],
  description:
    'For an operation that changes a password on a user\'s path (PUT /users/{id}/password and the like), the scan registers two users of its ' +
    'own; the first sends the change for the second with a new password and without the victim\'s current password (then with a wrong ' +
    'one, where the body asks for it). ' +
    'Finding: the change is accepted and the victim can then log in with the new password, while a made-up password is still refused.',
  coverage:
    'Needs a sign-up operation and a way for created users to log in (a login recipe that takes a user name and password, or the spec\'s ' +
    'login operation). Only accounts the scan registered are touched.',
  remediation:
    'Take the account from the authenticated session, never from the path or body; require the current password (or a fresh ' +
    're-authentication) for a password change, and notify the user when it changes.',
  references: [OWASP_API1, 'https://cwe.mitre.org/data/definitions/639.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#change-password-feature'],
  appliesTo: (e) => ['PUT', 'PATCH', 'POST'].includes(e.method) && e.flags.includes('BOLA') && /pass(word)?|passwd|pwd/i.test(e.path) && !RECOVERY.test(e.path) && userParam(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const setup = await aimAtVictim(ctx, 'password change');
    if (!setup) return;
    const { attacker, victim, param, value } = setup;
    const next = `Pc-${randomAlnum(12)}-8y`;
    const attack = await change(ctx, ep, (current) => aimedAt(ctx, ep, param, value, passwordBody(ep, next, current)), asIdentity(attacker.session));
    if (!attack.response || attack.status >= 400) return;
    const proof = await ctx.accounts!.tryLogin(victim.account, next);
    if (!proof.ok) return;
    const control = await ctx.accounts!.tryLogin(victim.account, `Pc-${randomAlnum(12)}-9z`);
    if (control.ok) return;
    yield {
      parameter: param,
      description:
        `${describeEndpoint(ep)} let one ordinary user set another user's password: ${attacker.session.name} sent a new password for ` +
        `${victim.session.name} (${param}=${value}) and got ${attack.status}; ${victim.session.name} could then log in with that password, while a ` +
        'made-up password is still refused. Anyone signed in can take over any account whose identifier they know or can guess.',
      notes: [
        `Both users were registered by the scan (${victim.account.operation}): ${attacker.session.name} is the attacker, ${victim.session.name} the victim.`,
        'Proof: the victim logs in with the password the attacker chose.',
      ],
      exchanges: [
        { label: `Attack: ${attacker.session.name} changes ${victim.session.name}'s password`, exchange: attack },
        ...proofLines(proof.exchanges, `Proof: ${victim.session.name} logs in with the new password`),
        ...proofLines(control.exchanges, 'Control: a made-up password is refused'),
      ],
      reproduce: attack,
    };
  },
});

// ---------------------------------------------------------------- another user's e-mail

export const accountEmailOther = defineCheck({
  id: 'api1-account-email-other',
  title: "Another user's e-mail address can be changed",
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2,
  techniques: ['ACCOUNT.email-other'],
  description:
    'For an operation that changes an e-mail address on a user\'s path (PUT /users/{id}/email and the like), the scan registers two users ' +
    'of its own; the first sends a new address for the second. Finding: accepted, and the victim\'s own profile (read with the victim\'s ' +
    'credential) now shows the attacker\'s address.',
  coverage:
    'Needs a sign-up operation, a way for created users to log in, and a /me-like endpoint showing the e-mail address. Only accounts the ' +
    'scan registered are touched.',
  remediation:
    'Take the account from the authenticated session, never from the path or body; confirm an e-mail change by a link sent to the old and the ' +
    'new address, and require the current password. An attacker who controls the address controls password resets.',
  references: [OWASP_API1, 'https://cwe.mitre.org/data/definitions/639.html'],
  appliesTo: (e) => ['PUT', 'PATCH', 'POST'].includes(e.method) && e.flags.includes('BOLA') && /e-?mail/i.test(e.path) && userParam(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const setup = await aimAtVictim(ctx, 'e-mail change');
    if (!setup) return;
    const { attacker, victim, param, value } = setup;
    const before = await ctx.accounts!.profile(victim.session);
    if (!before?.ok) {
      ctx.note(`${describeEndpoint(ep)}: no /me-like endpoint shows a created user its own e-mail address; not tested.`);
      return;
    }
    const next = `pcs.${randomAlnum(8).toLowerCase()}.taken@example.com`;
    const attack = await change(ctx, ep, (current) => aimedAt(ctx, ep, param, value, emailBody(ep, next, current)), asIdentity(attacker.session));
    if (!attack.response || attack.status >= 400) return;
    const after = await ctx.accounts!.profile(victim.session);
    if (!after?.ok || !after.body.includes(next) || before.body.includes(next)) return;
    yield {
      parameter: param,
      description:
        `${describeEndpoint(ep)} let one ordinary user change another user's e-mail address: ${attacker.session.name} sent ${next} for ` +
        `${victim.session.name} (${param}=${value}) and got ${attack.status}; ${victim.session.name}'s own profile now shows it. Whoever controls ` +
        'the address receives the password resets: this is an account takeover.',
      notes: [`Both users were registered by the scan: ${attacker.session.name} is the attacker, ${victim.session.name} the victim.`],
      exchanges: [
        { label: `Baseline: ${victim.session.name}'s profile`, exchange: before },
        { label: `Attack: ${attacker.session.name} changes ${victim.session.name}'s e-mail`, exchange: attack },
        { label: `Proof: ${victim.session.name}'s profile after`, exchange: after },
      ],
      reproduce: attack,
    };
  },
});

// ---------------------------------------------------------------- another user's account deleted

export const accountDeleteOther = defineCheck({
  id: 'api5-account-delete-other',
  title: "An ordinary user can delete another user's account",
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  techniques: ['ACCOUNT.delete-other'],
  description:
    'For a DELETE on a user\'s path (DELETE /users/{id}), the scan registers two users of its own; the first deletes the second. Finding: ' +
    'the delete is accepted and the victim can no longer log in (it could just before).',
  coverage: 'Needs a sign-up operation and a way for created users to log in. Only accounts the scan registered are deleted.',
  remediation:
    'Deleting accounts is an administrative function (or the user\'s own, from the session): check the caller\'s role and the ownership of ' +
    'the account in one authorization layer before deleting anything.',
  references: [OWASP_API5, 'https://cwe.mitre.org/data/definitions/285.html'],
  appliesTo: (e) => e.method === 'DELETE' && e.flags.includes('BFLA') && isUserDelete(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const setup = await aimAtVictim(ctx, 'account deletion');
    if (!setup) return;
    const { attacker, victim, param, value } = setup;
    const attack = await ctx.sendPrepared(aimedAt(ctx, ep, param, value, null), asIdentity(attacker.session));
    if (!attack.response || attack.status >= 400) return;
    const proof = await ctx.accounts!.tryLogin(victim.account, victim.account.password);
    if (proof.ok) return;
    yield {
      parameter: param,
      description:
        `${describeEndpoint(ep)} let one ordinary user delete another user's account: ${attacker.session.name} deleted ${victim.session.name} ` +
        `(${param}=${value}) and got ${attack.status}; ${victim.session.name} can no longer log in with the password that worked when it registered.`,
      notes: [`Both users were registered by the scan: ${attacker.session.name} is the attacker, ${victim.session.name} the victim.`],
      exchanges: [
        { label: `Attack: ${attacker.session.name} deletes ${victim.session.name}`, exchange: attack },
        ...proofLines(proof.exchanges, `Proof: ${victim.session.name}'s login now fails`),
      ],
      reproduce: attack,
    };
  },
});

// ---------------------------------------------------------------- privilege fields at registration

/** Privilege fields an attacker adds to a registration, with the value that grants the privilege. */
const PRIVILEGE_FIELDS: Record<string, unknown> = {
  admin: true,
  is_admin: true,
  isAdmin: true,
  role: 'admin',
  roles: ['admin'],
  is_staff: true,
  isStaff: true,
  is_superuser: true,
  superuser: true,
  user_type: 'admin',
  account_type: 'admin',
  is_verified: true,
  verified: true,
};

const PRIVILEGE_NAME = /^(is_?)?(admin|staff|super_?user|verified|moderator)$|^(role|roles|user_?type|account_?type|permissions?|groups?|level|tier)$/i;

/** Where the profile shows a field with a privileged value, by name at any depth (up to 3). */
function privilegedIn(body: unknown, field: string): unknown {
  const visit = (v: unknown, depth: number): unknown => {
    if (!v || typeof v !== 'object' || depth > 3) return undefined;
    if (Array.isArray(v)) return undefined;
    for (const [k, x] of Object.entries(v)) if (k.toLowerCase() === field.toLowerCase()) return x;
    for (const x of Object.values(v)) {
      const found = visit(x, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(body, 0);
}

function grants(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === 'string') return /admin|super|staff|moderator/i.test(value) || value === 'true' || value === '1';
  if (typeof value === 'number') return value === 1;
  if (Array.isArray(value)) return value.some(grants);
  return false;
}

export const signupMassAssignment = defineCheck({
  id: 'api3-signup-privilege-fields',
  title: 'Registration accepts privilege fields',
  flag: 'BOPLA',
  owasp: 'API3:2023',
  cwe: 'CWE-915',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  techniques: ['ACCOUNT.signup-mass-assignment'],
  description:
    'On the sign-up operation, the scan registers one user normally and one with privilege fields the client should never set (admin, ' +
    'is_admin, role: admin, is_staff, verified...); when the API refuses the extra fields together, it tries the ones the normal user\'s ' +
    'profile shows. Both users log in and read their own profile. Finding: the second user\'s profile shows a privilege the first one does ' +
    'not have.',
  coverage:
    'Needs a way for created users to log in and a /me-like endpoint showing the privilege; a privilege that no response shows is missed. ' +
    'The requests are the scan\'s registrations (charged to the scan, not to this check).',
  remediation:
    'Bind registration input to a schema that lists only the fields a new user may set (an allow-list DTO), reject or ignore the rest, and ' +
    'assign roles and verification state on the server.',
  references: [OWASP_API3, 'https://cwe.mitre.org/data/definitions/915.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Mass_Assignment_Cheat_Sheet.html'],
  appliesTo: (e) => e.method === 'POST' && e.flags.includes('BOPLA') && findSignupOperation([e], 'auto') !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const accounts = ctx.accounts;
    if (!accounts) {
      ctx.skip('The scan may not register users here (sign-up is off, or the API has no sign-up operation).');
      return;
    }
    if (accounts.signupEndpoint.id !== ep.id) return;
    const normal = await accounts.create('control user of the registration check');
    if ('error' in normal) {
      ctx.note(`${describeEndpoint(ep)}: registration privilege fields not tested, ${normal.error}.`);
      return;
    }
    const control = await accounts.profile(normal.session);
    if (!control?.ok) {
      ctx.note(`${describeEndpoint(ep)}: no /me-like endpoint shows a created user its own profile; registration privilege fields not tested.`);
      return;
    }
    const controlBody = control.json();
    // Fields whose normal value already grants nothing; a profile that shows one is where a change is seen.
    const shown = Object.keys(PRIVILEGE_FIELDS).filter((f) => privilegedIn(controlBody, f) !== undefined && !grants(privilegedIn(controlBody, f)));
    const fromProfile = collectPrivilegeNames(controlBody).filter((f) => !(f in PRIVILEGE_FIELDS));
    const attempts: Record<string, unknown>[] = [{ ...PRIVILEGE_FIELDS, ...Object.fromEntries(fromProfile.map((f) => [f, true])) }];
    const focused = Object.fromEntries([...shown, ...fromProfile].map((f) => [f, PRIVILEGE_FIELDS[f] ?? true]));
    if (Object.keys(focused).length) attempts.push(focused);
    for (const extra of attempts) {
      const made = await accounts.create('user registered with privilege fields', extra);
      if ('error' in made) {
        // A strict schema refuses unknown fields altogether: try only the ones the profile shows.
        continue;
      }
      const profile = await accounts.profile(made.session);
      if (!profile?.ok) return;
      const body = profile.json();
      const stuck = Object.keys(extra).filter((f) => grants(privilegedIn(body, f)) && !grants(privilegedIn(controlBody, f)));
      if (!stuck.length) return;
      yield {
        parameter: stuck.join(', '),
        description:
          `${describeEndpoint(ep)} accepts privilege fields from the client: a user registered with ${stuck.map((f) => `"${f}": ${JSON.stringify(extra[f])}`).join(', ')} ` +
          `shows ${stuck.map((f) => `${f} = ${JSON.stringify(privilegedIn(body, f))}`).join(', ')} in its own profile, where a user registered normally shows ` +
          `${stuck.map((f) => `${f} = ${JSON.stringify(privilegedIn(controlBody, f) ?? null)}`).join(', ')}. Anyone can register as an administrator.`,
        notes: [`Both users were registered by the scan with ${ep.method} ${ep.path}; each read its own profile with its own credential.`],
        exchanges: [
          { label: 'Attack: registration with privilege fields', exchange: made.registration },
          { label: `Proof: ${made.session.name}'s own profile`, exchange: profile },
          { label: `Control: a normally registered user's profile`, exchange: control },
        ],
        reproduce: made.registration,
      };
      return;
    }
  },
});

/** Privilege-looking field names in a profile ("is_moderator", "account_type"), for the focused attempt. */
function collectPrivilegeNames(body: unknown): string[] {
  const out = new Set<string>();
  const visit = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) {
      if (PRIVILEGE_NAME.test(k) && !grants(x)) out.add(k);
      visit(x, depth + 1);
    }
  };
  visit(body, 0);
  return [...out];
}

export const ACCOUNT_CHECKS = [accountPasswordOther, accountEmailOther, accountDeleteOther, signupMassAssignment];
