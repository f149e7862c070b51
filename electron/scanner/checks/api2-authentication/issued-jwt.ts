// API2:2023 Broken Authentication: a JWT the API hands out from one of its own operations (a login, a
// token or sign-up route answering the scan's request) tampered on the operations it authenticates,
// when the scan's own credential is not a JWT. An API often has several ways in; the token-tampering
// check only sees the one the scan was given.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { pathParamNames, type PreparedRequest } from '../../requests';
import { compareBodies, isEmptyBody } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { carriesDataOf, looksLikeError } from '../common/objects';
import type { CheckContext, FindingDraft } from '../types';
import { crackJwt, JWT_CVSS, parseJwt } from './jwt-tampering';
import { JWT_VALUE } from './token-exposure';
import { createHmac } from 'node:crypto';

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
/** Operations that issue tokens by their path: login, token, session, auth, jwt. */
const ISSUER_WORDS = /(^|[/_-])(log-?in|sign-?in|token|tokens|session|sessions|auth|authenticate|jwt)([/_-]|$)/i;
const TOKEN_WORDS = /(^|[/_-])(token|tokens|jwt)([/_-]|$)/i;
const MAX_ISSUERS = 3;
const MAX_TARGETS = 3;

interface Issued {
  token: string;
  issuer: string;
  answer: Exchange;
}

function jwtIn(ex: Exchange | null | undefined): string | null {
  if (!ex?.ok) return null;
  const m = JWT_VALUE.exec(ex.body) ?? JWT_VALUE.exec(ex.header('authorization') ?? '');
  return m && parseJwt(m[0]) ? m[0] : null;
}

