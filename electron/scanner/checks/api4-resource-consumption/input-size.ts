// API4:2023 Unrestricted Resource Consumption: inputs accepted past their declared size limits (or
// crashing the server), and responses that slow down with oversized input.

import type { JsonSchema } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    AS_KEY1,
    describePoint,
    freshRequest,
    injectionPoints,
    ms,
    valueText,
    type InjectionPoint,
} from '../common/input-points';
import { confirmUntilAgreed, MAX_CONFIRMATIONS, timingScreen } from '../common/timing-gate';
import { regexValidated } from './backtracking-inputs';
import type { CheckContext } from '../types';
import { BaselineTimes, fastestAnswer, type SlowBar } from '../common/baseline-times';
import { SIZE_NAME, normalizedName } from './pagination';
import { CWE770, OWASP_API4 } from '../common/references';
import { withPrivileges } from '../common/helpers';

// ---------------------------------------------------------------- size limits

interface Bound {
  kind: 'maxLength' | 'maxItems' | 'maximum';
  limit: number;
}

function boundOf(p: InjectionPoint): Bound | null {
  const s = p.schema;
  if (!s) return null;
  if (p.type === 'string' && typeof s.maxLength === 'number' && !s.enum && !isFixedFormat(s)) return { kind: 'maxLength', limit: s.maxLength };
  if (p.type === 'array' && typeof s.maxItems === 'number' && Array.isArray(p.value) && p.value.length) return { kind: 'maxItems', limit: s.maxItems };
  if ((p.type === 'integer' || p.type === 'number') && !s.enum) {
    if (typeof s.maximum === 'number') return { kind: 'maximum', limit: s.maximum };
    if (typeof s.exclusiveMaximum === 'number') return { kind: 'maximum', limit: s.exclusiveMaximum };
  }
  return null;
}

function isFixedFormat(s: JsonSchema): boolean {
  return typeof s.format === 'string' && ['uuid', 'date', 'date-time', 'time', 'ipv4', 'ipv6', 'byte', 'binary', 'duration'].includes(s.format);
}

/** A string of `length` characters built from the original value, keeping e-mails and URLs well formed. */
function padded(value: string, length: number): string {
  const base = value || 'portcullis';
  if (/^[^@\s]+@[^@\s]+$/.test(base)) {
    const [local, domain] = base.split('@') as [string, string];
    return `${local}${'a'.repeat(Math.max(0, length - base.length))}@${domain}`;
  }
  let out = base;
  while (out.length < length) out += base;
  return out.slice(0, length);
}

function oversized(p: InjectionPoint, bound: Bound): unknown {
  if (bound.kind === 'maxLength') {
    const cap = p.where === 'body' ? 50_000 : 4000;
    return padded(valueText(p), Math.min(Math.max(bound.limit * 10, bound.limit + 100), cap));
  }
  if (bound.kind === 'maxItems') {
    const items = p.value as unknown[];
    const n = Math.min(Math.max(bound.limit * 5, bound.limit + 5), 1000);
    return Array.from({ length: n }, (_, i) => items[i % items.length]);
  }
  const big = bound.limit >= 1e6 ? bound.limit + 1 : bound.limit * 10 + 1;
  return p.type === 'integer' ? Math.ceil(big) : big;
}

function atLimit(p: InjectionPoint, bound: Bound): unknown {
  if (bound.kind === 'maxLength') return padded(valueText(p), bound.limit);
  if (bound.kind === 'maxItems') {
    const items = p.value as unknown[];
    return Array.from({ length: Math.max(1, bound.limit) }, (_, i) => items[i % items.length]);
  }
  return bound.limit;
}

function describeValue(v: unknown, bound: Bound): string {
  if (bound.kind === 'maxLength') return `a ${String(v).length}-character string (maxLength ${bound.limit})`;
  if (bound.kind === 'maxItems') return `${(v as unknown[]).length} items (maxItems ${bound.limit})`;
  return `${String(v)} (maximum ${bound.limit})`;
}

/** The oversized value came back in the answer: it was stored or processed as sent. */
function echoed(ex: Exchange, p: InjectionPoint, v: unknown, bound: Bound): boolean {
  if (bound.kind === 'maxLength') return ex.body.includes(String(v));
  const json = ex.json();
  let found = false;
  const walk = (x: unknown, depth: number) => {
    if (found || depth > 6 || !x || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      for (const item of x.slice(0, 50)) walk(item, depth + 1);
      return;
    }
    for (const [k, val] of Object.entries(x as Record<string, unknown>)) {
      if (k === p.key && (bound.kind === 'maxItems' ? Array.isArray(val) && val.length === (v as unknown[]).length : val === v)) found = true;
      else walk(val, depth + 1);
    }
  };
  walk(json, 0);
  return found;
}

