// API2:2023 Broken Authentication: a login whose answers tell an unknown user name from a known one
// with a wrong password (status, message, a field, body length or a consistent delay). Runs before the
// bursts of the `last` checks, on a user the scan registered itself where it may, so no lockout
// hides the difference and no account of someone else takes the wrong passwords.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { failedInBody } from '../../identities/accounts';
import { asAnswered, MAX_MARKER } from '../../proof';
import type { SeededRandom } from '../../random';
import { mutate, type PreparedRequest } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { isObj, looksLikeError, schemaShape, type Json } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import { withTimingLock } from '../common/timing-gate';
import type { CheckContext } from '../types';
import { asUser, authRoute, burstAccount, throttleSign, USER_FIELD } from './brute-force';

/** Tries per side before comparing answers (alternated, so a clock or counter in the body moves on both sides alike). */
const TRIES = 2;
/** Further alternated pairs that confirm a delay, measured alone. */
const TIMING_PAIRS = 3;
const MIN_GAP_MS = 40;

type Side = 'unknown' | 'known';
interface Attempt {
  side: Side;
  exchange: Exchange;
  /** The body with the user name, e-mail and password sent replaced by placeholders. */
  text: string;
  json: unknown;
}

function madeUpUser(random: SeededRandom): Record<string, string> {
  const tag = random.alnum(10).toLowerCase();
  return { username: `pcsnone${tag}`, email: `pcs.none.${tag}@example.com` };
}

/** The strings a request sent that an answer may echo back (user names, e-mail addresses, passwords). */
function sentStrings(body: Json): string[] {
  return Object.values(body).filter((v): v is string => typeof v === 'string' && v.length >= 3);
}

function normalise(ex: Exchange, sent: string[], side: Side): Attempt {
  let text = ex.body;
  for (const s of [...sent].sort((a, b) => b.length - a.length)) text = text.split(s).join('{sent}');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { side, exchange: ex, text, json };
}

/** Leaf values of a JSON answer by path ("/message" -> "Username does not exist"). */
function leaves(v: unknown, path = '', out = new Map<string, string>(), depth = 0): Map<string, string> {
  if (depth > 5) return out;
  if (Array.isArray(v)) v.slice(0, 20).forEach((x, i) => leaves(x, `${path}/${i}`, out, depth + 1));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) leaves(x, `${path}/${k}`, out, depth + 1);
  else out.set(path || '/', JSON.stringify(v));
  return out;
}

const same = (xs: (string | number | undefined)[]) => xs.every((x) => x === xs[0]);

/**
 * What tells the two sides apart in content: a status, a field, the text or its length; null when nothing
 * does consistently. `marker`: the text the known user's answer has for it (a field's value or name, the
 * text), when it is not what the request sent; null when the status or the length tells them apart.
 */
export function contentDifference(attempts: Attempt[]): { what: string; strong: boolean; marker: string | null } | null {
  const u = attempts.filter((a) => a.side === 'unknown');
  const k = attempts.filter((a) => a.side === 'known');
  const us = u.map((a) => a.exchange.status);
  const ks = k.map((a) => a.exchange.status);
  if (same(us) && same(ks) && us[0] !== ks[0]) return { what: `HTTP ${us[0]} for an unknown user, HTTP ${ks[0]} for a known user with a wrong password`, strong: true, marker: null };
  const known = k[0]!.exchange;
  const answered = (text: string | undefined) => (text && !text.includes('{sent}') ? asAnswered(known, text) : null);
  if (u.every((a) => a.json !== null) && k.every((a) => a.json !== null)) {
    const ul = u.map((a) => leaves(a.json));
    const kl = k.map((a) => leaves(a.json));
    const paths = new Set([...ul, ...kl].flatMap((m) => [...m.keys()]));
    for (const p of paths) {
      const uv = ul.map((m) => m.get(p));
      const kv = kl.map((m) => m.get(p));
      // A field that varies on one side (a request id, a timestamp, an attempts counter) is noise, unless it is absent on the other.
      const uStable = same(uv);
      const kStable = same(kv);
      if (uStable && kStable && uv[0] !== kv[0]) {
        const show = (x: string | undefined) => (x === undefined ? '(absent)' : x.slice(0, 120));
        const value = kv[0] === undefined ? undefined : (JSON.parse(kv[0]) as unknown);
        return {
          what: `${p.slice(1) || 'the body'} is ${show(uv[0])} for an unknown user and ${show(kv[0])} for a known user with a wrong password`,
          strong: true,
          marker: typeof value === 'string' ? answered(value) : null,
        };
      }
      const presence = (xs: (string | undefined)[]) => (xs.every((x) => x !== undefined) ? 'all' : xs.every((x) => x === undefined) ? 'none' : 'some');
      const up = presence(uv);
      const kp = presence(kv);
      if ((up === 'all' && kp === 'none') || (up === 'none' && kp === 'all')) {
        const field = p.split('/').at(-1)!;
        return {
          what: `the field ${p.slice(1)} appears only in the answers for ${up === 'all' ? 'an unknown user' : 'a known user with a wrong password'}`,
          strong: true,
          marker: kp === 'all' && !/^\d+$/.test(field) ? answered(JSON.stringify(field)) : null,
        };
      }
    }
    return null;
  }
  const ut = u.map((a) => a.text);
  const kt = k.map((a) => a.text);
  if (same(ut) && same(kt) && ut[0] !== kt[0]) {
    const line = kt[0]!.split('\n').find((l) => l.trim() && !ut[0]!.includes(l.trim()))?.trim().slice(0, MAX_MARKER);
    return { what: `the body differs: "${ut[0]!.slice(0, 120)}" for an unknown user, "${kt[0]!.slice(0, 120)}" for a known user with a wrong password`, strong: true, marker: answered(line) };
  }
  const ulen = ut.map((t) => t.length);
  const klen = kt.map((t) => t.length);
  const noise = Math.max(Math.max(...ulen) - Math.min(...ulen), Math.max(...klen) - Math.min(...klen));
  const apart = Math.min(...klen) > Math.max(...ulen) || Math.min(...ulen) > Math.max(...klen);
  const gap = Math.abs(ulen[0]! - klen[0]!);
  if (apart && gap > Math.max(3 * noise, 16)) return { what: `the body is ${ulen.join('/')} bytes for an unknown user and ${klen.join('/')} bytes for a known user with a wrong password`, strong: false, marker: null };
  return null;
}

