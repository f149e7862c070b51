// API4:2023 Unrestricted Resource Consumption: input-dependent slowness. Values shaped to make
// backtracking validators (regular expressions with nested quantifiers) take exponential time: a run
// of characters followed by a mismatch. Proven like the time-based injections: the answer grows with
// the run length, confirmed alone, against a re-timed baseline and a benign value of the same length.

import { PASSWORD_FIELD } from '../../identities/accounts';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { reference } from '../common/injection';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { accountValue, aimedAt, asIdentity, bodyObject, userParam } from '../common/accounts';
import { AS_KEY1, describePoint, injectionPoints, ms, pointSource, type InjectionPoint, type PointSource } from '../common/input-points';
import { OWASP_API4 } from '../common/references';
import { timingScreen, withTimingLock } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';
import { shapeFor, type EvilShape, type FieldKind } from './backtracking-inputs';

const MAX_POINTS = 2;
/** Run lengths: start short (an exponential validator at 20 characters takes milliseconds) and grow. */
const FIRST_RUN = 20;
const LAST_RUN = 40;
/** A step of 4 characters multiplies a 2^n validator's work by 16; after a visible bump the ladder slows to 2. */
const STEP = 4;
const SMALL_STEP = 2;
/** A rung this much slower than the baseline is a bump. */
const BUMP_MS = 40;
const MAX_RUNGS = 6;
/** Slow: this much over the baseline (and 3x it). A timeout counts as slow. */
const SLOW_MARGIN_MS = 400;
/** Each probe waits at most this long; the server may go on working after it gives up. */
const PROBE_TIMEOUT_MS = 4000;
const CONFIRM_REQUESTS = 4;

const KIND_ORDER: FieldKind[] = ['pattern', 'email', 'url', 'name'];

interface Candidate {
  point: InjectionPoint;
  shape: EvilShape;
}

interface Rung {
  n: number;
  ex: Exchange;
}

function candidates(points: InjectionPoint[]): Candidate[] {
  const out: Candidate[] = [];
  for (const point of points) {
    const shape = shapeFor(point);
    if (shape) out.push({ point, shape });
  }
  const rank = (c: Candidate) => KIND_ORDER.indexOf(c.shape.kind) * 3 + (c.point.where === 'body' ? 0 : c.point.where === 'query' ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b)).slice(0, MAX_POINTS);
}

const timedOut = (ex: Exchange) => ex.error === 'timeout';

function slowAgainst(baseMs: number): (ex: Exchange) => boolean {
  return (ex) => timedOut(ex) || (!!ex.response && ex.durationMs >= baseMs + SLOW_MARGIN_MS && ex.durationMs >= 3 * baseMs);
}

/** Refused for load or throttled: the timing says nothing about the validator. */
const throttled = (ex: Exchange) => ex.status === 429 || ex.status === 503;

/** Whose request is probed: key 1's, or (on a route that names a user) a user the scan registered, on its own account. */
interface Subject {
  src: PointSource;
  auth: RequestAuth;
  baseline: Exchange;
  /** The unchanged request once more. */
  reference(): Promise<Exchange | null>;
  /** "key 1" or the registered user, for the finding. */
  who: string;
}

async function sendValue(ctx: CheckContext, s: Subject, name: string, value: string): Promise<Exchange | null> {
  if (ctx.budgetLeft() <= 0) return null;
  const p = await s.src.get(name);
  return p ? ctx.sendPrepared(p.with(value), s.auth, { timeoutMs: PROBE_TIMEOUT_MS }) : null;
}

/**
 * Screening: evil values of growing run length, alongside the scan's other requests, until one is slow.
 * Returns the rungs sent (the last one slow) or null when none was.
 */
async function climb(ctx: CheckContext, subject: Subject, c: Candidate, baseMs: number): Promise<Rung[] | null> {
  const rungs: Rung[] = [];
  const slow = slowAgainst(baseMs);
  for (let n = FIRST_RUN; n <= LAST_RUN && rungs.length < MAX_RUNGS; ) {
    if (ctx.budgetLeft() < 1 + CONFIRM_REQUESTS) return null;
    const ex = await timingScreen(ctx, () => sendValue(ctx, subject, c.point.name, c.shape.evil(n)));
    if (!ex || throttled(ex) || (!ex.response && !timedOut(ex))) return null;
    rungs.push({ n, ex });
    if (slow(ex)) return rungs;
    n += ex.durationMs >= baseMs + BUMP_MS ? SMALL_STEP : STEP;
  }
  return null;
}

interface Proof {
  ref: Exchange;
  baseMs: number;
  benign: Exchange;
  /** The slow answer at run length n in the confirmation, and in the screening when it was the same length. */
  slow: Exchange;
  screened: Exchange | null;
  small: Exchange;
  n: number;
  smallN: number;
}

/**
 * Confirmation, with no other timing measurement of the scan in flight: the unchanged request, the slow
 * run again (or, when it is now under the bar, a run 2 longer, the repeat becoming the shorter size),
 * the shorter run, and a benign value as long as the slow one.
 */
