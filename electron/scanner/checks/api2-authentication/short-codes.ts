// API2:2023: short numeric codes (OTP, PIN, verification and reset codes of 4-8 digits) that can be
// guessed: a bounded burst of wrong codes for the scan's own account meets no throttle, lockout or
// challenge. The login brute-force and business-flow checks leave these routes to this one
// (common/short-codes.ts decides which routes they are).

import type { Endpoint } from '../../../../shared/contract';
import { AS_KEY1, type Exchange, type RequestAuth } from '../../http/exchange';
import { failedInBody } from '../../identities/accounts';
import type { SeededRandom } from '../../random';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { asIdentity } from '../common/accounts';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { challengeSignal } from '../common/input-points';
import { isObj, looksLikeError, schemaShape } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import { isShortCodeRoute, shortCodeField, type ShortCode } from '../common/short-codes';
import type { CheckContext } from '../types';
import { asUser, burstUser, routeWords, throttleSign, USER_FIELD } from './brute-force';

export const CODE_BURST = 12;

/** Whose codes the burst guesses, and as whom it sends them. */
interface Target {
  request: PreparedRequest;
  auth: RequestAuth;
  who: string;
  /** The earlier step that made a code pending (a login or reset request by phone or e-mail), for the evidence. */
  step?: Exchange;
}

/** Fields that name an account: a user name, an e-mail, a phone or mobile number. */
const ACCOUNT_FIELD = /^(mobile|mobile_?(no|num|number)|phone_?(no|num|number)?|msisdn|tel(ephone)?)$/i;
const accountField = (k: string) => USER_FIELD.test(k) || ACCOUNT_FIELD.test(k);

function namesAccount(e: Endpoint): boolean {
  return Object.keys(schemaShape(e.request_body?.schema ?? null).props).some(accountField);
}

const segments = (p: string) => p.split('/').filter(Boolean);
const STEP_WORDS = /(^|[^a-z])(otp|sms|code|send|request|resend|log-?in|sign-?in|forgot|reset|recover|verify|2fa|mfa|one-?time)([^a-z]|$)/i;

/**
 * The operation that makes a code pending when the check itself is anonymous: a POST beside it (the
 * longest shared path) whose body names an account (phone, e-mail, user name) and asks for no password
 * and no code, with request words (login, send, reset, otp...).
 */
export function codeRequestStep(verify: Endpoint, endpoints: readonly Endpoint[]): Endpoint | null {
  const mine = segments(verify.path);
  let best: { e: Endpoint; shared: number } | null = null;
  for (const e of endpoints) {
    if (e.method !== 'POST' || e === verify || e.path === verify.path || shortCodeField(e) || e.graphql) continue;
    const props = Object.keys(schemaShape(e.request_body?.schema ?? null).props);
    if (!props.some(accountField) || props.some((p) => /pass(word)?|passwd|pwd/i.test(p))) continue;
    if (!STEP_WORDS.test(routeWords(e))) continue;
    const theirs = segments(e.path);
    let shared = 0;
    while (shared < Math.min(mine.length, theirs.length) && mine[shared] === theirs[shared]) shared += 1;
    // Siblings: at most two segments of the code route below what they share (/x/login beside /x/otp/verify).
    if (mine.length - shared > 2 || shared === 0) continue;
    if (!best || shared > best.shared) best = { e, shared };
  }
  return best?.e ?? null;
}

/**
 * An anonymous code route (a login or reset by a code sent to a phone or an address): the earlier step
 * is sent first, so a code is pending when the wrong ones are tried. Its account is the scan's own user
 * where the step takes a user name or e-mail, else the value the API's own description gives.
 */