const MAX_SIZE_POINTS = 4;

export const sizeLimits = defineCheck({
  id: 'api4-size-limits-not-enforced',
  title: 'Input size limits not enforced',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  confidence: 'medium',
  // Low: an oversized value is stored; what it breaks depends on where it is used later (AC:H).
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: MAX_SIZE_POINTS * 2,
  description:
    'For inputs with a declared bound (strings with maxLength, arrays with maxItems, numbers with maximum) in the body or query, sends key 1\'s ' +
    'valid request with one value far past its bound (10x the length, 5x the items, 10x the maximum). Finding when the server accepts it (2xx; ' +
    'medium confidence when the answer shows the value was kept, low otherwise), or when it answers 5xx while the same request with a value ' +
    'exactly at the bound succeeds. Writes only touch objects the scan created; needs key 1\'s own request to succeed first.',
  remediation:
    'Validate every request against its schema on the server (maxLength, maxItems, maximum, and an overall body size limit) before any ' +
    'processing or storage, and answer 400 (413 for oversized bodies) instead of failing later.',
  references: [OWASP_API4, CWE770, 'https://cwe.mitre.org/data/definitions/1284.html'],
  appliesTo: (e) => e.flags.includes('URC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const baseline = await ctx.baseline('key1');
    const first = await freshRequest(ctx);
    if (!baseline?.ok || !first) return;
    const bounded = injectionPoints(ctx, ep, first, { optionalQuery: false })
      // Page sizes have their own check.
      .filter((p) => p.where !== 'path' && boundOf(p) && !(p.where === 'query' && SIZE_NAME.test(normalizedName(p.name))))
      .sort((a, b) => (a.where === 'body' ? 0 : 1) - (b.where === 'body' ? 0 : 1))
      .slice(0, MAX_SIZE_POINTS);
    const accepted: { point: InjectionPoint; bound: Bound; value: unknown; ex: Exchange; kept: boolean }[] = [];
    const crashed: { point: InjectionPoint; bound: Bound; value: unknown; ex: Exchange; control: Exchange }[] = [];
    // Creates get a fresh request (new unique values) per attempt; other writes reuse the scan's object.
    const creates = ep.method === 'POST' && !/\{/.test(ep.path);
    const pointIn = async (name: string, fresh: boolean): Promise<InjectionPoint | undefined> => {
      const request = fresh && creates ? await freshRequest(ctx) : first;
      return request ? injectionPoints(ctx, ep, request, { optionalQuery: false }).find((p) => p.name === name) : undefined;
    };
    for (const [i, p0] of bounded.entries()) {
      if (ctx.budgetLeft() <= 0) break;
      const point = i === 0 ? p0 : await pointIn(p0.name, true);
      if (!point) continue;
      const bound = boundOf(point)!;
      const value = oversized(point, bound);
      const ex = await ctx.sendPrepared(point.with(value), AS_KEY1);
      if (ex.ok) {
        accepted.push({ point, bound, value, ex, kept: echoed(ex, point, value, bound) });
      } else if (ex.status >= 500 && ctx.budgetLeft() > 0) {
        const cp = await pointIn(point.name, true);
        if (!cp) continue;
        const control = await ctx.sendPrepared(cp.with(atLimit(cp, bound)), AS_KEY1);
        if (control.ok) crashed.push({ point, bound, value, ex, control });
      }
    }
    if (crashed.length) {
      const c = crashed[0]!;
      yield {
        name: 'Oversized input causes a server error',
        confidence: 'high',
        parameter: crashed.map((x) => x.point.name).join(', '),
        cvss: withPrivileges(ctx, 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L'),
        description:
          `${describeEndpoint(ep)} fails with HTTP ${c.ex.status} when ${describePoint(c.point)} is ${describeValue(c.value, c.bound)}, while the same ` +
          `request with a value exactly at the bound succeeds (HTTP ${c.control.status}). The size is not validated before the value reaches code ` +
          '(or a database constraint) that cannot handle it.',
        notes: crashed.map((x) => `${describePoint(x.point)}: ${describeValue(x.value, x.bound)} -> HTTP ${x.ex.status}; at the bound -> HTTP ${x.control.status}.`),
        exchanges: [
          { label: 'Baseline', exchange: baseline },
          { label: `Attack: oversized ${c.point.name}`, exchange: c.ex },
          { label: `Control: ${c.point.name} exactly at its bound`, exchange: c.control },
        ],
        reproduce: c.ex,
      };
    }
    if (accepted.length) {
      const kept = accepted.filter((a) => a.kept);
      const a = kept[0] ?? accepted[0]!;
      yield {
        confidence: kept.length ? 'medium' : 'low',
        parameter: accepted.map((x) => x.point.name).join(', '),
        cvss: withPrivileges(ctx, ctx.check.cvss),
        description:
          `${describeEndpoint(ep)} accepted values past their declared bounds (HTTP ${a.ex.status}): ` +
          `${accepted.map((x) => `${describePoint(x.point)} with ${describeValue(x.value, x.bound)}${x.kept ? ', kept as sent' : ''}`).join('; ')}. ` +
          'The documented limits are not enforced, so clients can make the server store and process arbitrarily large data.',
        notes: accepted.map((x) => `${describePoint(x.point)}: ${describeValue(x.value, x.bound)} -> HTTP ${x.ex.status}${x.kept ? ' (the answer carries the value)' : ''}.`),
        exchanges: [
          { label: 'Baseline', exchange: baseline },
          { label: `Attack: oversized ${a.point.name}`, exchange: a.ex },
        ],
        reproduce: a.ex,
      };
    }
  },
});

// ---------------------------------------------------------------- slow responses

const SLOW_POINTS = 2;
/**
 * Slow: past the slowest re-timed baseline by 200 ms (more when the baseline samples vary: twice their
 * spread), and 3x as long. No fixed time on its own: on a loaded machine or a noisy target the bar rises.
 */
const SLOW: SlowBar = { floorMs: 200, ratio: 3 };
/** Half the size must take this share of the full size's extra time: a cost that grows with the input gives about half. */
const HALF_SHARE = { min: 0.1, max: 0.8 };
/** Per point: the screening probe, then three baselines, the size twice and half of it (once more when unclear). */
const SLOW_REQUESTS = 8;

/** Free text; fields that validators usually check with a regular expression are the algorithmic-complexity check's (short inputs first). */
function freeText(p: InjectionPoint): boolean {
  const s = p.schema ?? {};
  return p.type === 'string' && typeof p.value === 'string' && !s.enum && !s.pattern && !isFixedFormat(s) && !/^(uri|url|email|password)$/.test(String(s.format ?? '')) && !regexValidated(p);
}

interface SlowProof {
  base: BaselineTimes;
  /** The unchanged request, first of the interleaved samples. */
  ref: Exchange;
  first: Exchange;
  repeat: Exchange;
  /** The faster of the half-size answers (one, or two when the first was unclear). */
  half: Exchange;
  halves: Exchange[];
}

/**
 * Confirmation with no other timing measurement of the scan in flight: the unchanged request, the
 * oversized value, the unchanged request, half the size, the unchanged request, the oversized value
 * again. Both oversized answers must be slow against the three baselines; half the size must cost part of
 * the extra time (timed twice when the first answer is unclear: load only ever slows a sample down).
 */
async function confirmSlow(ctx: CheckContext, unchanged: () => Promise<Exchange>, big: () => Promise<Exchange>, half: () => Promise<Exchange>): Promise<SlowProof | null> {
  const base = new BaselineTimes();
  const ref = await unchanged();
  if (!base.add(ref)) return null;
  const first = await big();
  if (!base.slow(first, SLOW)) return null;
  if (!base.add(await unchanged())) return null;
  const halves = [await half()];
  if (!base.add(await unchanged())) return null;
  const repeat = await big();
  // Judged against all three baselines (the bar may have risen since the first answer).
  if (!base.slow(first, SLOW) || !base.slow(repeat, SLOW)) return null;
  const longest = Math.max(first.durationMs, repeat.durationMs);
  // Load only ever slows a sample down: a half-size answer that took too long is timed once more and the faster one counts.
  const tooSlow = (h: Exchange) => !h.response || base.shareOf(h.durationMs, longest) > HALF_SHARE.max || h.durationMs + base.spread >= longest;
  if (tooSlow(halves[0]!) && ctx.budgetLeft() > 0) halves.push(await half());
  const h = fastestAnswer(halves);
  if (!h || tooSlow(h) || base.shareOf(h.durationMs, longest) < HALF_SHARE.min) return null;
  return { base, ref, first, repeat, half: h, halves };
}

export const slowOversize = defineCheck({
  id: 'api4-slow-oversized-input',
  title: 'Oversized input slows responses',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-400',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  // One more for the re-timed screening baseline; a second confirmation (all but the screening) when the first disagrees.
  budget: SLOW_POINTS * SLOW_REQUESTS + 1 + (MAX_CONFIRMATIONS - 1) * (SLOW_REQUESTS - 1),
  description:
    'On reads, and on writes whose request key 1 can repeat, sends one free-text value repeated to 20x its maxLength (at least 2,000 ' +
    'characters). When that answer is slow, confirms with no other timing measurement of the scan in flight, interleaving the unchanged ' +
    'request with the probes: unchanged, oversized, unchanged, half the size, unchanged, oversized again. Finding when both oversized ' +
    'answers take 3x as long as the slowest of the three baselines and more than it by 200 ms or twice the baselines\' spread, whichever ' +
    'is larger (a loaded machine or a noisy server raises the bar), and half the size costs clearly less (between 10% and 80% of the extra time, ' +
    'timed twice when too slow): the cost grows with the input, where a merely erratic server is slow for any size or none. A confirmation ' +
    'that fails runs once more, and that one decides (two of the three verdicts, the screening\'s included).',
  remediation:
    'Reject input past its documented size before doing work on it, bound the cost of expensive operations (fuzzy matching, regular ' +
    'expressions, parsing) and set time limits on request handling.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/400.html', 'https://owasp.org/www-community/attacks/Denial_of_Service'],
  appliesTo: (e) => e.flags.includes('URC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const baseline = await ctx.baseline('key1');
    const request = await ctx.baselineRequest();
    if (!baseline?.response || !request) return;
    // Creates would store each oversized value: only reads, and writes to the scan's own objects.
    if (ep.method === 'POST' && !/\{/.test(ep.path)) return;
    const points = injectionPoints(ctx, ep, request, { optionalQuery: false })
      .filter((p) => p.where !== 'path' && freeText(p))
      .sort((a, b) => (typeof b.schema?.maxLength === 'number' ? 1 : 0) - (typeof a.schema?.maxLength === 'number' ? 1 : 0))
      .slice(0, SLOW_POINTS);
    if (!points.length) return;
    const unchanged = () => ctx.sendPrepared(request, AS_KEY1);
    // Screening compares with the scan's first baseline; a cold or loaded first answer is re-timed once.
    let screenBase = new BaselineTimes();
    screenBase.add(baseline);
    let retimed = false;
    for (const p of points) {
      if (ctx.budgetLeft() < SLOW_REQUESTS) break;
      const max = typeof p.schema?.maxLength === 'number' ? p.schema.maxLength : 100;
      const cap = p.where === 'body' ? 20_000 : 4000;
      const size = Math.min(Math.max(max * 20, 2000), cap);
      const halfSize = Math.floor(size / 2);
      const big = padded(valueText(p), size);
      const screen = await timingScreen(ctx, () => ctx.sendPrepared(p.with(big), AS_KEY1));
      let slow = screenBase.slow(screen, SLOW);
      if (!slow && !retimed && screen.response && screen.durationMs >= SLOW.floorMs) {
        retimed = true;
        const again = await timingScreen(ctx, unchanged);
        if (again.response && again.durationMs < screenBase.fastest) {
          screenBase = new BaselineTimes();
          screenBase.add(again);
          slow = screenBase.slow(screen, SLOW);
        }
      }
      if (!slow) continue;
      const proof = await confirmUntilAgreed(ctx, () =>
        confirmSlow(ctx, unchanged, () => ctx.sendPrepared(p.with(big), AS_KEY1), () => ctx.sendPrepared(p.with(padded(valueText(p), halfSize)), AS_KEY1)),
      );
      if (!proof) continue;
      const { base, first, repeat, half } = proof;
      yield {
        parameter: p.name,
        cvss: withPrivileges(ctx, ctx.check.cvss),
        description:
          `${describeEndpoint(ep)} slows down with oversized input in ${describePoint(p)}: ${size} characters took ${ms(first.durationMs)} and ` +
          `${ms(repeat.durationMs)} (the unchanged request at most ${ms(base.slowest)}, timed between them), and ${halfSize} characters ${ms(half.durationMs)}. ` +
          'The work grows with the input, so a few such requests in parallel can tie up the server.',
        notes: [
          `Timings: unchanged request ${base.describe()} (first baseline of the scan ${ms(baseline.durationMs)}); ${size} characters ` +
            `${ms(first.durationMs)}, ${ms(repeat.durationMs)}; ${halfSize} characters ${proof.halves.map((h) => ms(h.durationMs)).join(', ')}. ` +
            `Slow meant at least ${ms(base.bar(SLOW))}.`,
          ...(typeof p.schema?.maxLength === 'number' ? [`The documented maxLength of ${p.name} is ${p.schema.maxLength}.`] : []),
        ],
        exchanges: [
          { label: 'Baseline (re-sent, timed)', exchange: proof.ref },
          { label: `Attack: ${size}-character ${p.name}`, exchange: first },
          { label: `Confirmation: ${halfSize} characters`, exchange: half },
          { label: `Confirmation: ${size} characters again`, exchange: repeat },
        ],
        reproduce: repeat,
      };
      return;
    }
  },
});
