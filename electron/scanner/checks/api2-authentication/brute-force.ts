// API2:2023 Broken Authentication: login, token, one-time-code and password-reset routes that take
// a burst of wrong secrets without throttling or lockout.


import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { mutate, type PreparedRequest } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { isObj, looksLikeError, schemaShape, type Json } from '../common/objects';
import type { CheckContext, FindingDraft } from '../types';
import { isShortCodeRoute } from '../common/short-codes';
import { OWASP_API2 } from '../common/references';

// ---------------------------------------------------------------- brute force on login / token / reset

const ROUTE_LOGIN = /(^|[^a-z])(log-?in|sign-?in|signon|authenticate|auth|token|tokens|session|sessions|oauth)([^a-z]|$)/i;
const ROUTE_RESET = /(^|[^a-z])(reset|forgot|forget|forgotten|recover|recovery|password)([^a-z]|$)/i;
const ROUTE_EXCLUDED = /(^|[^a-z])(sign-?up|register|registration|logout|log-out|sign-?out|refresh|revoke|introspect)([^a-z]|$)/i;
/** One-time-code routes are API6 flows, unless the code sets a new password (a reset confirmation). */
const ROUTE_OTP = /(^|[^a-z])(otp|mfa|2fa|one-?time)([^a-z]|$)/i;
const PASSWORD_FIELD = /^(password|passwd|pass|pwd|passphrase|secret|pin|client_?secret)$/i;
export const USER_FIELD = /^(username|user_?name|user|login|email|e-?mail|phone|identifier|account|client_?id|handle)$/i;
const TOKEN_FIELD = /^(token|reset_?token|code|reset_?code|verification_?code|otp|key|reset_?key)$/i;
/** A knowledge secret a reset may take instead of a mailed token: the answer to a security question. */
const ANSWER_FIELD = /^(answer|security_?answer|secret_?answer|security_?question_?answer)$/i;

type AuthRoute = { kind: 'login'; secret: string } | { kind: 'reset-request' } | { kind: 'reset-confirm'; secret: string };