/** The slower side when every answer of one side took clearly longer than every answer of the other. */
export function timingDifference(attempts: Attempt[]): { slow: Side; what: string } | null {
  const ms = (side: Side) => attempts.filter((a) => a.side === side).map((a) => a.exchange.durationMs);
  const u = ms('unknown');
  const k = ms('known');
  for (const [slow, fast, side] of [[k, u, 'known'], [u, k, 'unknown']] as const) {
    const fastest = Math.max(...fast);
    const median = [...fast].sort((a, b) => a - b)[Math.floor(fast.length / 2)]!;
    if (Math.min(...slow) - fastest >= Math.max(MIN_GAP_MS, median)) {
      const r = (xs: readonly number[]) => xs.map((x) => `${Math.round(x)}`).join(', ');
      return { slow: side, what: `an unknown user is answered in ${r(u)} ms, a known user with a wrong password in ${r(k)} ms` };
    }
  }
  return null;
}

const serverError = (a: Attempt) => a.exchange.status >= 500;

/** The login route refused the attempt (it did not log in). */
function refused(ex: Exchange): boolean {
  return !ex.ok || failedInBody(ex) || looksLikeError(ex);
}

interface Sides {
  request(side: Side): { request: PreparedRequest; sent: string[] };
}

async function attempt(ctx: CheckContext, sides: Sides, side: Side): Promise<Attempt | 'stop'> {
  if (ctx.budgetLeft() <= 0) return 'stop';
  const { request, sent } = sides.request(side);
  const ex = await ctx.sendPrepared(request, { kind: 'none' });
  // A server error is an answer too (an unknown name that crashes the lookup): compared, not a reason to stop.
  if (!ex.response || ex.status === 503 || throttleSign(ex) || !refused(ex)) return 'stop';
  return normalise(ex, sent, side);
}

/** Alternated tries: unknown, known, unknown, known... */
async function alternate(ctx: CheckContext, sides: Sides, pairs: number): Promise<Attempt[] | null> {
  const out: Attempt[] = [];
  for (let i = 0; i < pairs; i += 1) {
    for (const side of ['unknown', 'known'] as const) {
      const a = await attempt(ctx, sides, side);
      if (a === 'stop') return null;
      out.push(a);
    }
  }
  return out;
}

function hasUserField(ep: Endpoint): boolean {
  return Object.keys(schemaShape(ep.request_body?.schema ?? null).props).some((k) => USER_FIELD.test(k));
}