async function confirm(ctx: CheckContext, subject: Subject, c: Candidate, rungs: Rung[], firstBaseMs: number): Promise<Proof | null> {
  const top = rungs[rungs.length - 1]!;
  return withTimingLock(ctx, async () => {
    const ref = await subject.reference();
    if (!ref?.response) return null;
    const baseMs = Math.min(firstBaseMs, ref.durationMs);
    const slow = slowAgainst(baseMs);
    const again = await sendValue(ctx, subject, c.point.name, c.shape.evil(top.n));
    if (!again || throttled(again)) return null;
    let found: { slow: Exchange; screened: Exchange | null; small: Exchange; n: number; smallN: number };
    if (slow(again)) {
      const smallN = rungs.length > 1 ? rungs[rungs.length - 2]!.n : top.n - STEP;
      const small = await sendValue(ctx, subject, c.point.name, c.shape.evil(smallN));
      if (!small) return null;
      found = { slow: again, screened: top.ex, small, n: top.n, smallN };
    } else {
      // The screening answer was slowed by other work too: one step further must be slow alone.
      const up = await sendValue(ctx, subject, c.point.name, c.shape.evil(top.n + SMALL_STEP));
      if (!up || !slow(up)) return null;
      found = { slow: up, screened: null, small: again, n: top.n + SMALL_STEP, smallN: top.n };
    }
    if (!found.small.response || throttled(found.small) || throttled(found.slow)) return null;
    // A shorter run must be clearly faster: the cost grows with the input.
    const large = Math.min(found.slow.durationMs, found.screened?.durationMs ?? Infinity);
    if (found.small.durationMs * 1.5 > large || found.small.durationMs + SLOW_MARGIN_MS / 2 > large) return null;
    // The same length without the mismatch: a big or merely slow request is not the cause.
    const benign = await sendValue(ctx, subject, c.point.name, c.shape.benign(found.n));
    if (!benign?.response || slow(benign) || throttled(benign)) return null;
    if (!timedOut(found.slow) && found.slow.durationMs < benign.durationMs * 3) return null;
    return { ref, baseMs, benign, ...found };
  });
}

function describeTime(ex: Exchange): string {
  return timedOut(ex) ? `no answer within ${ms(ex.durationMs)}` : ms(ex.durationMs);
}

function findingFrom(ctx: CheckContext, subject: Subject, c: Candidate, proof: Proof): FindingDraft {
  const ep = ctx.endpoint;
  const { point, shape } = c;
  const evil = shape.evil(proof.n);
  const validator = shape.kind === 'pattern' ? 'its schema pattern' : `its ${shape.kind === 'name' ? 'name' : shape.kind === 'url' ? 'URL' : 'e-mail'} validator`;
  return {
    parameter: point.name,
    cvss: withPrivileges(ctx, ctx.check.cvss),
    description:
      `${describeEndpoint(ep)} takes time that grows steeply with the length of a crafted value in ${describePoint(point)}: ` +
      `${evil.length} characters (${shape.how}) took ${describeTime(proof.slow)}${proof.screened ? ` (${describeTime(proof.screened)} when first sent)` : ''}, a run of ${proof.smallN} ` +
      `${ms(proof.small.durationMs)}, while a well-formed value of the same length took ${ms(proof.benign.durationMs)} and the unchanged ` +
      `request ${ms(proof.baseMs)}. ${validator[0]!.toUpperCase()}${validator.slice(1)} most likely backtracks (a regular expression with ` +
      'nested quantifiers): each extra character multiplies the work, so a few requests of a few dozen characters can hold the server\'s CPU.',
    notes: [
      `Value: ${describePoint(point)} = ${JSON.stringify(evil)}, sent as ${subject.who}.`,
      `Timings: baseline ${ms(proof.baseMs)}; same-length benign value ${ms(proof.benign.durationMs)}; run of ${proof.smallN} ${ms(proof.small.durationMs)}; ` +
        `run of ${proof.n} ${describeTime(proof.slow)}${proof.screened ? ` (${describeTime(proof.screened)} when screened)` : ''}. Each probe waited at most ${ms(PROBE_TIMEOUT_MS)}.`,
    ],
    exchanges: [
      { label: 'Baseline (re-sent, timed)', exchange: proof.ref },
      { label: `Control: a well-formed ${evil.length}-character value`, exchange: proof.benign },
      { label: `Attack: run of ${proof.n} then a mismatch`, exchange: proof.slow },
      { label: `Confirmation: run of ${proof.smallN}, faster`, exchange: proof.small },
    ],
    reproduce: proof.slow,
  };
}

/**
 * Requests that carry a password (logins, sign-ups, password changes) are left alone: failed attempts
 * there count toward lockouts and sign-up limits that would stop the scan's own identities.
 */
function carriesPassword(points: InjectionPoint[]): boolean {
  return points.some((p) => PASSWORD_FIELD.test(p.key) || p.schema?.format === 'password');
}