export function routeWords(e: Endpoint): string {
  const literals = e.path.split('/').filter((s) => s && !s.includes('{')).slice(-3).join(' ');
  return `${literals} ${e.operation_id ?? ''} ${e.summary}`.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** What kind of credential route this is, from its path, operation and body fields. */
export function authRoute(e: Endpoint): AuthRoute | null {
  if (e.method !== 'POST') return null;
  const words = routeWords(e);
  if (ROUTE_EXCLUDED.test(words)) return null;
  const shape = schemaShape(e.request_body?.schema ?? null).props;
  const props = Object.keys(shape);
  // A field declared `format: password` is one whatever its name ({"new": ..., "repeat": ...}).
  const password = props.find((p) => PASSWORD_FIELD.test(p) || /password$/i.test(p) || shape[p]?.format === 'password');
  const user = props.find((p) => USER_FIELD.test(p));
  const token = props.find((p) => TOKEN_FIELD.test(p)) ?? (ROUTE_RESET.test(words) ? props.find((p) => ANSWER_FIELD.test(p)) : undefined);
  // A code together with a (new) password confirms a reset (POST /auth/password-reset/confirm, POST /auth/check-otp).
  const confirms = /reset|forgo|recover|verify|check|confirm/i.test(words) || ROUTE_OTP.test(words) || /^new[-_]?password$/i.test(password ?? '');
  if (token && password && confirms) return { kind: 'reset-confirm', secret: token };
  if (ROUTE_OTP.test(words)) return null;
  if (ROUTE_RESET.test(words) && /reset|forgo|recover/i.test(words)) {
    if (token) return { kind: 'reset-confirm', secret: token };
    if (user && !password) return { kind: 'reset-request' };
    return null;
  }
  if (ROUTE_LOGIN.test(words) && password && user) return { kind: 'login', secret: password };
  return null;
}

const THROTTLED_TEXT = /too many|rate.?limit|locked|lockout|try again (later|in)|captcha|temporarily (blocked|disabled|suspended)|slow down|throttl/i;

/** Signs that the API limits attempts: 429/423/503, Retry-After, a small rate limit, a lockout message. */
export function throttleSign(ex: Exchange): string | null {
  if (!ex.response) return null;
  if (ex.status === 429 || ex.status === 423 || ex.status === 503) return `HTTP ${ex.status}`;
  if (ex.header('retry-after')) return `Retry-After: ${ex.header('retry-after')}`;
  for (const h of ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining']) {
    const v = ex.header(h);
    if (v !== undefined && Number(v) <= 0) return `${h}: ${v}`;
  }
  for (const h of ['ratelimit-limit', 'x-ratelimit-limit', 'x-rate-limit-limit']) {
    const v = Number((ex.header(h) ?? '').split(/[,;]/)[0]);
    if (Number.isFinite(v) && v > 0 && v <= 20) return `${h}: ${ex.header(h)}`;
  }
  if (THROTTLED_TEXT.test(ex.body.slice(0, 2000))) return 'a lockout or rate-limit message';
  return null;
}

const BURST = 10;
/** Server errors in a row, before any attempt is processed, after which the route counts as broken. */
const GIVE_UP_ERRORS = 3;
/** Guesses sent past the burst while it ends in server errors, to see whether guesses are processed again. */
const TRAILING_TRIES = 3;

/** The body with its user fields (username, e-mail...) set to key 1's own, from its /me-like identity. */
/**
 * Whose account the burst aims at: a user the scan registered for it (a lockout harms nobody),
 * else key 1's own when its credential needs no new login (a static key), else none of the scan's
 * identities (a lockout of a logging-in identity would stop the scan: the spec's example user then).
 */
export async function burstUser(ctx: CheckContext, purpose = 'target of the login-throttling check'): Promise<Record<string, string> | null> {
  return (await burstAccount(ctx, purpose))?.values ?? null;
}

/** burstUser's account with the registration that made it (null for key 1's own): a replay starts with it. */
export async function burstAccount(ctx: CheckContext, purpose: string): Promise<{ values: Record<string, string>; registration: Exchange | null } | null> {
  if (ctx.accounts) {
    const r = await ctx.accounts.register(purpose);
    if (!('error' in r)) {
      return { values: { ...(r.account.username ? { username: r.account.username } : {}), ...(r.account.email ? { email: r.account.email } : {}) }, registration: r.registration };
    }
  }
  return ctx.identities.key1.renewable ? null : { values: ctx.identities.key1.values, registration: null };
}

export function asUser(ep: Endpoint, body: Json, ident: Record<string, string>): Json {
  const out: Json = { ...body };
  for (const k of Object.keys(schemaShape(ep.request_body?.schema ?? null).props)) {
    if (!USER_FIELD.test(k)) continue;
    const own = /mail/i.test(k) ? ident.email : (ident.username ?? ident.login ?? (ident.email?.includes('@') ? undefined : ident.email));
    if (own) out[k] = own;
  }
  return out;
}

function wrongSecret(random: SeededRandom, schema: JsonSchema | null | undefined, i: number): string {
  const min = typeof schema?.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema?.maxLength === 'number' ? schema.maxLength : 64;
  let v = `Wrong-${random.alnum(Math.max(8, Math.min(24, min)))}-${i}`;
  if (schema?.pattern && /\[0-9\]|\\d/.test(String(schema.pattern)) && !/[a-z]/i.test(String(schema.pattern).replace(/\\d/g, ''))) v = String(100000 + ((i * 7919) % 900000));
  while (v.length < min) v += random.alnum(1);
  return v.slice(0, max);
}

/** Attempts sent with client-address headers once throttled: the first that gets through, then two more to confirm. */
const BYPASS_TRIES = 4;
const ADDRESS_HEADERS = ['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip'];

interface Bypass {
  header: string;
  attempts: Exchange[];
}

/** A documentation-range address (RFC 5737) per attempt: never a real client's. */
function clientAddress(i: number): string {
  return `203.0.113.${(i % 250) + 2}`;
}

/**
 * After a throttle: the same attempt with a made-up client address in each header in turn; a header whose
 * attempts are processed again (`processed`: like the first of the burst, no throttle sign), 3 in a row.
 */
async function addressBypass(ctx: CheckContext, throttled: PreparedRequest, processed: (ex: Exchange) => boolean, n: number, next: (j: number) => Json): Promise<Bypass | null> {
  let j = 0;
  for (const header of ADDRESS_HEADERS) {
    if (ctx.budgetLeft() <= 0) return null;
    const tryOnce = async (): Promise<Exchange | null> => {
      j += 1;
      const ex = await ctx.sendPrepared(mutate(throttled, { bodyValue: next(j), headers: { [header]: clientAddress(n + j) } }), { kind: 'none' });
      return ex.response && processed(ex) && !throttleSign(ex) ? ex : null;
    };
    const got = await tryOnce();
    if (!got) continue;
    const attempts = [got];
    while (attempts.length < BYPASS_TRIES - 1 && ctx.budgetLeft() > 0) {
      const again = await tryOnce();
      if (!again) return null;
      attempts.push(again);
    }
    return attempts.length === BYPASS_TRIES - 1 ? { header, attempts } : null;
  }
  return null;
}

const REMAINING_HEADERS = ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining'];
const LIMIT_HEADERS = ['ratelimit-limit', 'x-ratelimit-limit', 'x-rate-limit-limit'];

/** The count of attempts a rate limit announces are left (RateLimit-Remaining and its X- forms), or null. */
export function remainingOf(ex: Exchange): { header: string; value: number } | null {
  for (const h of REMAINING_HEADERS) {
    const v = Number((ex.header(h) ?? '').split(/[,;]/)[0]);
    if (ex.header(h) !== undefined && Number.isInteger(v) && v >= 0) return { header: h, value: v };
  }
  return null;
}

/**
 * A limit that is there but was not reached by the burst (its remaining count went down with each
 * attempt): an attempt with a new made-up address in a client-address header that finds a fresh count
 * (higher than the burst left), then one without the header that still continues the old count (the
 * window did not simply restart), then a second new address that finds a fresh count again.
 */
async function counterBypass(ctx: CheckContext, request: PreparedRequest, attempts: Exchange[], n: number, next: (j: number) => Json): Promise<{ bypass: Bypass; control: Exchange; sign: string } | null> {
  const counts = attempts.map(remainingOf);
  if (counts.some((c) => c === null) || counts.length < 2) return null;
  const values = counts.map((c) => c!.value);
  // Counting down: the attempts were counted against one bucket.
  if (!values.every((v, i) => i === 0 || v < values[i - 1]!)) return null;
  const last = values[values.length - 1]!;
  const status = attempts[0]!.status;
  let j = 0;
  const send = async (header: string | null) => {
    j += 1;
    return ctx.sendPrepared(mutate(request, { bodyValue: next(j), headers: header ? { [header]: clientAddress(n + j) } : {} }), { kind: 'none' });
  };
  const fresh = (ex: Exchange, above: number) => ex.status === status && (remainingOf(ex)?.value ?? -1) > above;
  for (const header of ADDRESS_HEADERS) {
    if (ctx.budgetLeft() < 3) return null;
    const first = await send(header);
    if (!fresh(first, last)) continue;
    const control = await send(null);
    const continued = remainingOf(control);
    if (!continued || continued.value >= last) return null;
    const second = await send(header);
    if (!fresh(second, continued.value)) return null;
    const limit = LIMIT_HEADERS.map((h) => attempts[0]!.header(h)).find((v) => v !== undefined);
    const counter = { 'ratelimit-remaining': 'RateLimit-Remaining', 'x-ratelimit-remaining': 'X-RateLimit-Remaining' }[counts[0]!.header] ?? 'X-Rate-Limit-Remaining';
    return {
      bypass: { header, attempts: [first, second] },
      control,
      sign: `${limit !== undefined ? `a limit of ${limit.split(/[,;]/)[0]!.trim()} attempts, ` : ''}counted down in ${counter} from ${values[0]} to ${last} by the burst`,
    };
  }
  return null;
}

function bypassFinding(ep: Endpoint, kind: AuthRoute['kind'], throttled: Exchange, sign: string, bypass: Bypass, counted?: { control: Exchange; secret: string }): FindingDraft {
  const what = kind === 'login' ? 'password guesses' : kind === 'reset-confirm' ? `reset guesses (${counted?.secret ?? 'token'})` : 'reset requests';
  if (counted) {
    const fresh = bypass.attempts.map((a) => `${remainingOf(a)?.value}`).join(' and ');
    return {
      parameter: bypass.header,
      name: `Attempt limit bypassed with ${headerName(bypass.header)}`,
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:N',
      description:
        `${describeEndpoint(ep)} limits ${what} (${sign}), but an attempt with a made-up address in ${headerName(bypass.header)} is counted ` +
        `afresh (${fresh} left for two new addresses, while an attempt without the header went on counting down: ${remainingOf(counted.control)?.value}). ` +
        'The rate limit keys on a client address the client itself sends, so an attacker gets a new allowance with every request and guesses at full speed.',
      notes: [`Addresses sent: ${bypass.attempts.map((a) => a.request.headers[bypass.header]).join(', ')} (RFC 5737 documentation range).`],
      exchanges: [
        { label: 'Last attempt of the burst', exchange: throttled },
        { label: `Attack: ${headerName(bypass.header)} with a new address`, exchange: bypass.attempts[0]! },
        { label: 'Control: no client-address header', exchange: counted.control },
        { label: `Attack: ${headerName(bypass.header)} with another new address`, exchange: bypass.attempts[1]! },
      ],
      reproduce: bypass.attempts[1]!,
    };
  }
  return {
    parameter: bypass.header,
    name: `Attempt limit bypassed with ${headerName(bypass.header)}`,
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:N',
    description:
      `${describeEndpoint(ep)} limits ${what} (${sign} after a burst), but the next ${bypass.attempts.length} attempts, each with a different ` +
      `made-up address in ${headerName(bypass.header)}, were processed again (HTTP ${bypass.attempts[0]!.status}, no throttle). The limit ` +
      'keys on a client address the client itself sends, so an attacker resets it at will and guesses at full speed.',
    notes: [`Addresses sent: ${bypass.attempts.map((a) => a.request.headers[bypass.header]).join(', ')} (RFC 5737 documentation range).`],
    exchanges: [
      { label: `Throttled attempt (${sign})`, exchange: throttled },
      { label: `Attack: ${headerName(bypass.header)} with a new address`, exchange: bypass.attempts[bypass.attempts.length - 1]! },
    ],
    reproduce: bypass.attempts[bypass.attempts.length - 1]!,
  };
}

/** The attempt reached the credential check: a refusal of the credential, or an accepted reset request. */
function reachedCheck(kind: AuthRoute['kind'], ex: Exchange): boolean {
  const status = ex.status;
  if (kind === 'reset-request') return status >= 200 && status < 300;
  return status === 401 || status === 403 || (status >= 200 && status < 300 && looksLikeError(ex)) || ((status === 400 || status === 422) && /password|credential|invalid|incorrect|wrong|token|expired|code|answer/i.test(ex.body));
}

const headerName = (h: string) => h.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => `${d}${c.toUpperCase()}`).replace(/\bIp\b/, 'IP');

