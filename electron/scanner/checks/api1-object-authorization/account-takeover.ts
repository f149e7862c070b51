// API1:2023 at account level: one user changing another user's password or e-mail. Attacker and
// victim are both users the scan registered itself (ctx.accounts), so these writes never touch an
// account the scan did not create; each is proven the way the victim would notice: logging in with
// the new password, reading its own profile.

import type { Endpoint } from '../../../../shared/contract';
import type { ChosenSecret } from '../../evidence';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { CONFIRM_FIELD, PASSWORD_FIELD, propsOf } from '../../identities/accounts';
import { randomAlnum, type SeededRandom } from '../../random';
import { type PreparedRequest } from '../../requests';
import { aimAtVictim, aimedAt, asIdentity, bodyObject, proofLines, setupOf, userParam } from '../common/accounts';
import { defineCheck, describeEndpoint } from '../common/helpers';
import type { CheckContext } from '../types';
import { OWASP_API1 } from '../common/references';

const CURRENT_PASSWORD = /^(current|old|existing|previous|present)[-_]?(pass(word)?|pwd)$/i;
const EMAIL_FIELD = /^(e-?mail|email_?address|mail|new_?email)$/i;
export const RECOVERY = /reset|forgot|recover|lost/i;
/**
 * The victim's current password is what an attacker does not have: the bodies leave it out, or
 * (the second try, where the schema asks for it) give a wrong one.
 */
export type Current = 'omit' | 'wrong';

function fieldNames(e: Endpoint, body: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys((propsOf(e.request_body?.schema) ?? {})), ...Object.keys(body)])];
}

function setCurrent(random: SeededRandom, body: Record<string, unknown>, name: string, current: Current): void {
  if (current === 'omit') delete body[name];
  else body[name] = `Wrong-${random.alnum(10)}-1`;
}

/** A password-change body: every new-password field set. */
export function passwordBody(random: SeededRandom, e: Endpoint, next: string, current: Current): Record<string, unknown> {
  const body = bodyObject(e);
  let set = false;
  for (const n of fieldNames(e, body)) {
    if (CURRENT_PASSWORD.test(n)) setCurrent(random, body, n, current);
    else if (PASSWORD_FIELD.test(n) || CONFIRM_FIELD.test(n) || /^new[-_]?pass/i.test(n)) {
      body[n] = next;
      set = true;
    }
  }
  if (!set) body.password = next;
  return body;
}

export function emailBody(random: SeededRandom, e: Endpoint, next: string, current: Current): Record<string, unknown> {
  const body = bodyObject(e);
  let set = false;
  for (const n of fieldNames(e, body)) {
    if (EMAIL_FIELD.test(n)) {
      body[n] = next;
      set = true;
    } else if (CURRENT_PASSWORD.test(n) || PASSWORD_FIELD.test(n)) setCurrent(random, body, n, current);
  }
  if (!set) body.email = next;
  return body;
}

/** Does the operation's body ask for the current password? */
export function asksCurrentPassword(e: Endpoint): boolean {
  return Object.keys((propsOf(e.request_body?.schema) ?? {})).some((n) => CURRENT_PASSWORD.test(n) || (/e-?mail/i.test(e.path) && PASSWORD_FIELD.test(n)));
}

/** Sends the change without the current password, then (where the body asks for one) with a wrong one: the first answer below 400, else the last. */
export async function change(ctx: CheckContext, ep: Endpoint, build: (current: Current) => PreparedRequest, as: RequestAuth): Promise<Exchange> {
  let ex = await ctx.sendPrepared(build('omit'), as);
  if (ex.response && ex.status >= 400 && ex.status !== 401 && asksCurrentPassword(ep) && ctx.budgetLeft() > 0) ex = await ctx.sendPrepared(build('wrong'), as);
  return ex;
}

// ---------------------------------------------------------------- another user's password

export const accountPasswordOther = defineCheck({
  id: 'api1-account-password-other',
  title: "Another user's password can be changed",
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
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
    // Crypto-random: the victim account's new password on the target (never derived from the seed the report shows).
    const next = `Pc-${randomAlnum(12)}-8y`;
    const attack = await change(ctx, ep, (current) => aimedAt(ctx, ep, param, value, passwordBody(ctx.random, ep, next, current)), asIdentity(attacker.session));
    if (!attack.response || attack.status >= 400) return;
    const proof = await ctx.accounts!.tryLogin(victim.account, next);
    if (!proof.ok) return;
    const madeUp = `Pc-${ctx.random.alnum(12)}-9z`;
    const control = await ctx.accounts!.tryLogin(victim.account, madeUp);
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
      setup: [setupOf(attacker, 'attacker'), setupOf(victim, 'victim')],
      chosen: changedPasswords(next, madeUp),
    };
  },
});

/** The new password a change sets and the made-up one of the control: the reader chooses both. */
export function changedPasswords(next: string, madeUp: string): ChosenSecret[] {
  return [
    { name: 'NEW_PASSWORD', value: next, what: 'the password the change sets' },
    { name: 'WRONG_PASSWORD', value: madeUp, what: 'a made-up password (the control)' },
  ];
}

// ---------------------------------------------------------------- another user's e-mail

export const accountEmailOther = defineCheck({
  id: 'api1-account-email-other',
  title: "Another user's e-mail address can be changed",
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
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
    // Crypto-random: the address stays on the target and must not collide with an earlier scan's.
    const next = `pcs.${randomAlnum(8).toLowerCase()}.taken@example.com`;
    const attack = await change(ctx, ep, (current) => aimedAt(ctx, ep, param, value, emailBody(ctx.random, ep, next, current)), asIdentity(attacker.session));
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
      setup: [setupOf(attacker, 'attacker'), setupOf(victim, 'victim')],
    };
  },
});

// ---------------------------------------------------------------- another user's account deleted
// ---------------------------------------------------------------- privilege fields at registration
