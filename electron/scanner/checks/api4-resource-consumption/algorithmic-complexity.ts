// API4:2023 Unrestricted Resource Consumption: input-dependent slowness. Values shaped to make
// backtracking validators (regular expressions with nested quantifiers) take exponential time: a run
// of characters followed by a mismatch. Proven like the time-based injections: the answer grows with
// the run length, confirmed alone against the unchanged request re-timed between the probes (slow means
// past those samples by a margin that grows with their spread, not a fixed time) and a benign value of
// the same length.

import { PASSWORD_FIELD } from '../../identities/accounts';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { reference } from '../common/injection';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { accountValue, aimedAt, asIdentity, bodyObject, userParam } from '../common/accounts';
import { AS_KEY1, describePoint, injectionPoints, ms, pointSource, type InjectionPoint, type PointSource } from '../common/input-points';
import { OWASP_API4 } from '../common/references';
import { BaselineTimes, fastestAnswer, type SlowBar } from '../common/baseline-times';
import { confirmUntilAgreed, MAX_CONFIRMATIONS, timingScreen } from '../common/timing-gate';
import type { CheckContext, FindingDraft } from '../types';
import { shapeFor, type EvilShape, type FieldKind } from './backtracking-inputs';

const MAX_POINTS = 2;
/** Run lengths: start short (an exponential validator at 20 characters takes milliseconds) and grow. */
const FIRST_RUN = 20;
const LAST_RUN = 40;
/** A step of 4 characters multiplies a 2^n validator's work by 16; after a visible bump the ladder slows to 2. */
const STEP = 4;
const SMALL_STEP = 2;
/** A rung this much slower than the fastest baseline is a bump. */
const BUMP_MS = 40;
const MAX_RUNGS = 6;
/**
 * Slow: past the slowest re-timed baseline by 200 ms (more when the baseline samples vary: twice their
 * spread), and 3x as long. No fixed time on its own: on a loaded machine or a noisy target the bar rises.
 * A timeout counts as slow.
 */
const SLOW: SlowBar = { floorMs: 200, ratio: 3 };
/** Screening climbs until twice that margin, so the confirmation has room when load slows its answers unevenly. */
const SCREEN_SLOW: SlowBar = { floorMs: 2 * SLOW.floorMs, ratio: SLOW.ratio };
/**
 * The run one shorter sits in between: past the baselines by 50 ms (more when they vary: twice their spread)
 * and at most this share of the slower run's extra time. A validator whose work multiplies with each
 * character gives 1/growth (about half for 2^n); a server that is slow at times is fast or as slow.
 */
const SHORTER_ABOVE: SlowBar = { floorMs: 50, ratio: 1 };
const SHORTER_MAX_SHARE = 0.8;
/** A well-formed value of the same length takes at most this share of the extra time (a big value is not the cause). */
const BENIGN_SHARE = 0.5;
/** Each probe waits at most this long; the server may go on working after it gives up. */
const PROBE_TIMEOUT_MS = 4000;
/** Per point: three baselines, the slow run twice, the run one shorter, the well-formed value. */
const CONFIRM_REQUESTS = 7;
/** When needed (budgeted once): a run 2 longer when the slow one no longer passes the screening bar, the shorter run or the well-formed value timed again. */
const CONFIRM_EXTRA = 3;

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

/** The unchanged request's time for screening: the scan's first baseline, re-timed once when a rung makes it look cold. */
interface ScreenBase {
  times: BaselineTimes;
  retimed: boolean;
}

/**
 * Screening: evil values of growing run length, alongside the scan's other requests, until one is slow.
 * Returns the rungs sent (the last one slow) or null when none was.
 */
