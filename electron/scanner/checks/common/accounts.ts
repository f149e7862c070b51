// What the account checks share: the user-scoped routes of the spec, the users the scan created
// (attacker and victim), requests aimed at the victim, and the proof lines of a finding.


import type { Endpoint } from '../../../../shared/contract';
import type { SetupUser } from '../../evidence';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { type CreateResult } from '../../identities/accounts';
import type { CreatedAccount, IdentitySession } from '../../identities/session';
import { mutate, prepareRequest, type PreparedRequest } from '../../requests';
import { synthesize } from '../../schema-values';
import type { CheckContext } from '../types';
import { describeEndpoint } from './helpers';


const USERS_SEGMENT = /^(users?|accounts?|members?|customers?|profiles?|people|persons?|employees?|players?|clients?|subscribers?)$/i;
const USER_PARAM = /^(user|account|member|customer|profile|person|employee|player|client|subscriber)[-_]?(id|name|key|uuid)?$|^(username|login|handle|email|uid)$/i;

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
export function isUserDelete(e: Pick<Endpoint, 'path'>): boolean {
  const segs = e.path.split('/').filter(Boolean);
  const last = segs.length - 1;
  const m = /^\{(.+)\}$/.exec(segs[last] ?? '');
  const prev = collectionBefore(segs, last);
  return !!m && !!prev && USERS_SEGMENT.test(prev);
}

/** The value a user parameter takes for an account: its name, e-mail or id, by the parameter's name. */
export function accountValue(param: string, account: CreatedAccount, values: Record<string, string>): string | null {
  if (/mail/i.test(param)) return account.email ?? values.email ?? null;
  if (/name|login|handle|nick/i.test(param)) return account.username ?? values.username ?? values.login ?? account.email ?? null;
  return account.id ?? values.id ?? values.user_id ?? values.userId ?? values.uid ?? null;
}

export function bodyObject(e: Endpoint): Record<string, unknown> {
  const v = synthesize(e.request_body?.schema ?? null, { forRequest: true });
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export const asIdentity = (s: IdentitySession): RequestAuth => ({ kind: 'identity', name: s.name });

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
export async function aimAtVictim(ctx: CheckContext, what: string): Promise<(Pair & { param: string; value: string }) | null> {
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
export function aimedAt(ctx: CheckContext, ep: Endpoint, param: string, value: string, body: Record<string, unknown> | null): PreparedRequest {
  const req = prepareRequest(ep, { base: (p) => ctx.url(p), placements: ctx.authSpec(ep).placements, pathValues: { [param]: { value, source: 'created' } } });
  return body ? mutate(req, { bodyValue: body }) : req;
}

/** A user the scan registered, as the setup of a finding's steps: its registration and login come first. */
export function setupOf(user: Extract<CreateResult, { session: unknown }>, role: SetupUser['role']): SetupUser {
  const { session, account, registration } = user;
  return { identity: session.name, role, registration, logins: session.loginExchanges, password: account.password, token: session.token };
}

export function proofLines(exchanges: Exchange[], label: string): { label: string; exchange: Exchange }[] {
  return exchanges.map((exchange, i) => ({ label: exchanges.length > 1 ? `${label} (step ${i + 1})` : label, exchange }));
}
