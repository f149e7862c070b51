// API2:2023: a password or e-mail change that does not ask for the current password. Only ever on a
// user the scan registered for it (ctx.accounts), changing its own account, and proven the way the
// user would notice: logging in with the new password, reading the new address back. Informational:
// exploiting it needs a session that was already stolen.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { failedInBody, type CreateResult } from '../../identities/accounts';
import { randomAlnum } from '../../random';
import { mutate, pathParamNames } from '../../requests';
import { asksCurrentPassword, change, changedPasswords, emailBody, passwordBody, RECOVERY } from '../api1-object-authorization/account-takeover';
import { accountValue, aimedAt, asIdentity, proofLines, setupOf, userParam } from '../common/accounts';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API2 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { authRoute } from './brute-force';

type Owner = Extract<CreateResult, { session: unknown }>;
type What = 'password' | 'email';

/** Query parameters that carry the new password (or its repetition), and the current one. */
const NEW_PASSWORD_PARAM = /^(new|repeat|confirm|password|passwd|pwd|new_?pass(word)?|(new_?)?password_?(confirm(ation)?|repeat(ed)?|again|2)|(repeat|confirm)_?(new_?)?password)$/i;
const CURRENT_PARAM = /^(current|old|existing|previous)([-_]?(pass(word)?|pwd))?$/i;

/** The query parameters of a change that takes its passwords in the URL (GET /account/change-password?new=..&repeat=..). */
export function queryPasswordParams(e: Endpoint): { next: string[]; current: string[] } {
  const query = e.parameters.filter((p) => p.in === 'query');
  const current = query.filter((p) => CURRENT_PARAM.test(p.name)).map((p) => p.name);
  const next = query.filter((p) => !current.includes(p.name) && (NEW_PASSWORD_PARAM.test(p.name) || p.schema?.format === 'password')).map((p) => p.name);
  return { next, current };
}

const inQuery = (e: Endpoint) => queryPasswordParams(e).next.length > 0 && /pass(word)?|passwd|pwd/i.test(e.path);

function changes(e: Endpoint): What | null {
  if (RECOVERY.test(e.path) || authRoute(e)) return null;
  // Path parameters other than the user's own are not filled in for the scan's user.
  const params = pathParamNames(e.path);
  if (params.length > 1 || (params.length === 1 && userParam(e) !== params[0])) return null;
  // A change whose passwords travel in the URL, whatever its method (a GET link too).
  if (['GET', 'PUT', 'PATCH', 'POST'].includes(e.method) && inQuery(e)) return 'password';
  if (!['PUT', 'PATCH', 'POST'].includes(e.method)) return null;
  if (/pass(word)?|passwd|pwd/i.test(e.path)) return 'password';
  if (/e-?mail/i.test(e.path)) return 'email';
  return null;
}

/** A fresh user of the scan's own, logged in, that changes its own account (never the attacker of the other account checks: its password must keep working). */
async function owner(ctx: CheckContext): Promise<Owner | null> {
  if (!ctx.accounts) {
    ctx.skip('The scan may not register users here (sign-up is off, or the API has no sign-up operation): this check only ever changes accounts the scan created.');
    return null;
  }
  const r = await ctx.accounts.create('owner of the re-authentication check');
  if ('error' in r) {
    ctx.note(`${describeEndpoint(ctx.endpoint)}: change without the current password not tested, ${r.error}.`);
    return null;
  }
  return r;
}

/** The path value that names the owner's own account ("" when the path names none). */
function ownValue(ctx: CheckContext, o: Owner): { param: string; value: string } | null {
  const param = userParam(ctx.endpoint);
  if (!param) return { param: '', value: '' };
  const value = accountValue(param, o.account, o.session.values);
  if (value) return { param, value };
  ctx.note(`${describeEndpoint(ctx.endpoint)}: the scan's user's ${param} is unknown; change without the current password not tested.`);
  return null;
}