async function keyOneSubject(ctx: CheckContext): Promise<Subject | null> {
  const baseline = await ctx.baseline('key1');
  if (!baseline?.response || throttled(baseline)) return null;
  const src = await pointSource(ctx, { optionalQuery: false });
  if (!src || carriesPassword(src.points)) return null;
  return { src, auth: AS_KEY1, baseline, reference: () => reference(ctx, src), who: 'key 1' };
}

/**
 * A route that names a user (PUT /users/{username}/email) is written only on an account the scan
 * registered: one is created for it, and only when the body has a candidate field.
 */
async function ownAccountSubject(ctx: CheckContext): Promise<Subject | null> {
  const ep = ctx.endpoint;
  const param = userParam(ep);
  if (!param || !ctx.accounts || ep.method === 'GET') return null;
  const planned = injectionPoints(ctx, ep, aimedAt(ctx, ep, param, 'x', bodyObject(ep)));
  if (carriesPassword(planned) || !candidates(planned).length) return null;
  const owner = await ctx.accounts.create('owner of the algorithmic-complexity check');
  if ('error' in owner) {
    ctx.note(`${describeEndpoint(ep)}: input-dependent slowness not tested, ${owner.error}.`);
    return null;
  }
  const value = accountValue(param, owner.account, owner.session.values);
  if (!value || ctx.budgetLeft() < 1) return null;
  const request = aimedAt(ctx, ep, param, value, bodyObject(ep));
  const auth = asIdentity(owner.session);
  const baseline = await ctx.sendPrepared(request, auth);
  if (!baseline.response || throttled(baseline)) return null;
  const points = injectionPoints(ctx, ep, request, { optionalQuery: false });
  const src: PointSource = { request, points, get: async (name) => points.find((p) => p.name === name) ?? null };
  return { src, auth, baseline, reference: () => ctx.sendPrepared(request, auth), who: `the scan's own user ${owner.session.name}` };
}

export const algorithmicComplexity = defineCheck({
  id: 'api4-algorithmic-complexity',
  title: 'Input-dependent slowness (regular-expression backtracking)',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-1333',
  severity: 'medium',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: MAX_POINTS * MAX_RUNGS + CONFIRM_REQUESTS * MAX_POINTS + 1,
  techniques: ['API4.algorithmic-complexity'],
  description:
    `In up to ${MAX_POINTS} string values of key 1's request that validators usually check with regular expressions (schema patterns with ` +
    'nested quantifiers, e-mail, URL and name fields by format, name or value; body, query and path), sends a run of characters ended by a ' +
    `mismatch, from ${FIRST_RUN} characters up in steps of ${STEP} (${SMALL_STEP} once an answer slows), each probe capped at ` +
    `${PROBE_TIMEOUT_MS / 1000} s, until one answer is ${SLOW_MARGIN_MS} ms and 3x slower than the baseline (a timeout counts). It confirms ` +
    'with no other timing measurement of the scan in flight: the unchanged request re-timed, the same run again (slow; when it is now under ' +
    `the bar, a run ${SMALL_STEP} longer must be), the shorter run (clearly faster: the cost grows with the length) and a well-formed value ` +
    'of the same length as the slow one (fast). Finding only when all hold: a merely slow endpoint or a big body is not a finding. A route ' +
    'that names a user (PUT /users/{name}/email) is probed on a user the scan registers, on its own account. Requests that carry a ' +
    'password (logins, sign-ups, password changes) are left alone: failures there count toward lockouts and sign-up limits.',
  coverage:
    'Exponential backtracking only: runs stay under about 40 characters so the scan never hangs a server for long; quadratic (polynomial) ' +
    'patterns, which need thousands of characters, are the oversized-input check\'s. Evil values follow common validator shapes (a run of ' +
    'letters before a bad ending, in the local part of e-mails and the path of URLs) and schema patterns; a regular expression the spec does ' +
    'not publish and that backtracks on another shape is missed. Engines without backtracking (RE2, Go, Rust) are immune and stay silent.',
  remediation:
    'Use linear-time matching: a regex engine without backtracking (RE2), or patterns without nested or overlapping quantifiers (for ' +
    'e-mail, a simple "local@domain.tld" check followed by a confirmation e-mail). Cap input length before validation and set time limits ' +
    'on request handling.',
  references: [
    OWASP_API4,
    'https://cwe.mitre.org/data/definitions/1333.html',
    'https://owasp.org/www-community/attacks/Regular_expression_Denial_of_Service_-_ReDoS',
  ],
  // Validators sit on any input, not only the bounded ones the URC default marks.
  appliesTo: (e) => (e.flags.includes('URC') || e.flags.includes('SEC_MISC')) && e.method !== 'DELETE',
  async *run(ctx) {
    const subject = (await keyOneSubject(ctx)) ?? (await ownAccountSubject(ctx));
    if (!subject) return;
    for (const c of candidates(subject.src.points)) {
      const rungs = await climb(ctx, subject, c, subject.baseline.durationMs);
      if (!rungs) continue;
      const proof = await confirm(ctx, subject, c, rungs, subject.baseline.durationMs);
      if (!proof) continue;
      yield findingFrom(ctx, subject, c, proof);
      return;
    }
  },
});