export const authBruteForce = defineCheck({
  id: 'api2-auth-brute-force',
  title: 'No throttling of login, token or password-reset attempts',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-307',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
  kind: 'active',
  measuresThrottling: true,
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  budget: BURST + TRAILING_TRIES + ADDRESS_HEADERS.length + BYPASS_TRIES,
  needsKey2: false,
  techniques: ['API2.3', 'API2.throttle-bypass'],
  description:
    `On login and token routes (a POST with a user field and a password field) and password-reset routes (request: a user or e-mail field; ` +
    `confirm: a token or code field, or the answer to a security question beside a new password), sends ${BURST} attempts in a row for one user (a user the scan registered for it where it may; else ` +
    'key 1\'s username or e-mail when key 1 is a static key; else the spec\'s example) with wrong passwords, the same reset request, or ' +
    'wrong reset tokens or answers. An attempt answered with a server error (5xx) does not end the series: the next guesses go on, ' +
    'the server errors are counted apart and the finding names them; only when the first ' + `${GIVE_UP_ERRORS} attempts are all server errors, or fewer than half ` +
    'of the burst is processed, is the route left untested, with a note; a burst that ends in server errors gets up to ' +
    `${TRAILING_TRIES} more guesses, and when the answers stay server errors to the end (a limit that fails may answer so) it is left untested too. ` +
    'A 503, or a 5xx with Retry-After or a lockout message, counts as a limit. ' +
    'Finding: every attempt that is processed is processed the same way ' +
    '(no 429, 423 or 503, no Retry-After, no rate-limit header at 0 or sized for logins, no lockout or CAPTCHA message). Medium: a rate limit ' +
    'may sit in front of the application and not show at this volume. When the burst is throttled, the next attempts carry a different ' +
    `client address in X-Forwarded-For (then X-Real-IP, X-Client-IP, True-Client-IP); finding (high) when ${BYPASS_TRIES - 1} of them in a ` +
    'row are processed again: the limit keys on an address the client chooses. Earlier requests of the scan may have used the limit up ' +
    'before the burst: its first attempt throttled, the same test runs. A limit that is there but not reached, its remaining count going ' +
    'down in RateLimit-Remaining or X-RateLimit-Remaining with each attempt, is tested too: finding (high) when an attempt with a new ' +
    'made-up address in one of those headers is counted afresh, an attempt without it goes on counting down (the window did not just ' +
    'restart), and a second new address is counted afresh again (three requests).',
  coverage:
    `A burst of ${BURST} finds missing limits, not weak ones (a limit of 50 attempts per minute passes). A limit enforced per source address ` +
    'by a gateway in front of a staging API may not apply to the scanner. The attempts may lock the targeted account or send reset mails to ' +
    'it; an identity that logs in during the scan is never the target. ' +
    'Short numeric codes (OTP, PIN, verification and reset codes) are left to api2-short-code-brute-force, sign-up flows to the API6 checks.',
  remediation:
    'Limit failed attempts per account and per client (e.g. 5 per 15 minutes per account, with exponential back-off), answer 429 with ' +
    'Retry-After, add a CAPTCHA or step-up after repeated failures, limit reset requests per address, expire reset tokens quickly, and alert ' +
    'on credential-stuffing patterns.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/307.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks'],
  // Short numeric codes (OTP, PIN, verification codes) are the short-code check's (api2-short-code-brute-force).
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && authRoute(e) !== null && !isShortCodeRoute(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const route = authRoute(ep);
    if (!route) return;
    // Baselines first: the burst may trip a limit, and other checks compare with them.
    await ctx.baseline('key1');
    await ctx.baseline('anonymous');
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const props = schemaShape(ep.request_body?.schema ?? null).props;
    // One user for every attempt, so a per-account limit would show.
    const user = await burstUser(ctx);
    const body = user ? asUser(ep, base.bodyValue, user) : base.bodyValue;
    const nextValue = (from: number) => (j: number) => (route.kind === 'reset-request' ? body : { ...body, [route.secret]: wrongSecret(ctx.random, props[route.secret], from + j) });
    const attempts: Exchange[] = [];
    // Server errors are counted apart: an attacker goes on past a guess the API crashed on.
    const serverErrors: Exchange[] = [];
    const series: Exchange[] = [];
    for (let i = 0; i < BURST + TRAILING_TRIES; i += 1) {
      // Past the burst only while the series ends in a server error: is the API still processing guesses?
      if (i >= BURST && series[series.length - 1]!.status < 500) break;
      if (ctx.budgetLeft() <= 0) return;
      const value = route.kind === 'reset-request' ? body : { ...body, [route.secret]: wrongSecret(ctx.random, props[route.secret], i) };
      const ex = await ctx.sendPrepared(mutate(base, { bodyValue: value }), { kind: 'none' });
      if (!ex.response) return;
      series.push(ex);
      // A 503, or a 5xx with a Retry-After or lockout text, may be the limit itself: nothing to prove.
      if (ex.status === 503 || (ex.status >= 500 && throttleSign(ex))) return;
      if (ex.status >= 500) {
        serverErrors.push(ex);
        if (serverErrors.length === GIVE_UP_ERRORS && attempts.length === 0) {
          ctx.note(`${describeEndpoint(ep)}: throttling not tested: the first ${GIVE_UP_ERRORS} attempts were all answered with a server error (${serverErrors.map((x) => x.status).join(', ')}), so the route may be broken or down.`);
          return;
        }
        continue;
      }
      const sign = throttleSign(ex);
      if (sign) {
        // A limit exists: does it trust a client address the client itself sends? Earlier requests of the
        // scan may have used it up before the burst: then any attempt the credential check answers counts.
        const like = attempts.length ? (x: Exchange) => x.status === attempts[0]!.status : (x: Exchange) => reachedCheck(route.kind, x);
        const bypass = await addressBypass(ctx, mutate(base, { bodyValue: value }), like, BURST + i, nextValue(BURST + i));
        if (bypass) yield bypassFinding(ep, route.kind, ex, sign, bypass);
        return;
      }
      attempts.push(ex);
    }
    if (series[series.length - 1]!.status >= 500) {
      // Server errors to the end: a limit may answer so once it is reached (a lockout that throws).
      ctx.note(`${describeEndpoint(ep)}: throttling not tested: the answers were server errors from attempt ${series.length - series.slice().reverse().findIndex((x) => x.status < 500) + 1} on, which may be a limit that fails.`);
      return;
    }
    if (attempts.length < BURST / 2) {
      ctx.note(`${describeEndpoint(ep)}: throttling not tested: ${serverErrors.length} of ${attempts.length + serverErrors.length} attempts were answered with a server error, too few were processed to show a missing limit.`);
      return;
    }
    const statuses = [...new Set(attempts.map((a) => a.status))];
    if (statuses.length !== 1) return;
    const status = statuses[0]!;
    // The attempts must have reached the credential check: a refusal of the credential, or an accepted reset request.
    if (!reachedCheck(route.kind, attempts[0]!)) return;
    // A limit counted in the answers' headers but not reached by the burst: does a client-address header reset it?
    const counted = await counterBypass(ctx, base, attempts, 2 * BURST, nextValue(2 * BURST));
    if (counted) {
      yield bypassFinding(ep, route.kind, attempts[attempts.length - 1]!, counted.sign, counted.bypass, { control: counted.control, secret: route.kind === 'reset-request' ? 'request' : route.secret });
      return;
    }
    const what = route.kind === 'login' ? 'wrong passwords' : route.kind === 'reset-confirm' ? `wrong reset secrets (${route.secret})` : 'password-reset requests for the same account';
    const ms = Math.round(attempts[attempts.length - 1]!.durationMs);
    const sent = attempts.length + serverErrors.length;
    const answered = serverErrors.length
      ? `${attempts.length} answered HTTP ${status} and ${serverErrors.length} with a server error (${[...new Set(serverErrors.map((x) => x.status))].join(', ')}) that did not stop the series`
      : `each answered HTTP ${status}`;
    yield {
      parameter: route.kind === 'reset-request' ? null : route.secret,
      description:
        `${describeEndpoint(ep)} processed ${sent} ${what} in a row, ${answered}, with no sign of throttling (no 429, no ` +
        `Retry-After, no lockout). ${route.kind === 'login' ? 'Passwords can be guessed or stuffed at full speed.' : route.kind === 'reset-confirm' ? 'Reset tokens can be guessed at full speed.' : 'An attacker can flood a user with reset mails and probe accounts.'} ` +
        'A rate limit in front of the application (a gateway, a WAF) may still exist: confirm before closing.',
      notes: [`Statuses: ${series.map((a) => a.status).join(', ')}. Last response time: ${ms} ms.`],
      exchanges: [
        { label: `Attempt ${series.indexOf(attempts[0]!) + 1}`, exchange: attempts[0]! },
        { label: `Attack: attempt ${series.indexOf(attempts[attempts.length - 1]!) + 1}`, exchange: attempts[attempts.length - 1]! },
      ],
    };
  },
});
