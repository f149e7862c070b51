// API2:2023: a token passed as an argument (a GraphQL field's `token:`, a REST `?token=`) rather than
// in a header is a credential too, and is tampered like one: made up, unsigned, its signature stripped
// or altered, re-signed with a guessable secret. The header check never sees these.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { compareBodies } from '../../similarity';
import { argumentPoints } from '../common/graphql-inputs';
import { graphqlAnswer, operationOf, resolved } from '../common/graphql';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { freshRequest, injectionPoints, type InjectionPoint } from '../common/input-points';
import { carriesDataOf, looksLikeError } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import type { CheckContext } from '../types';
import { crackJwt, JWT_CVSS, parseJwt } from './jwt-tampering';
import { JWT_VALUE } from './token-exposure';
import { createHmac } from 'node:crypto';

/** Parameter and argument names that take a session or access token. */
export const TOKEN_ARGUMENT = /^(token|jwt|access_?token|auth_?token|id_?token|session_?token|bearer|authorization)$/i;

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/** Claims that date a token rather than name its holder: kept in the control so that it is not refused as expired. */
const TIME_CLAIM = /^(iat|exp|nbf|auth_time)$/;

/**
 * The control's claims: every string and every number but the times made up, so that it names nobody whatever claim the
 * server reads the holder from (`sub`, `identity`, `username`, `user_id`...). A server that skips the signature then
 * finds no one, while the tampered variants keep key 1's claims.
 */
function madeUpClaims(payload: Record<string, unknown>, random: CheckContext['random']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (typeof v === 'string') out[k] = `portcullis-${random.alnum(8)}`;
    else if (typeof v === 'number' && !TIME_CLAIM.test(k)) out[k] = 900_000_000 + random.int(0, 99_999_999);
    else out[k] = v;
  }
  out.sub = `portcullis-${random.alnum(8)}`;
  return out;
}

function tokenParameter(e: Endpoint): string | null {
  const p = e.parameters.find((x) => (e.graphql ? x.in === 'argument' : x.in === 'query') && TOKEN_ARGUMENT.test(x.name));
  return p?.name ?? null;
}

/** A JWT the API handed key 1: its credential, one its login answered with, else one in key 1's answers (a share or link token). */
async function ownJwt(ctx: CheckContext): Promise<string | null> {
  const cred = (ctx.credential(1) ?? '').replace(/^bearer\s+/i, '').trim();
  if (parseJwt(cred)) return cred;
  const fromBody = (ex: Exchange | null) => {
    const m = ex ? JWT_VALUE.exec(ex.body) : null;
    return m && parseJwt(m[0]) ? m[0] : null;
  };
  for (const ex of ctx.loginExchanges(1)) {
    const found = fromBody(ex);
    if (found) return found;
  }
  // Reads without required inputs: GraphQL queries without required arguments, GETs without path parameters.
  const reads = ctx.allEndpoints.filter((e) =>
    e.graphql ? e.graphql.kind === 'query' && !Object.values(e.graphql.variable_types).some((t) => t.endsWith('!')) : e.method === 'GET' && !e.path.includes('{'),
  );
  for (const e of reads.slice(0, 20)) {
    const ex = await ctx.baseline('key1', e);
    const found = ex?.ok ? fromBody(ex) : null;
    if (found) return found;
  }
  return null;
}

