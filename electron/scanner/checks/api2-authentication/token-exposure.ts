// API2:2023 Broken Authentication: keys accepted in the URL, and tokens in answers that should not
// carry them.


import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { findLoginOperation } from '../../identities/accounts';
import { differenceMarker } from '../../proof';
import { mutate } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { isObj, maskBody } from '../common/objects';
import { asUser, authRoute, routeWords } from './brute-force';
import { authProbe, JWT_CVSS } from './jwt-tampering';
import { otherIdentityEmails } from '../common/ownership';
import { OWASP_API2 } from '../common/references';
import type { CheckContext } from '../types';

// ---------------------------------------------------------------- brute force on login / token / reset
// ---------------------------------------------------------------- credentials in the URL

const QUERY_NAMES = ['access_token', 'api_key', 'apikey', 'token', 'key', 'apiKey', 'accessToken', 'auth', 'jwt', 'auth_token', 'api-key', 'x-api-key'];

export const credentialsInUrl = defineCheck({
  id: 'api2-credentials-in-url',
  title: 'Credentials accepted in the URL',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-598',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: QUERY_NAMES.length + 1,
  needsKey2: false,
  techniques: ['API2.4'],
  description:
    `On an endpoint where key 1 gets content and a request without credentials is refused (a /me-like one first), sends key 1 in the query ` +
    `string instead of its header, under the usual names (${QUERY_NAMES.slice(0, 6).join(', ')}...), until one works; then the same name with a ` +
    'made-up value as a control. Finding: the key in the URL answers 2xx with key 1\'s data and the made-up value is refused.',
  coverage:
    'Tests one endpoint (the API\'s authentication is normally shared); APIs whose spec declares a query-string key are reported only for ' +
    'names it does not declare. The test itself puts key 1 in URLs, so it lands in the target\'s access logs: scan with a test account\'s key.',
  remediation:
    'Accept credentials only in the Authorization header (or a cookie for browsers); ignore them in query strings. URLs end up in server and ' +
    'proxy logs, browser history and Referer headers.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/598.html', 'https://owasp.org/www-community/vulnerabilities/Information_exposure_through_query_strings_in_url'],
  async *run(ctx) {
    const raw = ctx.credential(1);
    if (!raw) return;
    const key = raw.replace(/^(bearer|token)\s+/i, '').trim();
    const probe = await authProbe(ctx);
    if (!probe) {
      ctx.note('Credentials in the URL: no GET endpoint where key 1 gets content and a request without credentials is refused; not tested.');
      return;
    }
    const declared = new Set(ctx.authSpec(probe.endpoint).placements.filter((p) => p.in === 'query').map((p) => p.name.toLowerCase()));
    for (const name of QUERY_NAMES) {
      if (declared.has(name.toLowerCase()) || ctx.budgetLeft() < 2) continue;
      const req = mutate(probe.request, { query: { [name]: key } });
      const ex = await ctx.sendPrepared(req, { kind: 'none' });
      if (!(await probe.asKey1(ex))) continue;
      const control = await ctx.sendPrepared(mutate(probe.request, { query: { [name]: ctx.random.alnum(Math.max(16, Math.min(key.length, 64))) } }), { kind: 'none' });
      if (control.ok) return;
      yield {
        endpoint: probe.endpoint,
        parameter: name,
        description:
          `${describeEndpoint(probe.endpoint)} accepts key 1 in the query string (?${name}=...) and answers ${ex.status} with key 1's data, while a ` +
          `request without credentials gets ${probe.anon.status} and a made-up ${name} gets ${control.status}. Keys in URLs are written to server, ` +
          'proxy and browser logs and leak through Referer headers.',
        exchanges: [
          { label: 'Baseline', exchange: probe.key1 },
          { label: 'Baseline', exchange: probe.anon },
          { label: `Attack: key 1 in ?${name}`, exchange: ex },
          { label: `Control: a made-up ${name}`, exchange: control },
        ],
        reproduce: ex,
        // Key 1's data, which the made-up value's refusal lacks.
        proof: { marker: differenceMarker(ex, control) },
      };
      return;
    }
  },
});

// ---------------------------------------------------------------- tokens in responses

const ISSUING_ROUTE = /(^|[^a-z])(log-?in|sign-?in|signon|sign-?up|register|registration|token|tokens|oauth2?|authenticate|authorize|session|sessions|refresh|sso|callback|exchange|impersonat\w*|api-?keys?|credentials?)([^a-z]|$)/i;
const TOKEN_KEY = /token|jwt|session_?id|^sid$|otp|one_?time|magic_?link|reset_?(code|key|link|url)|verification_?code|confirm(ation)?_?code|^code$/i;
export const JWT_VALUE = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/;