async function anonymousTarget(ctx: CheckContext, base: PreparedRequest): Promise<Target | null> {
  const ep = ctx.endpoint;
  const step = codeRequestStep(ep, ctx.allEndpoints);
  if (!step) {
    ctx.note(`${describeEndpoint(ep)}: short-code guessing not tested: the code is checked without credentials and no operation beside it asks for a code first.`);
    return null;
  }
  const first = await ctx.prepare(step, 1, 'write');
  if (!first || !isObj(first.bodyValue) || ctx.budgetLeft() <= 0) return null;
  const takesUser = Object.keys(schemaShape(step.request_body?.schema ?? null).props).some((k) => USER_FIELD.test(k) && !/^phone/i.test(k));
  const user = takesUser ? await burstUser(ctx, 'target of the short-code check') : null;
  const body = user ? asUser(step, first.bodyValue, user) : first.bodyValue;
  const asked = await ctx.sendPrepared(mutate(first, { bodyValue: body }), { kind: 'none' });
  if (!asked.ok || failedInBody(asked) || looksLikeError(asked)) {
    ctx.note(`${describeEndpoint(ep)}: short-code guessing not tested: asking for a code first (${describeEndpoint(step)}) was refused (HTTP ${asked.status}).`);
    return null;
  }
  const named = Object.entries(body).find(([k]) => accountField(k))?.[1];
  const who = user ? (user.email ?? user.username ?? "the scan's user") : `the account of the code asked for at ${describeEndpoint(step)}${named !== undefined ? ` (${String(named)}, the API description's own example)` : ''}`;
  return { request: base, auth: { kind: 'none' }, who, step: asked };
}

/**
 * The scan's own account: for a body that names the account (e-mail, user name), a user the scan
 * registered (or key 1's own when key 1 is a static key); for a code bound to the session, a
 * logged-in user of the scan's own, else key 1; for an anonymous code bound to an earlier step, the
 * code that step asked for. Never an account the scan does not own (or the API's own example).
 */
async function ownTarget(ctx: CheckContext, base: PreparedRequest): Promise<Target | null> {
  const ep = ctx.endpoint;
  const auth: RequestAuth = ctx.authSpec(ep).declaredSecured ? AS_KEY1 : { kind: 'none' };
  if (namesAccount(ep)) {
    const user = await burstUser(ctx, 'target of the short-code check');
    if (!user) {
      ctx.note(`${describeEndpoint(ep)}: short-code guessing not tested: the body names an account, and the scan has none of its own to name (no sign-up, and key 1 logs in).`);
      return null;
    }
    const who = user.email ?? user.username ?? 'the scan\'s user';
    return { request: mutate(base, { bodyValue: asUser(ep, base.bodyValue as Record<string, unknown>, user) }), auth, who };
  }
  if (auth.kind === 'none') return anonymousTarget(ctx, base);
  // A path naming the account is filled with key 1's own values by prepare(): key 1 it is.
  if (ctx.accounts && !pathParamNames(ep.path).length) {
    const r = await ctx.accounts.create('target of the short-code check');
    if (!('error' in r)) return { request: base, auth: asIdentity(r.session), who: r.session.name };
  }
  return { request: base, auth, who: ctx.identityName(1) };
}

function wrongCode(random: SeededRandom, digits: number, integer: boolean): string | number {
  const n = random.int(0, 10 ** digits - 1);
  return integer ? n : String(n).padStart(digits, '0');
}

/** The answer refused the code (it did not accept it). */
function refusedCode(ex: Exchange): boolean {
  if (ex.status >= 400 && ex.status < 500) return true;
  return ex.ok && (failedInBody(ex) || looksLikeError(ex));
}

/** A code of the wrong shape is answered like a wrong code: the wrong codes may never have been checked (a validation error, a missing precondition). */
function sameAsMalformed(malformed: { ex: Exchange; sent: string }, wrong: { ex: Exchange; sent: string }): boolean {
  const strip = (a: { ex: Exchange; sent: string }) => a.ex.body.split(a.sent).join('');
  return malformed.ex.status === wrong.ex.status && strip(malformed) === strip(wrong);
}

function guessTime(digits: number, attempts: number, ms: number): string {
  const perSecond = attempts / Math.max(ms / 1000, 0.001);
  const hours = 10 ** digits / 2 / perSecond / 3600;
  return hours < 1 ? `${Math.max(1, Math.round(hours * 60))} minutes` : `${Math.round(hours)} hours`;
}

export const shortCodeBruteForce = defineCheck({
  id: 'api2-short-code-brute-force',
  title: 'One-time codes and PINs can be guessed (no throttling)',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-307',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  measuresThrottling: true,
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  // The malformed code, the burst, up to two more lengths tried and the earlier step that asks for a code.
  budget: CODE_BURST + 4,
  needsKey2: false,
  techniques: ['API2.short-codes'],
  description:
    'On routes that check a short numeric code (a body field named code, otp, pin, passcode, verification_code... of 4-8 digits by its schema ' +
    `or its name), sends one code of the wrong shape, then ${CODE_BURST} wrong codes of the right length in a row for the scan's own account ` +
    '(a user it registered, else key 1). A route that takes the code without credentials (a login or reset finished by a code sent to a ' +
    'phone or an address) is sent after the operation beside it that asks for the code (a POST naming a phone, e-mail or user name), for ' +
    'the scan\'s own user or the account the API description gives as its example. When the schema does not pin the length, one wrong ' +
    'code of 6, then 4, then 8 digits is tried, and the length answered unlike the malformed code is the one guessed. Finding: every wrong code is refused the same way, unlike the malformed one, with no 429, 423 or ' +
    '503, no Retry-After, no exhausted rate limit, no lockout message and no CAPTCHA: the code space (10^digits) can be searched.',
  coverage:
    `A burst of ${CODE_BURST} finds missing limits, not weak ones (a limit of 100 guesses per code passes). The codes are guessed whether or ` +
    'not a code is pending for the account. Password logins with a second factor are left to api2-auth-brute-force (the password is ' +
    'needed first); a body that names an account is only sent for a user the scan registered or key 1 when it is a static key.',
  remediation:
    'Limit wrong codes per account and per code (e.g. 5 tries, then invalidate the code and ask for a new one), throttle per client with ' +
    '429 and Retry-After, expire codes within minutes, and use at least 6 digits.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/307.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Multifactor_Authentication_Cheat_Sheet.html'],
  appliesTo: (e) => (e.flags.includes('BKEN_AUTH') || e.flags.includes('UABF')) && isShortCodeRoute(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const code = shortCodeField(ep);
    if (!code) return;
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const target = await ownTarget(ctx, base);
    if (!target) return;
    const result = await burst(ctx, target, code, ep);
    if (!result) return;
    const { malformed, attempts, ms, digits } = result;
    const first = attempts[0]!;
    const last = attempts[attempts.length - 1]!;
    yield {
      parameter: code.field,
      cvss: withPrivileges(ctx, 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N'),
      description:
        `${describeEndpoint(ep)} refused ${CODE_BURST} wrong ${digits}-digit codes in a row for ${target.who} (each HTTP ${first.status}) ` +
        `with no throttling, lockout or challenge. At this pace (${CODE_BURST} guesses in ${Math.round(ms)} ms) half of the 10^${digits} ` +
        `codes are tried in about ${guessTime(digits, CODE_BURST, ms)}, less with parallel clients: a one-time code, PIN or verification ` +
        'code is a guessable password. A limit in front of the application (a gateway, a WAF) may still exist: confirm before closing.',
      notes: [
        `A code of the wrong shape was answered HTTP ${malformed.status}, differently: the wrong codes were checked.`,
        `Statuses: ${attempts.map((a) => a.status).join(', ')}.`,
        target.step
          ? `The route takes the code without credentials: the scan first asked for a code (${target.step.request.method} ${new URL(target.step.request.url).pathname}, answered ${target.step.status}), then guessed it for ${target.who}.`
          : `The codes were guessed for ${target.who}, an account of the scan's own.`,
      ],
      exchanges: [
        ...(target.step ? [{ label: 'Step: a code is asked for', exchange: target.step }] : []),
        { label: 'Control: a code of the wrong shape', exchange: malformed },
        { label: 'Wrong code 1', exchange: first },
        { label: `Attack: wrong code ${attempts.length}`, exchange: last },
      ],
      reproduce: last,
    };
  },
});

/** Code lengths tried, in order, when the schema does not pin one: the length whose wrong code is answered unlike a malformed one. */
const LENGTHS = [6, 4, 8, 5];

async function burst(ctx: CheckContext, target: Target, code: ShortCode, ep: Endpoint): Promise<{ malformed: Exchange; attempts: Exchange[]; ms: number; digits: number } | null> {
  const integer = ['integer', 'number'].includes(String(schemaShape(ep.request_body?.schema ?? null).props[code.field]?.type));
  const body = target.request.bodyValue as Record<string, unknown>;
  const send = (value: unknown) => ctx.sendPrepared(mutate(target.request, { bodyValue: { ...body, [code.field]: value } }), target.auth);
  const shape = 'x'.repeat(code.digits);
  const malformed = await send(shape);
  if (!malformed.response || throttleSign(malformed)) return null;
  const attempts: Exchange[] = [];
  let digits = code.digits;
  let firstCode = '';
  const started = Date.now();
  const attempt = async (): Promise<Exchange | null> => {
    const value = wrongCode(ctx.random, digits, integer);
    const ex = await send(value);
    if (!ex.response || ex.status >= 500 || throttleSign(ex) || challengeSignal(ex) || !refusedCode(ex)) return null;
    firstCode ||= String(value);
    return ex;
  };
  if (!code.known) {
    // The schema gives no length: a wrong code of the API's length is checked, one of another length is
    // refused like the malformed one. One try per length, the first that differs sets it.
    let found: Exchange | null = null;
    for (const n of LENGTHS.slice(0, 3)) {
      if (ctx.budgetLeft() <= 0) return null;
      digits = n;
      firstCode = '';
      const ex = await attempt();
      if (!ex) return null;
      if (!sameAsMalformed({ ex: malformed, sent: shape }, { ex, sent: firstCode })) {
        found = ex;
        break;
      }
    }
    if (!found) return null;
    attempts.push(found);
  }
  while (attempts.length < CODE_BURST) {
    if (ctx.budgetLeft() <= 0) return null;
    const ex = await attempt();
    if (!ex) return null;
    attempts.push(ex);
  }
  const ms = Date.now() - started;
  if (new Set(attempts.map((a) => a.status)).size !== 1) return null;
  if (sameAsMalformed({ ex: malformed, sent: shape }, { ex: attempts[0]!, sent: firstCode })) return null;
  return { malformed, attempts, ms, digits };
}