const accepted = (ex: Exchange) => !!ex.response && ex.status < 400 && !failedInBody(ex);

function how(ep: Endpoint): string {
  if (inQuery(ep)) return queryPasswordParams(ep).current.length ? 'without the current password (left out, then a wrong one)' : 'without the current password (the operation does not ask for it)';
  return asksCurrentPassword(ep) ? 'without the current password (left out, then a wrong one where the body has the field)' : 'without the current password (the operation does not ask for it)';
}

async function passwordProof(ctx: CheckContext, o: Owner, at: { param: string; value: string }): Promise<FindingDraft | null> {
  const ep = ctx.endpoint;
  // Crypto-random: the account's new password on the target (never derived from the seed the report shows).
  const next = `Pc-${randomAlnum(12)}-8y`;
  const viaQuery = inQuery(ep);
  const attack = viaQuery
    ? await queryChange(ctx, o, at, next)
    : await change(ctx, ep, (current) => aimedAt(ctx, ep, at.param, at.value, passwordBody(ctx.random, ep, next, current)), asIdentity(o.session));
  if (!accepted(attack)) return null;
  const proof = await ctx.accounts!.tryLogin(o.account, next);
  if (!proof.ok) return null;
  const madeUp = `Pc-${ctx.random.alnum(12)}-9z`;
  const control = await ctx.accounts!.tryLogin(o.account, madeUp);
  if (control.ok) return null;
  const url = viaQuery
    ? ` The passwords travel in the query string${ep.method === 'GET' ? ' of a GET' : ''}: they end up in server, proxy and browser logs and in Referer headers${ep.method === 'GET' ? ', and a link or an image can trigger the change' : ''}.`
    : '';
  return {
    parameter: 'password',
    ...(viaQuery ? { name: `Password changed ${ep.method === 'GET' ? 'over GET, ' : ''}in the query string, without the current password`, cvss: URL_CHANGE_CVSS } : {}),
    description:
      `${describeEndpoint(ep)} changed the password of ${o.session.name} ${how(ep)}: it answered ${attack.status}, and the user could then log in ` +
      'with the new password while a made-up one is still refused. Whoever holds a session or token of a user (a stolen token, an unlocked ' +
      `device, an XSS) can lock the owner out and keep the account.${url} ${viaQuery ? 'Low' : 'Informational'}: it needs a session that was already stolen.`,
    notes: [`The user was registered by the scan for this check (${o.account.operation}) and changed only its own password.`],
    exchanges: [
      { label: `Attack: ${o.session.name} changes its own password without the current one`, exchange: attack },
      ...proofLines(proof.exchanges, 'Proof: login with the new password'),
      ...proofLines(control.exchanges, 'Control: a made-up password is refused'),
    ],
    reproduce: attack,
    setup: [setupOf(o, 'user')],
    chosen: changedPasswords(next, madeUp),
  };
}

/** Passwords in the URL leak through logs and Referer headers; a GET also lets a link trigger the change. */
const URL_CHANGE_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:L/I:L/A:N';

/** The change with the new password in every new-password parameter, the current one left out, then (where the operation names one) wrong. */
async function queryChange(ctx: CheckContext, o: Owner, at: { param: string; value: string }, next: string): Promise<Exchange> {
  const ep = ctx.endpoint;
  const { next: fields, current } = queryPasswordParams(ep);
  const base = aimedAt(ctx, ep, at.param, at.value, null);
  const set = Object.fromEntries(fields.map((f) => [f, next]));
  const send = (cur: string | null) => ctx.sendPrepared(mutate(base, { query: { ...set, ...Object.fromEntries(current.map((c) => [c, cur])) } }), asIdentity(o.session));
  let ex = await send(null);
  if (ex.response && ex.status >= 400 && ex.status !== 401 && current.length && ctx.budgetLeft() > 0) ex = await send(`Wrong-${ctx.random.alnum(10)}-1`);
  return ex;
}