/** Two-factor enrolment (POST /2fa/setup, /mfa/enable): its answer gives the caller its own setup secret. */
const TWO_FACTOR_SETUP = /(2fa|mfa|totp|two[-_ ]?factor|authenticator)/i;
/** A two-factor route (enrolment, status, verification): what it hands its caller about the caller's own second factor is theirs. */
export function twoFactorRoute(e: Endpoint): boolean {
  return TWO_FACTOR_SETUP.test(routeWords(e));
}
const SETUP_ACTION = /(^|[^a-z])(setup|set[-_ ]?up|enable|enrol+|activate|provision|register|new)([^a-z]|$)/i;

/** The operations the scan itself gets credentials from (its login and sign-up): their answers carry the token it asked for. */
function scansOwnIssuer(ctx: CheckContext, e: Endpoint): boolean {
  const same = (x: Endpoint | undefined | null) => !!x && x.method === e.method && x.path === e.path;
  return same(ctx.accounts?.signupEndpoint) || same(findLoginOperation(ctx.allEndpoints)?.endpoint);
}

const bare = (credential: string | null) => (credential ?? '').replace(/^(bearer|basic|token)\s+/i, '').trim();

/**
 * Whose credential a value is, among the scan's own: 'own' for the requester's (the token it sent or
 * asked for, echoed back to it), 'other' for another identity's (a real leak), null when neither.
 */
function credentialOwner(ctx: CheckContext, value: string, requester: KeyNumber | null): 'own' | 'other' | null {
  for (const k of [1, 2, 3, 4] as const) {
    const c = bare(ctx.credential(k));
    if (c.length < 8 || (c !== value && !c.includes(value))) continue;
    return k === requester ? 'own' : 'other';
  }
  return null;
}

function highEntropy(v: string): boolean {
  if (v.length < 16 || v.length > 4096 || /\s/.test(v) || /^https?:/i.test(v) || /^\d{4}-\d{2}-\d{2}/.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(v)).length;
  return classes >= 2 && new Set(v).size >= 10 && !/^(.)\1+$/.test(v) && !/[*•…]|x{4,}/i.test(v);
}

export interface TokenHit {
  path: string;
  value: string;
  kind: 'reset' | 'otp' | 'session' | 'jwt';
  /** Another identity of the scan holds this very credential. */
  others?: boolean;
}

/** Token-like values in a body: by property name and value shape, or JWTs anywhere; never what the request sent. */
export function findTokens(value: unknown, sentText: string): TokenHit[] {
  const hits: TokenHit[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 6 || hits.length > 10) return;
    if (Array.isArray(v)) {
      v.slice(0, 20).forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
      return;
    }
    if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    if (typeof v !== 'string' && typeof v !== 'number') return;
    const s = String(v);
    if (!s || sentText.includes(s)) return;
    const key = path.split('.').pop()!.replace(/\[\d+\]$/, '');
    if (JWT_VALUE.test(s)) return void hits.push({ path, value: s, kind: 'jwt' });
    if (!TOKEN_KEY.test(key) || /type|expir|ttl|hint|url$|uri$|length|count|format|method|status/i.test(key)) return;
    const otpLike = /otp|one_?time|code/i.test(key) && /^\d{4,8}$/.test(s);
    if (!otpLike && !highEntropy(s)) return;
    hits.push({ path, value: s, kind: /reset|magic|verification|confirm/i.test(key) ? 'reset' : otpLike || /otp|one_?time|^code$/i.test(key) ? 'otp' : 'session' });
  };
  walk(value, '', 0);
  return hits;
}

