// API3:2023 Broken Object Property Level Authorization at registration: privilege fields (admin,
// role, verified) or balance fields (credit, balance, points) sent with a sign-up and granted. An API
// may have several sign-ups, each with its own users: every one is tried, and its users read
// themselves back through the self read that belongs to it.


import { findSignupOperation } from '../../identities/accounts';
import { setupOf } from '../common/accounts';
import { BALANCE_FIELDS, balanceIn, balanceNames, setsBalance } from '../common/balance-fields';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API3 } from '../common/references';


// ---------------------------------------------------------------- another user's account deleted
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
  title: 'Mass assignment at registration: privilege or balance fields accepted',
  flag: 'BOPLA',
  owasp: 'API3:2023',
  cwe: 'CWE-915',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  techniques: ['ACCOUNT.signup-mass-assignment'],
  description:
    'On every sign-up operation, the scan registers one user normally and one with fields the client should never set: privilege fields ' +
    '(admin, is_admin, role: admin, is_staff, verified...) and balance fields (credit, balance, wallet, points) with a distinctive amount; ' +
    'when the API refuses the extra fields together, it tries the ones the normal user\'s profile shows. Both users log in (or send the ' +
    'credential built from their own name and password, where key 1\'s is built that way) and read their own profile through the /me-like ' +
    'read that belongs to that sign-up (the one sharing the longest path with it). Finding: the second user\'s profile shows a privilege the ' +
    'first one does not have, or exactly the amount it was registered with.',
  coverage:
    'Needs a way for created users to authenticate and a /me-like endpoint showing the privilege or the balance; a field that no response ' +
    'shows is missed. The requests are the scan\'s registrations (charged to the scan, not to this check).',
  remediation:
    'Bind registration input to a schema that lists only the fields a new user may set (an allow-list DTO), reject or ignore the rest, and ' +
    'assign roles and verification state on the server.',
  references: [OWASP_API3, 'https://cwe.mitre.org/data/definitions/915.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Mass_Assignment_Cheat_Sheet.html'],
  appliesTo: (e) => e.method === 'POST' && e.flags.includes('BOPLA') && findSignupOperation([e], 'auto') !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!ctx.accounts) {
      ctx.skip('The scan may not register users here (sign-up is off, or the API has no sign-up operation).');
      return;
    }
    const accounts = ctx.accounts.forSignup(ep);
    if (!accounts) return;
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
    const balances = balanceNames(controlBody);
    const attempts: Record<string, unknown>[] = [{ ...PRIVILEGE_FIELDS, ...Object.fromEntries(fromProfile.map((f) => [f, true])), ...BALANCE_FIELDS, ...balances }];
    const focused = { ...Object.fromEntries([...shown, ...fromProfile].map((f) => [f, PRIVILEGE_FIELDS[f] ?? true])), ...balances };
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
      const privileges = Object.keys(extra).filter((f) => !setsBalance(f, extra[f], controlBody) && grants(privilegedIn(body, f)) && !grants(privilegedIn(controlBody, f)));
      const money = Object.keys(extra).filter((f) => setsBalance(f, extra[f], controlBody) && balanceIn(body, f) === extra[f]);
      const stuck = [...privileges, ...money];
      if (!stuck.length) return;
      const shownAs = (b: unknown, f: string) => `${f} = ${JSON.stringify((money.includes(f) ? balanceIn(b, f) : privilegedIn(b, f)) ?? null)}`;
      const impact = [privileges.length ? 'Anyone can register as an administrator.' : '', money.length ? 'Anyone can register with the balance or credit of their choosing.' : ''].filter(Boolean).join(' ');
      yield {
        parameter: stuck.join(', '),
        description:
          `${describeEndpoint(ep)} accepts ${privileges.length ? 'privilege' : ''}${privileges.length && money.length ? ' and ' : ''}${money.length ? 'balance' : ''} fields from the client (mass assignment): ` +
          `a user registered with ${stuck.map((f) => `"${f}": ${JSON.stringify(extra[f])}`).join(', ')} ` +
          `shows ${stuck.map((f) => shownAs(body, f)).join(', ')} in its own profile, where a user registered normally shows ` +
          `${stuck.map((f) => shownAs(controlBody, f)).join(', ')}. ${impact}`,
        notes: [`Both users were registered by the scan with ${ep.method} ${ep.path}; each read its own profile (${describeProfile(profile)}) with its own credential.`],
        exchanges: [
          { label: 'Attack: registration with privilege fields', exchange: made.registration },
          { label: `Proof: ${made.session.name}'s own profile`, exchange: profile },
          { label: `Control: a normally registered user's profile`, exchange: control },
        ],
        reproduce: made.registration,
        setup: [setupOf(normal, 'user'), setupOf(made, 'attacker')],
      };
      return;
    }
  },
});

function describeProfile(ex: { request: { method: string; url: string } }): string {
  return `${ex.request.method} ${new URL(ex.request.url).pathname}`;
}

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
