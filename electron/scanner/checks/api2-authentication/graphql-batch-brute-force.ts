// API2:2023 Broken Authentication: login and code-check operations of a GraphQL API brute-forced in
// one request (issue 20, CWE-307). Aliases (`a0: login(...) a1: login(...)`) and array batches put many
// attempts in one HTTP request; a limiter that counts requests lets them all through. The attempts aim
// at a throwaway account the scan registered, else at a user name it made up: never at an identity of
// the scan, whose lockout would stop it. Runs last (its attempts may trip a per-client limit).

import type { Endpoint, EndpointParameter, JsonSchema } from '../../../../shared/contract';
import { wordsOf } from '../../../importer/default-flags';
import { ANONYMOUS, type Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { adjustCvss } from '../../cvss';
import {
  aliasedCopiesDocument,
  aliasedCopiesVariables,
  argumentsOf,
  graphqlAnswer,
  graphqlBatchAnswers,
  namedType,
  operationName,
  operationOf,
  operationVariables,
  sendGraphql,
  sendGraphqlBatch,
  type GraphqlAnswer,
} from '../common/graphql';
import { defineCheck } from '../common/helpers';
import { OWASP_API2, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { throttleSign } from './brute-force';

/** Attempts in one request (aliases, then array entries): past common per-minute limits (5-10), far below a load test. */
export const ATTEMPTS = 20;
/** Separate one-attempt requests sent afterwards, to see whether the API limits those. */
export const SINGLES = 12;

// Generic word lists (electron/importer/default-flags.ts and the REST brute-force checks), on the words of names.
const AUTH_WORDS = / (log ?in|sign ?in|sign ?on|auth|authenticate|authentication|token|tokens|password|passwd|session|otp|totp|mfa|2fa|code|codes|pin|passcode|verify|verification|confirm|check|validate|redeem) /;
const NOT_AN_ATTEMPT = / (register|registration|sign ?up|create|add|new|update|change|set|delete|remove|drop|wipe|log ?out|sign ?out|refresh|revoke|request|send|resend|forgot|invite|list|search|find|get) /;
const PASSWORD_WORD = / (password|passwd|pwd|passphrase|secret) $/;
const CODE_WORD = / (code|otp|totp|pin|passcode|token) $/;
const FRESH_SECRET = /^ (new|confirm|confirmation|repeat|next) /;
const USER_WORD = / (username|user name|user|login|email|e mail|mail|phone|mobile|identifier|account|handle) $/;

type SecretKind = 'password' | 'code' | 'token';

interface Slot {
  /** [argument] or [argument, input field]. */
  path: string[];
  schema: JsonSchema | null;
}

interface Plan {
  secret: Slot & { kind: SecretKind };
  user: Slot | null;
}

function fieldsOf(p: EndpointParameter): Slot[] {
  const top: Slot = { path: [p.name], schema: p.schema };
  const props = p.schema && typeof p.schema.properties === 'object' && p.schema.properties ? (p.schema.properties as Record<string, JsonSchema>) : null;
  return props ? Object.entries(props).map(([k, s]) => ({ path: [p.name, k], schema: s })) : [top];
}

function secretKind(name: string): SecretKind | null {
  const w = wordsOf(name);
  if (FRESH_SECRET.test(w)) return null;
  if (PASSWORD_WORD.test(w)) return 'password';
  if (CODE_WORD.test(w)) return / token $/.test(w) ? 'token' : 'code';
  return null;
}

/**
 * What the operation checks: a secret argument (password, code, token; not a new one being set) and
 * the account it is checked for. A password without an account argument is the caller's own
 * (a password change, an account deletion): left alone, it would aim at key 1.
 */
export function attemptPlan(endpoint: Endpoint): Plan | null {
  const op = endpoint.graphql;
  if (!op || op.kind === 'subscription') return null;
  const name = wordsOf(op.field);
  if (!AUTH_WORDS.test(name) || NOT_AN_ATTEMPT.test(name)) return null;
  const slots = argumentsOf(endpoint).flatMap(fieldsOf);
  let secret: Plan['secret'] | null = null;
  let user: Slot | null = null;
  for (const s of slots) {
    const last = s.path[s.path.length - 1]!;
    const kind = secretKind(last);
    if (kind && !secret) secret = { ...s, kind };
    else if (!kind && !user && USER_WORD.test(wordsOf(last))) user = s;
  }
  if (!secret || (secret.kind === 'password' && !user)) return null;
  return { secret, user };
}

function setAt(vars: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const out = { ...vars };
  if (path.length === 1) out[path[0]!] = value;
  else {
    const inner = out[path[0]!];
    out[path[0]!] = { ...(inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : {}), [path[1]!]: value };
  }
  return out;
}

const isInt = (s: JsonSchema | null) => s?.type === 'integer' || namedType(String(s?.['x-graphql-type'] ?? '')) === 'Int';

function digitsOf(s: JsonSchema | null): number {
  const max = typeof s?.maxLength === 'number' ? s.maxLength : null;
  return max !== null && max >= 4 && max <= 8 ? max : 6;
}

/** The i-th wrong secret: a made-up password, a code of the expected length counted up from a random start, a random token. */
function wrongSecret(random: SeededRandom, plan: Plan, start: number, i: number): unknown {
  const s = plan.secret;
  if (s.kind === 'password') return `Wrong-${random.alnum(10)}-${i}`;
  if (s.kind === 'token') return random.alnum(24);
  const digits = digitsOf(s.schema);
  const n = (start + i) % 10 ** digits;
  return isInt(s.schema) ? n : String(n).padStart(digits, '0');
}

/** The account the attempts aim at: a throwaway user the scan registered, else a name nobody has. */
async function throwawayAccount(ctx: CheckContext, user: Slot | null): Promise<{ value: string | null; who: string }> {
  if (!user) return { value: null, who: 'no account (the secret alone identifies it)' };
  const email = / (email|e mail|mail) $/.test(wordsOf(user.path[user.path.length - 1]!));
  if (ctx.accounts) {
    const r = await ctx.accounts.register('target of the GraphQL batch brute-force check');
    if (!('error' in r)) {
      const value = email ? r.account.email : (r.account.username ?? r.account.email);
      if (value) return { value, who: `${value}, a user the scan registered for it` };
    }
  }
  const tag = ctx.random.alnum(10).toLowerCase();
  const value = email ? `pcl.${tag}@example.com` : `pcl_${tag}`;
  return { value, who: `${value}, a user name the scan made up` };
}

// ---------------------------------------------------------------- reading the answers

const THROTTLE_CODE = /rate|throttl|too.?many|limit|lock|captcha|slow.?down|quota/i;
const THROTTLE_TEXT = /too many|rate.?limit|locked|lockout|try again (later|in)|captcha|temporarily (blocked|disabled|suspended)|slow down|throttl/i;

type Outcome = { kind: 'evaluated'; signature: string } | { kind: 'throttled' | 'refused'; signature: string };

/** How one attempt (the root field under `key`) was answered: evaluated (the resolver ran), throttled, or refused before running. */
export function attemptOutcome(a: GraphqlAnswer | null, key: string): Outcome {
  if (!a) return { kind: 'refused', signature: 'not a GraphQL answer' };
  const mine = a.errors.filter((e) => e.path?.[0] === key);
  const general = a.errors.filter((e) => !e.path?.length);
  for (const e of [...mine, ...general]) {
    const code = typeof e.extensions?.code === 'string' ? e.extensions.code : '';
    if (THROTTLE_CODE.test(code) || THROTTLE_TEXT.test(e.message)) return { kind: 'throttled', signature: e.message };
  }
  if (general.length) return { kind: 'refused', signature: general[0]!.message };
  if (mine.length) return { kind: 'evaluated', signature: `error: ${mine[0]!.message.split(key).join('')}` };
  const v = a.data?.[key];
  if (v !== null && v !== undefined) return { kind: 'evaluated', signature: `data: ${JSON.stringify(v)}` };
  return { kind: 'refused', signature: 'no data' };
}

interface Burst {
  label: string;
  exchange: Exchange;
  outcomes: Outcome[];
}

/** All N attempts evaluated, the same way (wrong guesses answer alike: no counter, no lockout). */
function allEvaluated(b: Burst | null): boolean {
  return !!b && b.outcomes.length === ATTEMPTS && b.outcomes.every((o) => o.kind === 'evaluated') && new Set(b.outcomes.map((o) => o.signature)).size === 1;
}

function describeBurst(b: Burst): string {
  const count = (k: Outcome['kind']) => b.outcomes.filter((o) => o.kind === k).length;
  return `${b.label}: HTTP ${b.exchange.status}, ${count('evaluated')} evaluated, ${count('throttled')} throttled, ${count('refused')} refused (of ${ATTEMPTS})`;
}

// ---------------------------------------------------------------- the check

export const graphqlBatchBruteForce = defineCheck({
  id: 'api2-graphql-batch-brute-force',
  title: 'GraphQL batching bypasses login and code attempt limits',
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
  budget: 2 + SINGLES,
  needsKey2: false,
  protocols: ['graphql'],
  techniques: ['API2.3', 'API2.graphql-batching'],
  description:
    'On login and code-check operations (a name with login, sign-in, token, password, OTP, code or verify words and not a sign-up, ' +
    'change or request; a password, code, PIN, OTP or token argument that is not a new one; a password only with an account argument), ' +
    `sends without credentials ${ATTEMPTS} wrong secrets in one request as aliases, then ${ATTEMPTS} in one array batch, for a throwaway ` +
    'user the scan registered (else a user name it made up: never one of its identities), then up to ' +
    `${SINGLES} single attempts in separate requests. Finding when a request's ${ATTEMPTS} attempts are all evaluated the same way ` +
    '(each alias or entry resolved or refused by the resolver, none with a rate-limit, lockout or CAPTCHA sign); high confidence when ' +
    'the separate requests are throttled at fewer attempts. Silent when most entries are throttled (each attempt is counted) or the ' +
    'batches are refused.',
  coverage:
    `${ATTEMPTS} attempts per request find limits that count HTTP requests, not a limit above ${ATTEMPTS} per window. Per-account lockouts ` +
    'do not show on a made-up user name (the scan registers a throwaway user where sign-up is configured). A code is guessed whether or not ' +
    'one is pending for the account. Operations that take a password and no account argument (password changes) are left alone: they ' +
    'would aim at key 1; REST logins are api2-auth-brute-force\'s. Aliases of a mutation run one after the other, and a wrong password ' +
    'that fails a non-null field ends the operation (GraphQL null propagation): such logins show through array batches only.',
  remediation:
    'Count every attempt, not every HTTP request: rate-limit and lock out per account and per client inside the login and code-check ' +
    'resolvers, limit aliases of sensitive fields (or of any field) per operation and the operations of an array batch, or disable ' +
    'array batching; invalidate a one-time code after a few wrong guesses.',
  references: [
    OWASP_API2,
    'https://cwe.mitre.org/data/definitions/307.html',
    OWASP_GRAPHQL_CHEAT_SHEET,
    `${OWASP_GRAPHQL_CHEAT_SHEET}#batching-attacks`,
    'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks',
  ],
  appliesTo: (e) => (e.flags.includes('BKEN_AUTH') || e.flags.includes('UABF')) && attemptPlan(e) !== null,
  async *run(ctx) {
    const endpoint = ctx.endpoint;
    const plan = attemptPlan(endpoint);
    if (!plan) return;
    const op = operationOf(endpoint);
    const base = await operationVariables(ctx, endpoint);
    const account = await throwawayAccount(ctx, plan.user);
    const start = ctx.random.uint32();
    const attempt = (i: number) => {
      let vars = plan.user && account.value !== null ? setAt(base, plan.user.path, account.value) : base;
      vars = setAt(vars, plan.secret.path, wrongSecret(ctx.random, plan, start, i));
      return vars;
    };
    // Every required argument must have a value (the scan's, or the account and the secret).
    const missing = argumentsOf(endpoint).filter((p) => p.required && !(p.name in attempt(0)));
    if (missing.length) return;

    const bursts: Burst[] = [];
    let n = 0;
    if (ctx.budgetLeft() > 0) {
      const copies = Array.from({ length: ATTEMPTS }, () => attempt(n++));
      const query = aliasedCopiesDocument(op, ATTEMPTS, { alias: 'try', name: 'PortcullisAttempts' });
      const ex = await sendGraphql(ctx, endpoint, { query, variables: aliasedCopiesVariables(copies) }, { auth: ANONYMOUS });
      const answer = graphqlAnswer(ex);
      const outcomes = throttleSign(ex) ? [] : Array.from({ length: ATTEMPTS }, (_, i) => attemptOutcome(answer, `try${i}`));
      bursts.push({ label: `${ATTEMPTS} aliases in one operation`, exchange: ex, outcomes });
    }
    if (ctx.budgetLeft() > 0) {
      const calls = Array.from({ length: ATTEMPTS }, () => ({ query: op.document, variables: attempt(n++) }));
      const ex = await sendGraphqlBatch(ctx, endpoint, calls, { auth: ANONYMOUS });
      const answers = throttleSign(ex) ? null : graphqlBatchAnswers(ex);
      const outcomes = answers?.length === ATTEMPTS ? answers.map((a) => attemptOutcome(a, op.field)) : [];
      bursts.push({ label: `an array batch of ${ATTEMPTS} operations`, exchange: ex, outcomes });
    }
    const open = bursts.filter(allEvaluated);
    if (!open.length) {
      // Throttled before a single attempt of ours was judged: the limit was spent already (often by this scan's own sign-ins and probes).
      if (bursts.length && bursts.every((b) => throttleSign(b.exchange)))
        ctx.note(
          `${ctx.check.id}: ${operationName(endpoint)} was already throttling this client when the batched attempts were sent, so batching past its limit could not be tested. Scan it alone (the other operations SKIP), or once its limit window has passed.`,
        );
      return;
    }

    // Separate requests, one attempt each: does the API limit those at a lower count?
    const singles: Exchange[] = [];
    let throttledAt: Exchange | null = null;
    while (singles.length < SINGLES && ctx.budgetLeft() > 0) {
      const ex = await sendGraphql(ctx, endpoint, { query: op.document, variables: attempt(n++) }, { auth: ANONYMOUS });
      singles.push(ex);
      const o = throttleSign(ex) ? 'throttled' : attemptOutcome(graphqlAnswer(ex), op.field).kind;
      if (o === 'throttled') {
        throttledAt = ex;
        break;
      }
      if (o !== 'evaluated') break;
    }
    yield finding(ctx, endpoint, plan, account.who, bursts, open, singles, throttledAt);
  },
});

function finding(ctx: CheckContext, endpoint: Endpoint, plan: Plan, who: string, bursts: Burst[], open: Burst[], singles: Exchange[], throttledAt: Exchange | null): FindingDraft {
  const name = operationName(endpoint);
  const what = plan.secret.kind === 'password' ? 'passwords' : plan.secret.kind === 'code' ? 'codes' : 'tokens';
  const sentBefore = bursts.length;
  const singlesOk = throttledAt ? singles.length - 1 : singles.length;
  const limitText = throttledAt
    ? `Separate requests, one attempt each, were throttled at the ${ordinal(sentBefore + singles.length)} request in a row (after ${singlesOk} single attempts following the ${sentBefore} batched requests): the API limits requests, and the batches carried ${ATTEMPTS} attempts each past that limit.`
    : `${singles.length} separate single attempts were not throttled either.`;
  const first = open[0]!;
  return {
    parameter: plan.secret.path.join('.'),
    name: throttledAt ? `GraphQL batching bypasses the ${plan.secret.kind === 'password' ? 'login' : 'code'} attempt limit` : undefined,
    confidence: throttledAt ? 'high' : 'medium',
    cvss: plan.secret.kind === 'password' ? adjustCvss(ctx.check.cvss, { I: 'L' }) : undefined,
    description:
      `${name} evaluated ${ATTEMPTS} wrong ${what} sent in one HTTP request as ${open.map((b) => b.label).join(' and as ')}, for ${who}: ` +
      `each attempt was answered (${first.outcomes[0]!.signature.slice(0, 120)}), none was throttled. ${limitText} An attacker guesses ` +
      `${plan.secret.kind === 'code' ? 'one-time codes' : what} ${ATTEMPTS} (or more) at a time per request, so per-request rate limits do not slow a brute force.`,
    notes: [
      ...bursts.map(describeBurst),
      `Single attempts: ${singles.map((s) => `HTTP ${s.status}`).join(', ') || 'none sent'}${throttledAt ? ` - the last throttled (${throttleSign(throttledAt) ?? attemptOutcome(graphqlAnswer(throttledAt), operationOf(endpoint).field).signature})` : ''}.`,
      `The attempts aimed at ${who}; sent without credentials.`,
    ],
    exchanges: [
      ...open.map((b) => ({ label: `Attack: ${b.label}`, exchange: b.exchange })),
      ...(singles[0] ? [{ label: 'Single attempt 1', exchange: singles[0] }] : []),
      ...(throttledAt ? [{ label: `Confirmation: single attempt ${singles.length}, throttled`, exchange: throttledAt }] : []),
    ],
    reproduce: first.exchange,
  };
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${s}`;
}