export const jwtArgument = defineCheck({
  id: 'api2-jwt-argument',
  title: 'Token argument accepts a tampered JWT',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-347',
  confidence: 'high',
  cvss: JWT_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 8,
  needsKey2: false,
  techniques: ['API2.2'],
  protocols: ['rest', 'graphql'],
  description:
    'For an operation with a query parameter or GraphQL argument named like a token (token, jwt, access_token, authToken...), sends key 1\'s JWT ' +
    '(its credential, one its login answered with, or one in key 1\'s answers to reads without inputs) in that argument without any other credential, then a made-up JWT as a control (every claim but its times replaced, so that it names nobody whichever claim the server reads the holder from), then ' +
    'the token unsigned (`alg: none`), with its signature stripped, with its signature altered, and re-signed with a well-known HMAC secret ' +
    'when one matches its signature offline. Finding: a tampered token gets the same answer as the genuine one (a 2xx with its data; for ' +
    'GraphQL, the field resolved) while the made-up one is refused. Each accepted variant is reported.',
  coverage:
    'Only arguments named like a token, and only when the scan holds a JWT; an argument whose genuine token is itself refused without a ' +
    'header credential is not tested. Mutations run only where the design\'s safety rule lets payloads reach them (queries and GET routes freely).',
  remediation:
    'Verify a token wherever it arrives (header, query, GraphQL argument) with the same library call that pins the algorithm and checks the ' +
    'signature and expiry; better, take credentials from the Authorization header only.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/347.html', 'https://portswigger.net/web-security/jwt'],
  appliesTo: (e) => tokenParameter(e) !== null && (!e.graphql || operationOf(e).kind === 'query') && (e.graphql ? true : e.method === 'GET'),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const name = tokenParameter(ep);
    const raw = await ownJwt(ctx);
    const jwt = parseJwt(raw);
    if (!name || !raw || !jwt) {
      ctx.note(`${describeEndpoint(ep)}: its ${name ?? 'token'} argument was not tampered with: the scan holds no JWT to start from.`);
      return;
    }
    const request = await freshRequest(ctx, ep);
    if (!request) return;
    const points: InjectionPoint[] = ep.graphql ? argumentPoints(ep, request) : injectionPoints(ctx, ep, request);
    const point = points.find((p) => p.name === name);
    if (!point) return;
    const anonymous: RequestAuth = { kind: 'none' };
    const send = (token: string) => ctx.sendPrepared(point.with(token), anonymous);
    const field = ep.graphql ? operationOf(ep).field : null;
    const answered = (ex: Exchange) => (field ? resolved(graphqlAnswer(ex), field) : ex.ok && !looksLikeError(ex));

    const genuine = await send(raw);
    if (!answered(genuine)) {
      ctx.note(`${describeEndpoint(ep)}: key 1's own token in its ${name} argument was refused without a header credential; not tested.`);
      return;
    }
    const control = await send(`${enc({ alg: String(jwt.header.alg), typ: 'JWT' })}.${enc(madeUpClaims(jwt.payload, ctx.random))}.${ctx.random.base64url(32)}`);
    if (answered(control)) return;
    // Other checks may change the holder's data meanwhile (a profile name): the genuine answer's data, or JSON of its very shape
    // (the made-up token was refused, so an answer at all is the token being accepted).
    const same = (ex: Exchange): boolean => {
      if (!answered(ex)) return false;
      if (carriesDataOf(ex, genuine)) return true;
      const sim = compareBodies(ex, genuine);
      return sim.json && sim.structure >= 0.95;
    };

    const flipped = jwt.sig.length > 4 ? `${jwt.sig.slice(0, -4)}${[...jwt.sig.slice(-4)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}` : ctx.random.base64url(32);
    const variants: { id: string; token: string; what: string }[] = [
      { id: 'alg-none', token: `${enc({ ...jwt.header, alg: 'none' })}.${jwt.p}.`, what: 'rebuilt with "alg": "none" and no signature (unsigned)' },
      { id: 'signature-stripped', token: `${jwt.h}.${jwt.p}.`, what: 'with its signature stripped' },
      { id: 'signature-altered', token: `${jwt.h}.${jwt.p}.${flipped}`, what: 'with its signature altered' },
    ];
    const secret = crackJwt(jwt);
    const alg = String(jwt.header.alg).toUpperCase();
    if (secret !== null && HMAC[alg]) {
      const p = enc({ ...jwt.payload, jti: `portcullis-${ctx.random.alnum(10)}` });
      variants.push({ id: 'weak-secret', token: `${jwt.h}.${p}.${createHmac(HMAC[alg]!, secret).update(`${jwt.h}.${p}`).digest('base64url')}`, what: `re-signed with a well-known HMAC secret (${secret.length} characters) after editing its claims` });
    }
    for (const v of variants) {
      if (ctx.budgetLeft() <= 0) return;
      const ex = await send(v.token);
      if (!same(ex)) continue;
      yield {
        parameter: `${name}:${v.id}`,
        name: `Token argument "${name}" accepts a JWT ${v.id === 'weak-secret' ? 'forged with a guessable secret' : v.id === 'alg-none' ? 'with "alg": "none" (unsigned)' : v.id === 'signature-stripped' ? 'without signature' : 'with an altered signature'}`,
        description:
          `${describeEndpoint(ep)} takes a token in its "${name}" argument and accepted key 1's JWT ${v.what}: it answered as for the genuine token, ` +
          'with no other credential, while a made-up JWT is refused. The argument is a way in that skips signature checks: anyone can forge a ' +
          'token for any user there.',
        notes: [`Token header: ${JSON.stringify(jwt.header)}; the genuine token answered ${genuine.status}, the made-up one ${control.status}.`],
        exchanges: [
          { label: 'Baseline: the genuine token in the argument', exchange: genuine },
          { label: 'Control: a made-up JWT', exchange: control },
          { label: `Attack: ${v.id}`, exchange: ex },
        ],
        reproduce: ex,
      };
    }
  },
});