async function climb(ctx: CheckContext, subject: Subject, c: Candidate, base: ScreenBase): Promise<Rung[] | null> {
  const rungs: Rung[] = [];
  for (let n = FIRST_RUN; n <= LAST_RUN && rungs.length < MAX_RUNGS; ) {
    if (ctx.budgetLeft() < 1 + CONFIRM_REQUESTS) return null;
    const ex = await timingScreen(ctx, () => sendValue(ctx, subject, c.point.name, c.shape.evil(n)));
    if (!ex || throttled(ex) || (!ex.response && !timedOut(ex))) return null;
    rungs.push({ n, ex });
    if (!base.retimed && ex.response && ex.durationMs >= BUMP_MS && !base.times.slow(ex, SCREEN_SLOW) && ctx.budgetLeft() > 1 + CONFIRM_REQUESTS) {
      // A cold or loaded first baseline would hide the bump and let the ladder overshoot: timed once more, the faster counts.
      base.retimed = true;
      const again = await timingScreen(ctx, () => subject.reference());
      if (again?.response && again.durationMs < base.times.fastest) {
        base.times = new BaselineTimes();
        base.times.add(again);
      }
    }
    if (base.times.slow(ex, SCREEN_SLOW, true)) return rungs;
    n += ex.durationMs >= base.times.fastest + BUMP_MS ? SMALL_STEP : STEP;
  }
  return null;
}

interface Proof {
  base: BaselineTimes;
  /** The unchanged request, first of the interleaved samples. */
  ref: Exchange;
  /** The run of n, twice in the confirmation (and in the screening when it was the same length). */
  slow: Exchange;
  repeat: Exchange;
  screened: Exchange | null;
  /** The run one shorter (the faster of its timings) and the well-formed value of length n (likewise). */
  small: Exchange;
  smalls: Exchange[];
  benign: Exchange;
  benigns: Exchange[];
  n: number;
}

/**
 * Confirmation, with no other timing measurement of the scan in flight, the unchanged request interleaved
 * with the probes: unchanged, the slow run (a run 2 longer when it no longer passes the screening bar),
 * unchanged, the run one shorter, unchanged, a well-formed value as long as the slow run, the slow run
 * again. Both slow answers must pass the bar of all three baselines; the shorter run must cost part of
 * the extra time (the cost multiplies with each character) and the well-formed value little of it. A second
 * attempt (when the first did not agree with the screening) starts from a run 2 longer: more room above the noise.
 */
async function confirm(ctx: CheckContext, subject: Subject, c: Candidate, rungs: Rung[], attempt: number): Promise<Proof | null> {
  const top = rungs[rungs.length - 1]!;
  const evil = (n: number) => sendValue(ctx, subject, c.point.name, c.shape.evil(n));
  const base = new BaselineTimes();
  const unchanged = async () => {
    const ex = ctx.budgetLeft() > 0 ? await subject.reference() : null;
    return ex && !throttled(ex) && base.add(ex) ? ex : null;
  };
  const ref = await unchanged();
  if (!ref) return null;
  let n = top.n + attempt * SMALL_STEP;
  let slow = await evil(n);
  if (slow && !throttled(slow) && !base.slow(slow, SCREEN_SLOW, true) && ctx.budgetLeft() >= CONFIRM_REQUESTS - 1) {
    // Under the screening bar now (that answer was slowed by other work too, or load slows this one less):
    // a run 2 longer, so the repeat keeps room above the bar however unevenly load slows it.
    n += SMALL_STEP;
    slow = await evil(n);
  }
  if (!slow || throttled(slow) || !base.slow(slow, SLOW, true)) return null;
  if (!(await unchanged())) return null;
  const smalls = [await evil(n - 1)];
  if (!(await unchanged())) return null;
  const benigns = [await sendValue(ctx, subject, c.point.name, c.shape.benign(n))];
  const repeat = await evil(n);
  // Judged against all three baselines (the bar may have risen since the first answer).
  if (!repeat || throttled(repeat) || !base.slow(slow, SLOW, true) || !base.slow(repeat, SLOW, true)) return null;
  const largeMs = Math.max(slow.durationMs, repeat.durationMs);
  // Load only ever slows a sample down: a control that came too late is timed once more and the faster one counts.
  const smallLate = (x: Exchange | null) => !x?.response || throttled(x) || base.shareOf(x.durationMs, largeMs) > SHORTER_MAX_SHARE;
  const benignLate = (x: Exchange | null) => !x?.response || throttled(x) || base.slow(x, SLOW) || base.shareOf(x.durationMs, largeMs) > BENIGN_SHARE;
  if (smallLate(smalls[0]!) && ctx.budgetLeft() > 0) smalls.push(await evil(n - 1));
  if (benignLate(benigns[0]!) && ctx.budgetLeft() > 0) benigns.push(await sendValue(ctx, subject, c.point.name, c.shape.benign(n)));
  const small = fastestAnswer(smalls);
  const benign = fastestAnswer(benigns);
  if (!small || !benign || smallLate(small) || benignLate(benign)) return null;
  // The shorter run must stand out of the baselines too (slow itself when a slow run timed out: its length is unknown).
  const grows = base.slow(small, timedOut(slow) || timedOut(repeat) ? SLOW : SHORTER_ABOVE);
  if (!grows) return null;
  const answered = (xs: (Exchange | null)[]) => xs.filter((x): x is Exchange => !!x);
  return { base, ref, slow, repeat, screened: n === top.n ? top.ex : null, small, smalls: answered(smalls), benign, benigns: answered(benigns), n };
}

