// API3:2023 Broken Object Property Level Authorization, inside tokens: the claims of the JWTs the
// API issues (the identities' own logins, any answer's body or Set-Cookie) read like response
// bodies. A JWT's payload is only base64: whoever holds or intercepts the token reads it.

import type { Endpoint } from '../../../../shared/contract';
import { Exchange, type KeyNumber } from '../../http/exchange';
import { JWT_VALUE, twoFactorRoute } from '../api2-authentication/token-exposure';
import { defineCheck, describeEndpoint, forEachLimit } from '../common/helpers';
import { identityMarks, isObj, marksIn, otherKey } from '../common/objects';
import { OWASP_API3 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { findSensitive, KIND_TEXT, masked, type Sensitive, type SensitiveKind } from './data-exposure';

const JWT_ANYWHERE = new RegExp(JWT_VALUE.source, 'g');
const SECRET_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N';
const HOLDER_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N';

interface IssuedToken {
  token: string;
  claims: Record<string, unknown>;
  exchange: Exchange;
  /** "key 1's login", "the answer to key 1". */
  who: string;
  /** The slot the token was issued to, when known. */
  key: KeyNumber | null;
}

/** The payload of a JWT as an object; null when it is not one (encrypted, or not JSON). */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** Every JWT an answer carries: in its body (anywhere) and its response headers (Set-Cookie, Authorization...). */
function jwtsIn(ex: Exchange): string[] {
  if (!ex.response) return [];
  const texts = [ex.body, ...Object.values(ex.response.headers)];
  return [...new Set(texts.flatMap((t) => t.match(JWT_ANYWHERE) ?? []))];
}

/** A copy of the exchange with the tokens masked in the answer's body and headers (identities' tokens are redacted anyway; the others too). */
function withTokensMasked(ex: Exchange, tokens: readonly string[]): Exchange {
  if (!ex.response) return ex;
  const mask = (text: string) => tokens.reduce((t, tok) => t.split(tok).join(`${tok.slice(0, 6)}…[JWT masked by Portcullis]`), text);
  const headers = Object.fromEntries(Object.entries(ex.response.headers).map(([k, v]) => [k, mask(v)]));
  return new Exchange(ex.seq, ex.request, { ...ex.response, headers, body: mask(ex.response.body) }, ex.error, ex.durationMs, ex.redirects, ex.blockedRedirect);
}

/** The spec's operation an exchange was sent to (logins are not sent through a check's endpoint). */
function endpointOf(ctx: CheckContext, ex: Exchange): Endpoint | null {
  const url = new URL(ex.request.url);
  return (
    ctx.allEndpoints.find((e) => {
      if (e.method !== ex.request.method) return false;
      const template = ctx.url(e.path).pathname.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/(%7B|\{)[^/]*?(%7D|\})/gi, '[^/]+');
      return new RegExp(`^${template}$`).test(url.pathname);
    }) ?? null
  );
}

/** The tokens the API issued in this scan: the identities' logins first, then every baseline answer of the scanned endpoints. */
async function issuedTokens(ctx: CheckContext): Promise<IssuedToken[]> {
  const out = new Map<string, IssuedToken>();
  const add = (ex: Exchange | null | undefined, who: string, key: KeyNumber | null) => {
    if (!ex?.ok) return;
    for (const token of jwtsIn(ex)) {
      const claims = jwtClaims(token);
      if (claims && !out.has(token)) out.set(token, { token, claims, exchange: ex, who, key });
    }
  };
  for (const k of [1, 2, 3, 4] as const) for (const ex of ctx.loginExchanges(k)) add(ex, `key ${k}'s login`, k);
  await forEachLimit(ctx.endpoints, ctx.parallelism, async (e) => {
    add(await ctx.baseline('key1', e), 'an answer to key 1', 1);
    if (!ctx.authSpec(e).declaredSecured) add(await ctx.baseline('anonymous', e), 'an answer without credentials', null);
  });
  return [...out.values()];
}

/** Another user's identifying values (e-mail, username, id from their /me) among a token's claims. */
function otherUsersData(ctx: CheckContext, t: IssuedToken): string[] {
  if (t.key !== 1 && t.key !== 2) return [];
  if (t.key === 2 && !ctx.hasKey2) return [];
  const text = JSON.stringify(t.claims);
  return marksIn(identityMarks(ctx, otherKey(t.key)), text).filter((m) => !/^\d+$/.test(m));
}

function claimLines(claims: Record<string, unknown>, hits: readonly Sensitive[]): string {
  return Object.keys(claims)
    .map((name) => {
      const hit = hits.find((h) => h.path === name || h.path.startsWith(`${name}.`) || h.path.startsWith(`${name}[`));
      return hit ? `${name} = ${masked(hit.value)}` : name;
    })
    .join(', ');
}