export const userEnumeration = defineCheck({
  id: 'api2-user-enumeration',
  title: 'Login answers tell existing users from unknown ones (user enumeration)',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-204',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2 * (TRIES + TIMING_PAIRS),
  techniques: ['API2.enumeration'],
  description:
    `On login routes (a POST with a user field and a password field), logs in ${TRIES} times with made-up user names and ${TRIES} times with ` +
    'a user that exists (one the scan registered for it where it may, else key 1\'s own when key 1 is a static key) and wrong passwords, ' +
    'alternated, with the names and passwords sent taken out of the answers. Finding: the two kinds of answers differ the same way every ' +
    'time (status, a field\'s value or presence, the text, or the body length beyond its own variation), or, where they do not, every ' +
    `answer for the known user took clearly longer (${MIN_GAP_MS} ms or more), confirmed by ${TIMING_PAIRS} more alternated pairs measured alone. ` +
    'A server error (5xx) is an answer like any other: one side answered 500 and the other 401 is a difference, confirmed by ' +
    `${TRIES} more alternated pairs (new made-up names) before it counts; only server errors on both sides is nothing to compare (a note), ` +
    'and a server error that comes and goes is no difference. No timing comparison runs where server errors were among the answers.',
  coverage:
    'Login routes only (not sign-up, password reset or "user exists" lookups). Needs a user whose existence the scan knows without harming ' +
    'anyone: a user it registered, or key 1 when it is a static key; an identity that logs in during the scan is never used. Fields that ' +
    'vary between two identical tries are ignored; a timing difference under the scan\'s own noise is not seen.',
  remediation:
    'Answer a wrong password and an unknown user the same way: one status, one generic message ("Invalid username or password"), the same ' +
    'body and headers, and the same work (verify against a dummy hash for unknown users) so the timing matches. Throttle failed logins.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/204.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/03-Identity_Management_Testing/04-Testing_for_Account_Enumeration_and_Guessable_User_Account'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && authRoute(e)?.kind === 'login' && hasUserField(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const route = authRoute(ep);
    if (route?.kind !== 'login') return;
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const account = await burstAccount(ctx, 'known user of the user-enumeration check');
    const known = account?.values;
    if (!account || !known) {
      ctx.note(`${describeEndpoint(ep)}: user enumeration not tested: no user the scan may send wrong passwords for (no sign-up, and key 1 logs in).`);
      return;
    }
    const body = base.bodyValue;
    const sides: Sides = {
      request(side) {
        const value = { ...asUser(ep, body, side === 'known' ? known : madeUpUser(ctx.random)), [route.secret]: `Wrong-${ctx.random.alnum(12)}-1` };
        return { request: mutate(base, { bodyValue: value }), sent: sentStrings(value) };
      },
    };
    const first = await alternate(ctx, sides, TRIES);
    if (!first) return;
    if (first.every(serverError)) {
      ctx.note(`${describeEndpoint(ep)}: user enumeration not tested: every login, for a known and a made-up user alike, was answered with a server error (${[...new Set(first.map((a) => a.exchange.status))].join(', ')}).`);
      return;
    }
    let content = contentDifference(first);
    let compared = first;
    if (content && first.some(serverError)) {
      // A server error on one side may be a passing fault: the split must hold over more names and tries.
      const more = await alternate(ctx, sides, TRIES);
      compared = more ? [...first, ...more] : first;
      content = more && contentDifference(compared);
    }
    let proof: { what: string; strong: boolean; attempts: Attempt[]; timing: boolean; marker: string | null } | null = content && { ...content, attempts: compared, timing: false };
    if (!proof && !first.some(serverError) && timingDifference(first)) {
      // Confirmed alone: no other time-based measurement of the scan runs meanwhile.
      const more = await withTimingLock(ctx, () => alternate(ctx, sides, TIMING_PAIRS));
      const all = more && [...first, ...more];
      const timing = all && timingDifference(all);
      if (all && timing) proof = { what: timing.what, strong: false, attempts: all, timing: true, marker: null };
    }
    if (!proof) return;
    const u = proof.attempts.find((a) => a.side === 'unknown')!.exchange;
    const k = proof.attempts.find((a) => a.side === 'known')!.exchange;
    yield {
      parameter: route.secret,
      confidence: proof.strong ? 'high' : 'medium',
      cvss: proof.timing ? 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N' : undefined,
      description:
        `${describeEndpoint(ep)} answers a login for a user that does not exist differently from a login for an existing user with a wrong ` +
        `password: ${proof.what}. Anyone can enumerate which user names or e-mail addresses have an account here, then aim password ` +
        'guessing, credential stuffing or phishing at them.',
      notes: [
        `${proof.attempts.length} logins, alternated (made-up user, then the existing user), each with a new wrong password; the names and passwords sent are taken out of the answers before comparing.`,
        `Statuses: ${proof.attempts.map((a) => `${a.side} ${a.exchange.status} (${Math.round(a.exchange.durationMs)} ms)`).join(', ')}.`,
        `The existing user (${known.username ?? known.email}) is ${known === ctx.identities.key1.values ? 'key 1\'s own account' : 'a user the scan registered for this check'}: no one else's account took a wrong password.`,
      ],
      exchanges: [
        // The existing user is one the scan registered: a replay on another instance registers it first.
        ...(account.registration ? [{ label: 'Setup: the existing user signs up', exchange: account.registration }] : []),
        { label: 'Login as a made-up user', exchange: u },
        { label: 'Attack: login as an existing user with a wrong password', exchange: k },
      ],
      reproduce: k,
      // What the known user's answer has that the made-up user's lacks; a time or a length cannot be looked for.
      proof: { marker: proof.marker },
    };
  },
});