function describeTime(ex: Exchange): string {
  return timedOut(ex) ? `no answer within ${ms(ex.durationMs)}` : ms(ex.durationMs);
}

function findingFrom(ctx: CheckContext, subject: Subject, c: Candidate, proof: Proof): FindingDraft {
  const ep = ctx.endpoint;
  const { point, shape } = c;
  const { base, n } = proof;
  const evil = shape.evil(n);
  const validator = shape.kind === 'pattern' ? 'its schema pattern' : `its ${shape.kind === 'name' ? 'name' : shape.kind === 'url' ? 'URL' : 'e-mail'} validator`;
  const times = (xs: Exchange[]) => xs.map((x) => describeTime(x)).join(', ');
  return {
    parameter: point.name,
    cvss: withPrivileges(ctx, ctx.check.cvss),
    description:
      `${describeEndpoint(ep)} takes time that grows steeply with the length of a crafted value in ${describePoint(point)}: ` +
      `${evil.length} characters (${shape.how}) took ${describeTime(proof.slow)} and ${describeTime(proof.repeat)}` +
      `${proof.screened ? ` (${describeTime(proof.screened)} when first sent)` : ''}, a run of ${n - 1} ${ms(proof.small.durationMs)}, while a ` +
      `well-formed value of the same length took ${ms(proof.benign.durationMs)} and the unchanged request at most ${ms(base.slowest)} (timed ` +
      `between them). ${validator[0]!.toUpperCase()}${validator.slice(1)} most likely backtracks (a regular expression with nested ` +
      'quantifiers): each extra character multiplies the work, so a few requests of a few dozen characters can hold the server\'s CPU.',
    notes: [
      `Value: ${describePoint(point)} = ${JSON.stringify(evil)}, sent as ${subject.who}.`,
      `Timings: unchanged request ${base.describe()} (first baseline of the scan ${ms(subject.baseline.durationMs)}); same-length ` +
        `well-formed value ${times(proof.benigns)}; run of ${n - 1} ${times(proof.smalls)}; run of ${n} ${times([proof.slow, proof.repeat])}` +
        `${proof.screened ? ` (${describeTime(proof.screened)} when screened)` : ''}. Slow meant at least ${ms(base.bar(SLOW))}; each probe ` +
        `waited at most ${ms(PROBE_TIMEOUT_MS)}.`,
    ],
    exchanges: [
      { label: 'Baseline (re-sent, timed)', exchange: proof.ref },
      { label: `Control: a well-formed ${evil.length}-character value`, exchange: proof.benign },
      { label: `Attack: run of ${n} then a mismatch`, exchange: proof.slow },
      { label: `Confirmation: run of ${n - 1}, faster`, exchange: proof.small },
      { label: `Confirmation: run of ${n} again`, exchange: proof.repeat },
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
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  // One more for the screening baseline re-timed, one for the baseline on the scan's own user; a second confirmation when the first disagrees.
  budget: MAX_POINTS * (MAX_RUNGS + CONFIRM_REQUESTS) + CONFIRM_EXTRA + 2 + (MAX_CONFIRMATIONS - 1) * (CONFIRM_REQUESTS + CONFIRM_EXTRA),
  techniques: ['API4.algorithmic-complexity'],
  description:
    `In up to ${MAX_POINTS} string values of key 1's request that validators usually check with regular expressions (schema patterns with ` +
    'nested quantifiers, e-mail, URL and name fields by format, name or value; body, query and path), sends a run of characters ended by a ' +
    `mismatch, from ${FIRST_RUN} characters up in steps of ${STEP} (${SMALL_STEP} once an answer slows), each probe capped at ` +
    `${PROBE_TIMEOUT_MS / 1000} s, until one answer is 3x as long as the baseline and more than it by ${SCREEN_SLOW.floorMs} ms (a timeout ` +
    'counts; the baseline is re-timed once when a rung makes it look cold). It confirms with no other timing measurement of the scan in ' +
    'flight, interleaving the unchanged request with the probes: unchanged, the slow run (when it no longer passes that bar, a run ' +
    `${SMALL_STEP} longer), unchanged, the run one shorter, unchanged, a well-formed value as long as the slow run, the slow run again. ` +
    'Finding when both slow answers take 3x as long as the slowest of the three baselines and more than it by ' +
    `${SLOW.floorMs} ms or twice the baselines' spread, whichever is larger (a loaded machine or a noisy server raises the bar), the run ` +
    `one shorter passes the slowest baseline by ${SHORTER_ABOVE.floorMs} ms (or twice the spread) and takes at most ${SHORTER_MAX_SHARE * 100}% ` +
    'of the slower run\'s extra time (each character multiplies the work) ' +
    `and the well-formed value stays under the bar and at most ${BENIGN_SHARE * 100}% of it; a control that came too late is timed once more and the faster ` +
    'answer counts. When that confirmation fails, it runs once more from a run 2 longer, and that one decides (two of the three verdicts, ' +
    'the screening\'s included). A merely slow or erratic endpoint, or a big body, is not a finding. A route ' +
    'that names a user (PUT /users/{name}/email) is probed on a user the scan registers, on its own account. Requests that carry a ' +
    'password (logins, sign-ups, password changes) are left alone: failures there count toward lockouts and sign-up limits.',
  coverage:
    'Exponential backtracking only: runs stay under about 40 characters so the scan never hangs a server for long; quadratic (polynomial) ' +
    'patterns, which need thousands of characters, are the oversized-input check\'s. Evil values follow common validator shapes (a run of ' +
    'letters before a bad ending, in the local part of e-mails and the path of URLs) and schema patterns (a schema pattern with lookarounds ' +
    'or backreferences is not tried: the scanner checks schema patterns on RE2, which cannot run them); a regular expression the spec does ' +
    'not publish and that backtracks on another shape is missed, and so is one whose work grows more than about eightfold per character (the ' +
    'run one shorter then barely stands out of the baseline). Engines without backtracking (RE2, Go, Rust) are immune and stay silent.',
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
    const screenBase: ScreenBase = { times: new BaselineTimes(), retimed: false };
    screenBase.times.add(subject.baseline);
    for (const c of candidates(subject.src.points)) {
      const rungs = await climb(ctx, subject, c, screenBase);
      if (!rungs) continue;
      const proof = await confirmUntilAgreed(ctx, (attempt) => confirm(ctx, subject, c, rungs, attempt));
      if (!proof) continue;
      yield findingFrom(ctx, subject, c, proof);
      return;
    }
  },
});