function finding(ctx: CheckContext, t: IssuedToken, kind: SensitiveKind | 'other-users-data', hits: Sensitive[], others: string[]): FindingDraft {
  const endpoint = endpointOf(ctx, t.exchange);
  const url = new URL(t.exchange.request.url);
  const where = endpoint ? describeEndpoint(endpoint) : `${t.exchange.request.method} ${url.pathname}`;
  const what = kind === 'other-users-data' ? 'another user\'s identifying data (key 2\'s e-mail or username)' : KIND_TEXT[kind];
  const severe = kind === 'private-key' || kind === 'api-key';
  const fields = kind === 'other-users-data' ? [] : [...new Set(hits.map((h) => h.path))];
  return {
    endpoint,
    method: endpoint ? undefined : t.exchange.request.method,
    path: endpoint ? undefined : url.pathname,
    parameter: `token-${kind}`,
    name: kind === 'other-users-data' ? 'Token issued by the API carries other users\' data' : `Token issued by the API carries ${KIND_TEXT[kind]}`,
    confidence: 'high',
    cvss: severe ? SECRET_CVSS : HOLDER_CVSS,
    description:
      `${where} issues a JWT (in ${t.who}) whose claims carry ${what}${fields.length ? ` (${fields.join(', ')})` : ''}. A JWT's payload is ` +
      'only base64-encoded, not encrypted: the token\'s holder, and anyone who reads it from browser storage, logs or a proxy, decodes it. ' +
      (kind === 'password-hash' || kind === 'plaintext-password' ? 'A password hash in a token can be cracked offline.' : ''),
    recommendation:
      'Put only an opaque subject id, expiry and the few claims clients need into tokens (sub, exp, iat, scope); look everything else up ' +
      'server-side. Never put passwords, hashes, secrets, keys or other users\' data into a JWT; use an encrypted token (JWE) if a claim must be private.',
    notes: [
      `Claims of the token: ${claimLines(t.claims, hits)}.`,
      ...(others.length ? [`Values of key 2's identity (from its /me) found in the claims: ${others.map((o) => masked(o)).join(', ')}.`] : []),
      'The token itself is masked in the exchange below; the values are shown masked.',
    ],
    exchanges: [{ label: `The answer that issued the token (${t.who})`, exchange: withTokensMasked(t.exchange, [t.token]) }],
    reproduce: t.exchange,
  };
}

export const tokenClaims = defineCheck({
  id: 'api3-token-claims',
  title: 'Token issued by the API carries sensitive data',
  flag: 'BOPLA',
  owasp: 'API3:2023',
  cwe: 'CWE-200',
  confidence: 'high',
  cvss: HOLDER_CVSS,
  kind: 'passive',
  safety: 'safe',
  scope: 'api',
  budget: 0,
  techniques: ['API3.2'],
  description:
    'Decodes the payload of every JWT the API issued during the scan: the answers of the identities\' own logins, and every baseline ' +
    'answer (body and headers, Set-Cookie included). The claims are read with the same rules as response bodies (excessive data exposure): ' +
    'password hashes and plain-text passwords, secrets and API keys, private keys, card numbers, national id numbers, each needing its name ' +
    'and its value; and another user\'s e-mail or username (from their /me) in a token issued to key 1 or key 2. Standard claims (sub, exp, ' +
    'iat, iss, aud, jti, scope, role) are not findings, nor is the holder\'s own two-factor secret in a token a two-factor route gives it. ' +
    'No request of its own.',
  coverage:
    'Only JWTs (three base64url parts with a JSON payload): encrypted tokens (JWE) and opaque tokens cannot be read. Tokens issued only by ' +
    'flows the scan does not run (a refresh, another grant) are not seen.',
  remediation: 'Keep tokens to an opaque subject, expiry and scopes; look the rest up server-side.',
  references: [OWASP_API3, 'https://cwe.mitre.org/data/definitions/200.html', 'https://cheatsheetseries.owasp.org/cheatsheets/JSON_Web_Token_for_Java_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('BOPLA') || e.flags.includes('BKEN_AUTH'),
  async *run(ctx) {
    const seen = new Set<string>();
    for (const t of await issuedTokens(ctx)) {
      const hits = findSensitive(t.claims, '');
      const byKind = new Map<SensitiveKind, Sensitive[]>();
      for (const h of hits) byKind.set(h.kind, [...(byKind.get(h.kind) ?? []), h]);
      const others = otherUsersData(ctx, t);
      const where = `${t.exchange.request.method} ${new URL(t.exchange.request.url).pathname}`;
      // A two-factor route's token for its own holder carries the holder's own enrolment secret: theirs to have.
      const issuer = endpointOf(ctx, t.exchange);
      const ownSecondFactor = t.key !== null && !!issuer && twoFactorRoute(issuer);
      for (const [kind, list] of byKind) {
        if (ownSecondFactor && kind === 'api-key') continue;
        if (seen.has(`${where} ${kind}`)) continue;
        seen.add(`${where} ${kind}`);
        yield finding(ctx, t, kind, list, []);
      }
      if (others.length && !seen.has(`${where} other`)) {
        seen.add(`${where} other`);
        yield finding(ctx, t, 'other-users-data', hits, others);
      }
    }
  },
});