async function emailProof(ctx: CheckContext, o: Owner, at: { param: string; value: string }): Promise<FindingDraft | null> {
  const ep = ctx.endpoint;
  const before = await ctx.accounts!.profile(o.session);
  if (!before?.ok) {
    ctx.note(`${describeEndpoint(ep)}: no /me-like endpoint shows a created user its own e-mail address; change without the current password not tested.`);
    return null;
  }
  // Crypto-random: the address stays on the target and must not collide with an earlier scan's.
  const next = `pcs.${randomAlnum(8).toLowerCase()}.moved@example.com`;
  const attack = await change(ctx, ep, (current) => aimedAt(ctx, ep, at.param, at.value, emailBody(ctx.random, ep, next, current)), asIdentity(o.session));
  if (!accepted(attack)) return null;
  const after = await ctx.accounts!.profile(o.session);
  if (!after?.ok || !after.body.includes(next) || before.body.includes(next)) return null;
  return {
    parameter: 'email',
    description:
      `${describeEndpoint(ep)} changed the e-mail address of ${o.session.name} ${how(ep)}: it answered ${attack.status}, and the user's own ` +
      'profile now shows the new address. Whoever holds a session or token of a user can point the account at their own mailbox and take it ' +
      'over through a password reset. Informational: it needs a session that was already stolen.',
    notes: [`The user was registered by the scan for this check (${o.account.operation}) and changed only its own address.`],
    exchanges: [
      { label: `Baseline: ${o.session.name}'s profile`, exchange: before },
      { label: `Attack: ${o.session.name} changes its own e-mail without the current password`, exchange: attack },
      { label: `Proof: ${o.session.name}'s profile after`, exchange: after },
    ],
    reproduce: attack,
    setup: [setupOf(o, 'user')],
  };
}

export const changeWithoutCurrentPassword = defineCheck({
  id: 'api2-change-without-current-password',
  title: 'Password or e-mail change without the current password',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-620',
  confidence: 'high',
  // Informational (no impact of its own): it needs a session that was already stolen, and only makes that takeover last.
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:U/C:N/I:N/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2,
  techniques: ['ACCOUNT.reauthentication'],
  description:
    'For an operation that changes a password or an e-mail address (by its path: PUT /me/password, PUT /users/{id}/email and the like), the ' +
    'scan registers a user of its own, which sends the change for its own account without its current password (then with a wrong one, ' +
    'where the body has a current-password field). A change that takes its passwords in the query string (GET /account/change-password?new=..&repeat=.., ' +
    'any method) is sent the same way with the new password in each new-password parameter and the current one left out; its finding is low, ' +
    'as the passwords also travel in URLs (logs, Referer) and, over GET, a link can trigger it. Finding: accepted, and the user can then log in with the new password (a made-up one ' +
    'still refused), or its own profile shows the new address. Informational: exploiting it needs a session or token that was already ' +
    'stolen; it turns that into a lasting account takeover.',
  coverage:
    'Needs a sign-up operation, a way for created users to log in and, for e-mail changes, a /me-like endpoint showing the address. Changes ' +
    'made through a general profile update (PATCH /me with an email field) are not tried. Only accounts the scan registered are touched.',
  remediation:
    'Ask for the current password (or a fresh re-authentication, a second factor) before changing the password or the e-mail address, ' +
    'confirm a new address by a link sent to it, notify the old address, and end the other sessions after a password change.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/620.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#change-password-feature'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && changes(e) !== null,
  async *run(ctx) {
    const what = changes(ctx.endpoint);
    if (!what) return;
    const o = await owner(ctx);
    const at = o && ownValue(ctx, o);
    if (!o || !at) return;
    const finding = what === 'password' ? await passwordProof(ctx, o, at) : await emailProof(ctx, o, at);
    if (finding) yield finding;
  },
});