/** A JWT the API issued in this scan: key 1's login answers, the scan's creates, else a POST named like a login or token route, sent once. */
async function issuedJwt(ctx: CheckContext): Promise<Issued | null> {
  for (const ex of ctx.loginExchanges(1)) {
    const token = jwtIn(ex);
    if (token) return { token, issuer: `${ex.request.method} ${new URL(ex.request.url).pathname}`, answer: ex };
  }
  for (const o of ctx.resources.created) {
    const token = jwtIn(o.exchange);
    if (token) return { token, issuer: describeEndpoint(o.producer), answer: o.exchange };
  }
  // Routes that name tokens first (/jwt, /token): a plain login more often wants real credentials.
  const issuers = ctx.allEndpoints
    .filter((e) => !e.graphql && e.method === 'POST' && pathParamNames(e.path).length === 0 && !!e.request_body && ISSUER_WORDS.test(e.path))
    .map((e, i) => ({ e, i, rank: TOKEN_WORDS.test(e.path) ? 0 : 1 }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_ISSUERS)
    .map((x) => x.e);
  for (const e of issuers) {
    if (ctx.budgetLeft() <= 0) return null;
    const request = await ctx.prepare(e, 1, 'write');
    if (!request) continue;
    const answer = await ctx.sendPrepared(request, { kind: 'none' });
    const token = jwtIn(answer);
    if (token) return { token, issuer: describeEndpoint(e), answer };
  }
  return null;
}

/** Shared path segments from the start: the operations nearest the issuer are tried first. */
function nearness(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n += 1;
  return n;
}

export const issuedJwtTampering = defineCheck({
  id: 'api2-issued-jwt-tampering',
  title: 'Tampered JWT accepted (a token the API issued)',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-347',
  confidence: 'high',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 3 + MAX_TARGETS * 2 + 7,
  needsKey2: false,
  techniques: ['API2.2'],
  description:
    'When key 1 is not a JWT: takes a JWT the API issued in this scan — in key 1\'s login answers, in the answer to one of the scan\'s ' +
    'creates, else in the answer to a POST named like a login, token, session or JWT route, sent once with the scan\'s own values. It ' +
    'sends that token, where the operation takes its credential, to reads without path parameters that key 1 is refused (401/403), nearest ' +
    'the issuing route first, to find the ones the token opens; there, a made-up JWT as a control, then the token with its signature ' +
    'stripped, rebuilt with `alg: none` (also "None", "NONE"), with its signature altered, and re-signed with a well-known HMAC secret ' +
    'when one matches offline. Finding: a tampered token gets the genuine token\'s answer while the made-up one is refused.',
  coverage:
    'Only tokens in JSON answers or an Authorization header, and only GETs without path parameters as the operations they open. A login ' +
    'that needs real credentials issues nothing to the scan\'s made-up values (give the identity a `login:` recipe instead: the ' +
    'token-tampering check then tampers its token). Claims are not changed (the token-tampering check does that for key 1).',
  remediation:
    'Verify every token with a library that pins the expected algorithm(s) (never `none`, never the algorithm the token names) and checks ' +
    'the signature over header and payload on every route that accepts it; use a long random signing secret from a secret store.',
  references: ['https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/', 'https://cwe.mitre.org/data/definitions/347.html', 'https://portswigger.net/web-security/jwt'],
  appliesTo: (e) => !e.graphql,
  async *run(ctx) {
    if (parseJwt(ctx.credential(1))) return; // The token-tampering check tampers key 1's own JWT.
    const issued = await issuedJwt(ctx);
    if (!issued) {
      ctx.skip('The API issued no JWT to the scan (key 1 is not one, and no login, token or create answer carried one).');
      return;
    }
    const jwt = parseJwt(issued.token)!;
    const issuerPath = new URL(issued.answer.request.url).pathname;
    const reads = ctx.allEndpoints
      .filter((e) => !e.graphql && e.method === 'GET' && pathParamNames(e.path).length === 0)
      .map((e, i) => ({ e, i, near: nearness(ctx.url(e.path).pathname, issuerPath) }))
      .sort((a, b) => b.near - a.near || a.i - b.i)
      .map((x) => x.e);
    const opened: { endpoint: Endpoint; request: PreparedRequest; genuine: Exchange; refused: Exchange }[] = [];
    for (const e of reads) {
      if (opened.length >= MAX_TARGETS || ctx.budgetLeft() < 8) break;
      const refused = await ctx.baseline('key1', e);
      if (refused?.status !== 401 && refused?.status !== 403) continue;
      const request = await ctx.baselineRequest(e, 'key1');
      if (!request) continue;
      const genuine = await ctx.sendPrepared(request, { kind: 'credential', value: issued.token, label: 'the JWT the API issued' });
      if (genuine.ok && !isEmptyBody(genuine) && !looksLikeError(genuine)) opened.push({ endpoint: e, request, genuine, refused });
    }
    if (!opened.length) {
      ctx.note(`JWT from ${issued.issuer}: no read that key 1 is refused accepts it; not tampered with.`);
      return;
    }
    const flipped = jwt.sig.length > 4 ? `${jwt.sig.slice(0, -4)}${[...jwt.sig.slice(-4)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}` : ctx.random.base64url(32);
    const variants: { id: string; name: string; token: string; what: string }[] = [
      { id: 'signature-stripped', name: 'JWT without signature accepted', token: `${jwt.h}.${jwt.p}.`, what: 'with its signature removed' },
      ...['none', 'None', 'NONE'].map((alg) => ({ id: 'alg-none', name: 'JWT with "alg": "none" accepted', token: `${enc({ ...jwt.header, alg })}.${jwt.p}.`, what: `rebuilt with "alg": "${alg}" and no signature` })),
      { id: 'signature-altered', name: 'JWT with an altered signature accepted', token: `${jwt.h}.${jwt.p}.${flipped}`, what: 'with its signature altered' },
    ];
    const secret = crackJwt(jwt);
    const alg = String(jwt.header.alg).toUpperCase();
    if (secret !== null && HMAC[alg]) {
      const p = enc({ ...jwt.payload, jti: `portcullis-${ctx.random.alnum(10)}` });
      variants.push({ id: 'weak-secret', name: 'JWT signed with a guessable secret', token: `${jwt.h}.${p}.${createHmac(HMAC[alg]!, secret).update(`${jwt.h}.${p}`).digest('base64url')}`, what: `re-signed with a well-known HMAC secret (${secret.length} characters) after editing its claims` });
    }
    const target = opened[0]!;
    const send = (token: string, label: string) => ctx.sendPrepared(target.request, { kind: 'credential', value: token, label } satisfies RequestAuth);
    const control = await send(`${enc({ alg: String(jwt.header.alg), typ: 'JWT' })}.${enc({ ...jwt.payload, sub: `portcullis-${ctx.random.alnum(8)}`, jti: ctx.random.alnum(12) })}.${ctx.random.base64url(32)}`, 'made-up JWT');
    const same = (ex: Exchange): boolean => {
      if (!ex.ok || looksLikeError(ex) || isEmptyBody(ex)) return false;
      if (carriesDataOf(ex, target.genuine)) return true;
      const sim = compareBodies(ex, target.genuine);
      return sim.json && sim.structure >= 0.95;
    };
    const finding = (id: string, name: string, what: string, ex: Exchange, withControl: boolean): FindingDraft => ({
      endpoint: target.endpoint,
      parameter: id,
      name,
      description:
        `${describeEndpoint(target.endpoint)} accepted ${what}, and answered ${ex.status} as for the genuine token ${issued.issuer} issued` +
        (withControl ? `, while a made-up token is refused (HTTP ${control.status})` : '') +
        '. The API does not verify its tokens properly: anyone can forge one.',
      notes: [`Token header: ${JSON.stringify(jwt.header)}; claims: ${JSON.stringify(jwt.payload).slice(0, 300)}.`, `Key 1 is refused here (HTTP ${target.refused.status}); the issued token is accepted (HTTP ${target.genuine.status}).`],
      exchanges: [
        { label: `Baseline: ${issued.issuer} issues the token`, exchange: issued.answer },
        { label: 'Baseline: the genuine token', exchange: target.genuine },
        ...(withControl ? [{ label: 'Control: a made-up JWT', exchange: control }] : []),
        { label: `Attack: ${id}`, exchange: ex },
      ],
      reproduce: ex,
    });
    // A token with the issued claims and a random signature is accepted: no signature is checked at all, and the variants prove nothing more.
    if (same(control)) {
      yield finding('made-up-signature', 'JWT with any signature accepted', 'a JWT with the claims of the one the API issued and a random signature', control, false);
      return;
    }
    if (control.ok && !looksLikeError(control)) return;
    const reported = new Set<string>();
    for (const v of variants) {
      if (reported.has(v.id) || ctx.budgetLeft() <= 0) continue;
      const ex = await send(v.token, `tampered JWT (${v.id})`);
      if (!same(ex)) continue;
      reported.add(v.id);
      yield finding(v.id, v.name, `the JWT that ${issued.issuer} issued ${v.what}`, ex, true);
    }
  },
});