export const tokenInResponse = defineCheck({
  id: 'api2-token-in-response',
  title: 'Token exposed in a response',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-640',
  confidence: 'medium',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  needsKey2: false,
  techniques: ['API2.4'],
  description:
    'Reads each endpoint\'s baseline answers (key 1, and without credentials for public routes), and on password-reset and code-sending ' +
    'routes sends one request for key 1\'s own account (its e-mail or username from /me), looking for credentials that should ' +
    'reach the user another way or not at all: password-reset tokens and codes, one-time codes, session tokens and JWTs. A value counts when its property is named like a token and it looks like one (random, ≥ 16 characters; a 4-8 digit ' +
    'code for OTPs), or a JWT, and is not something the request itself sent: that is a finding. Routes whose job is to issue tokens (login, ' +
    'sign-up, token, OAuth, session, refresh, and the login and sign-up operations the scan itself uses) are not reported, nor is the ' +
    'requester\'s own credential echoed to it or its own two-factor setup secret (the answer of a 2FA enrolment to the caller, or a setup ' +
    'token any two-factor route gives the caller), nor tokens in the items of a listing that shows other identities\' e-mail addresses ' +
    '(other users\' records: api3-excessive-data-exposure reports them with the addresses); another ' +
    'identity\'s credential in an answer is (high).',
  coverage:
    'Other routes are read passively: a token returned only for some inputs is found only when the baseline hits that case. The reset ' +
    'request for key 1\'s account may send it a reset mail.',
  remediation:
    'Send reset links and one-time codes only through the out-of-band channel (mail, SMS) and answer the API call with the same generic ' +
    'message whatever the input. Never echo credentials; return session tokens only from the endpoints that issue them.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/640.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Forgot_Password_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && !ISSUING_ROUTE.test(routeWords(e)),
  async *run(ctx) {
    const ep = ctx.endpoint;
    // The scan's own login and sign-up answers carry the token the client asked for: the normal contract.
    if (scansOwnIssuer(ctx, ep)) return;
    const twoFactor = twoFactorRoute(ep);
    const ownSetup = twoFactor && SETUP_ACTION.test(routeWords(ep));
    const answers: { ex: Exchange | null; who: string; key: KeyNumber | null }[] = [];
    const key1 = await ctx.baseline('key1');
    answers.push({ ex: key1, who: 'key 1', key: 1 });
    if (!ctx.authSpec().declaredSecured) answers.push({ ex: await ctx.baseline('anonymous'), who: 'no credentials', key: null });
    // Reset and code-sending routes answer differently for a registered account: ask for key 1's own.
    const route = authRoute(ep);
    if ((route?.kind === 'reset-request' || /(^|[^a-z])(otp|code|verification)([^a-z]|$)/i.test(routeWords(ep))) && ctx.budgetLeft() > 0) {
      const base = await ctx.prepare(ep, 1, 'write');
      if (base && isObj(base.bodyValue)) {
        const body = asUser(ep, base.bodyValue, ctx.identities.key1.values);
        if (JSON.stringify(body) !== JSON.stringify(base.bodyValue) || ep.request_body === null) {
          const auth = ctx.authSpec().declaredSecured ? ({ kind: 'key', key: 1 } as const) : ({ kind: 'none' } as const);
          answers.push({ ex: await ctx.sendPrepared(mutate(base, { bodyValue: body }), auth), who: 'key 1\'s own account', key: auth.kind === 'key' ? 1 : null });
        }
      }
    }
    for (const { ex, who, key } of answers) {
      if (!ex?.ok) continue;
      const json = ex.json();
      if (json === undefined) continue;
      const sent = `${ex.request.url} ${ex.request.body ?? ''}`;
      // Items of a listing that shows other identities of the scan are other users' records: their tokens
      // are part of that exposure (api3-excessive-data-exposure reports them together), not a token this route issues.
      const othersListed = key !== null && otherIdentityEmails(ctx, key).some((o) => ex.body.includes(o.value));
      const hits = findTokens(json, sent).flatMap((h) => {
        if (othersListed && /\[\d+\]/.test(h.path)) return [];
        const owner = credentialOwner(ctx, h.value, key);
        // The requester's own credential, or its own two-factor setup secret: what it asked for. Any
        // two-factor route (its status too) may hand the caller its own enrolment secret or setup
        // token; a one-time code or reset token there is still the flaw (it belongs in a text or mail).
        if (owner === 'own' || (owner === null && ownSetup && key !== null)) return [];
        if (owner === null && twoFactor && key !== null && (h.kind === 'jwt' || h.kind === 'session')) return [];
        return [{ ...h, others: owner === 'other' }];
      });
      if (!hits.length) continue;
      const hit = hits.find((h) => h.others) ?? hits.find((h) => h.kind === 'reset') ?? hits.find((h) => h.kind === 'otp') ?? hits[0]!;
      const severe = hit.kind === 'reset' || hit.kind === 'otp' || !!hit.others;
      const what = hit.others
        ? 'another user\'s credential (a token another identity of the scan holds)'
        : hit.kind === 'reset'
          ? 'a password-reset token'
          : hit.kind === 'otp'
            ? 'a one-time code'
            : hit.kind === 'jwt'
              ? 'a JWT'
              : 'a session token';
      yield {
        parameter: hit.path,
        cvss: severe ? JWT_CVSS : 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
        description:
          `${describeEndpoint(ep)} returns ${what} in its response body (${hit.path}) to a request ${who === 'no credentials' ? 'without credentials' : `as ${who}`}. ` +
          (hit.others
            ? 'Whoever receives this answer can act as that user.'
            : severe
            ? 'Whoever calls it for a victim\'s account receives what should only reach the victim\'s inbox or phone, and can take the account over.'
            : 'Credentials in responses of endpoints that do not issue them end up in logs, caches and client code.'),
        notes: [`Found: ${hits.map((h) => `${h.path} (${h.kind}, ${h.value.length} characters)`).join(', ')}. The values are masked in the exchange below.`],
        exchanges: [{ label: `Attack: request as ${who}`, exchange: maskBody(ex, hits.map((h) => ({ value: h.value, mask: `${h.value.slice(0, Math.min(4, Math.floor(h.value.length / 4)))}…[masked by Portcullis]` }))) }],
        reproduce: ex,
      };
      return;
    }
  },
});
