// API4:2023 Unrestricted Resource Consumption: page sizes the server honours past their maximum,
// no rate limit on an ordinary endpoint, inputs accepted past their declared size limits (or
// crashing the server), and responses that slow down with oversized input.

import type { Endpoint, JsonSchema } from '../../../shared/contract';
import { adjustCvss } from '../cvss';
import type { Exchange } from '../http/exchange';
import { mutate } from '../requests';
import { compareBodies } from '../similarity';
import { describeEndpoint, defineCheck, forEachLimit } from './helpers';
import {
  AS_KEY1,
  describePoint,
  freshRequest,
  injectionPoints,
  itemCount,
  ms,
  throttleSignals,
  valueText,
  type InjectionPoint,
} from './input-points';
import { timingScreen, withTimingLock } from './timing-gate';
import type { CheckContext, FindingDraft } from './types';

const OWASP_API4 = 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/';
const CWE770 = 'https://cwe.mitre.org/data/definitions/770.html';

/** Public endpoints score PR:N, the others PR:L. */
function withPrivileges(ctx: CheckContext, vector: string, endpoint: Endpoint = ctx.endpoint): string {
  return adjustCvss(vector, { PR: ctx.authSpec(endpoint).declaredSecured ? 'L' : 'N' });
}

// ---------------------------------------------------------------- page size

/** Paging parameters other than the size: left as they are when filters are dropped. */
const PAGING = /^(page|pagenumber|offset|skip|start|cursor|after|before|from|pagetoken|nexttoken)$/;
const SIZE_NAME = /^(limit|size|pagesize|perpage|pagelimit|count|max|maxresults|maxitems|top|first|last|take|rows|num|numresults|resultsperpage|itemsperpage|batchsize|fetch|fetchsize|length|quantity)$/;

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function sizeParam(endpoint: Endpoint) {
  return endpoint.parameters.find((p) => {
    if (p.in !== 'query' || !SIZE_NAME.test(normalizedName(p.name))) return false;
    const t = p.schema?.type;
    return t === undefined || t === 'integer' || t === 'number' || (Array.isArray(t) && (t.includes('integer') || t.includes('number')));
  });
}

export const pageSizeAbuse = defineCheck({
  id: 'api4-page-size-unbounded',
  title: 'Page size not bounded',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  severity: 'medium',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 3,
  description:
    'On list endpoints with a page-size parameter (limit, page_size, per_page, size...), re-sends key 1\'s request to confirm a stable answer, then ' +
    'asks for 10x and 100x the page size. Finding when the answer holds more items than the documented maximum (the parameter\'s `maximum`), or, ' +
    'without a documented maximum, more than twice the items and over 100 of them (no cap). Lists smaller than one page are not judged.',
  remediation:
    'Validate page-size parameters against a server-side maximum (reject or clamp larger values) and document it as the parameter\'s `maximum`; ' +
    'prefer cursor pagination for large collections.',
  references: [OWASP_API4, CWE770, 'https://cheatsheetseries.owasp.org/cheatsheets/REST_Security_Cheat_Sheet.html#rate-limiting'],
  appliesTo: (e) => e.flags.includes('URC') && (e.method === 'GET' || e.method === 'HEAD') && !!sizeParam(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const param = sizeParam(ep)!;
    const baseline = await ctx.baseline('key1');
    const baseRequest = await ctx.baselineRequest();
    if (!baseline?.ok || !baseRequest || !itemCount(baseline)) return;
    const schema = param.schema ?? {};
    const present = Number(baseRequest.url.searchParams.get(param.name));
    const def = typeof schema.default === 'number' ? schema.default : null;
    const b = Number.isFinite(present) && present > 0 ? present : (def ?? itemCount(baseline)!);
    if (b < 1) return;
    // Optional filters (set from examples) shrink the collection: page through all of it.
    const dropped: Record<string, null> = {};
    for (const p of ep.parameters) if (p.in === 'query' && !p.required && p.name !== param.name && !PAGING.test(normalizedName(p.name))) dropped[p.name] = null;
    const request = mutate(baseRequest, { query: { ...dropped, [param.name]: String(b) } });
    const point = injectionPoints(ctx, ep, request).find((p) => p.where === 'query' && p.name === param.name);
    if (!point) return;
    const send = (v: number) => ctx.sendPrepared(point.with(String(v)), AS_KEY1);
    const again = await send(b);
    const n0 = again.ok ? (itemCount(again) ?? 0) : 0;
    // A list shorter than one page cannot show whether bigger pages are honoured.
    if (n0 < b) return;
    const x10 = await send(b * 10);
    const c10 = x10.ok ? (itemCount(x10) ?? 0) : 0;
    if (c10 <= n0) return;
    const x100 = ctx.budgetLeft() > 0 ? await send(b * 100) : null;
    const c100 = x100?.ok ? (itemCount(x100) ?? 0) : 0;
    const best = c100 > c10 ? { ex: x100!, n: c100, asked: b * 100 } : { ex: x10, n: c10, asked: b * 10 };
    const max = typeof schema.maximum === 'number' ? schema.maximum : null;
    const shape = compareBodies(best.ex, again).structure;
    if (shape < 0.8) return;
    let proof: string | null = null;
    let confidence: 'high' | 'medium' = 'high';
    if (max !== null && best.n > max) {
      proof = `${param.name}=${best.asked} returned ${best.n} items, past the documented maximum of ${max}`;
    } else if (max === null && best.n > 2 * n0 && best.n > 100 && (best.ex.response?.bytes ?? 0) > 2 * (again.response?.bytes ?? 0)) {
      proof = `${param.name}=${best.asked} returned ${best.n} items (${n0} at ${param.name}=${b}); no cap is documented or applied`;
      confidence = 'medium';
    }
    if (!proof) return;
    yield {
      parameter: param.name,
      confidence,
      cvss: withPrivileges(ctx, ctx.check.cvss),
      description:
        `${describeEndpoint(ep)} honours any page size: ${proof}. A client can ask for whole collections in one request, ` +
        'making the server read, serialise and send far more data than a page should hold (memory, CPU and bandwidth exhaustion).',
      notes: [
        `Item counts: ${param.name}=${b}: ${n0} (twice, stable); ${param.name}=${b * 10}: ${c10}${x100 ? `; ${param.name}=${b * 100}: ${c100}` : ''}.`,
        `Response sizes: ${again.response?.bytes ?? 0} bytes -> ${best.ex.response?.bytes ?? 0} bytes.`,
      ],
      exchanges: [
        { label: 'Baseline (re-sent, stable)', exchange: again },
        { label: `Attack: ${param.name}=${b * 10}`, exchange: x10 },
        ...(x100 ? [{ label: `Attack: ${param.name}=${b * 100}`, exchange: x100 }] : []),
      ],
      reproduce: best.ex,
    };
  },
});

// ---------------------------------------------------------------- rate limit

const BURST = 30;

export const noRateLimit = defineCheck({
  id: 'api4-no-rate-limit',
  title: 'No rate limiting',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  severity: 'low',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: BURST,
  description:
    `Sends a bounded burst of ${BURST} identical reads (key 1) to one ordinary endpoint, within the scan's own rate cap. Finding (low) when none is ` +
    'refused with 429 or 503 and no response carries rate-limit headers (RateLimit-*, X-RateLimit-*, Retry-After). A limit enforced further ' +
    'in front of the API, or above the burst size, is not seen: the finding says what was observed.',
  remediation:
    'Rate-limit every endpoint per client and per credential (an API gateway or middleware), answer 429 with Retry-After when the limit is ' +
    'reached, and advertise the policy with RateLimit headers.',
  references: [OWASP_API4, CWE770, 'https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/'],
  appliesTo: (e) => e.flags.includes('URC') && e.method === 'GET',
  async *run(ctx) {
    const candidates = [...ctx.endpoints].sort((a, b) => score(ctx, a) - score(ctx, b));
    let chosen: { endpoint: Endpoint; baseline: Exchange } | null = null;
    for (const endpoint of candidates.slice(0, 3)) {
      const ex = await ctx.baseline('key1', endpoint);
      if (ex?.ok) {
        chosen = { endpoint, baseline: ex };
        break;
      }
    }
    if (!chosen) return;
    const { endpoint, baseline } = chosen;
    // Headers on the baseline already show a limit: nothing to send.
    if (throttleSignals(baseline).length) return;
    const request = await ctx.baselineRequest(endpoint);
    if (!request) return;
    const results: Exchange[] = [];
    const started = performance.now();
    let stop = false;
    await forEachLimit(
      Array.from({ length: BURST }, (_, i) => i),
      ctx.parallelism,
      async () => {
        if (stop || ctx.budgetLeft(endpoint) <= 0) return;
        const ex = await ctx.sendPrepared(request, AS_KEY1);
        results.push(ex);
        if (!ex.ok || throttleSignals(ex).length) stop = true;
      },
    );
    const elapsed = performance.now() - started;
    if (stop || results.length < BURST) return;
    const last = results[results.length - 1]!;
    yield {
      endpoint,
      parameter: 'rate-limit',
      cvss: withPrivileges(ctx, ctx.check.cvss, endpoint),
      description:
        `${BURST} identical requests to ${describeEndpoint(endpoint)} in ${(elapsed / 1000).toFixed(1)} s were all answered ${[...new Set(results.map((r) => r.status))].join('/')}, ` +
        'with no 429 and no rate-limit headers. Nothing tells clients of a limit, and none was reached: the API appears to accept requests as fast ' +
        'as a client sends them, which lets one client exhaust it (and makes brute force and scraping cheap). A limit enforced further in front of ' +
        'the API or above this small burst would not show here.',
      notes: [`Burst: ${BURST} requests as key 1, ${ctx.parallelism} at a time, in ${ms(elapsed)}; statuses: ${results.map((r) => r.status).join(',')}.`],
      exchanges: [
        { label: 'Baseline', exchange: baseline },
        { label: `Burst request ${BURST} of ${BURST}`, exchange: last },
      ],
      reproduce: last,
    };
  },
});

/** Lower is better: authenticated, no path parameters, then fewer parameters. */
function score(ctx: CheckContext, e: Endpoint): number {
  return (ctx.authSpec(e).declaredSecured ? 0 : 10) + (/\{/.test(e.path) ? 5 : 0) + e.parameters.length * 0.1;
}

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
  severity: 'low',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:L',
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
        severity: 'medium',
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
/** The oversized answer must take this much longer than the baseline (and 3x as long). */
const SLOW_MARGIN_MS = 400;

function freeText(p: InjectionPoint): boolean {
  const s = p.schema ?? {};
  return p.type === 'string' && typeof p.value === 'string' && !s.enum && !s.pattern && !isFixedFormat(s) && !/^(uri|url|email|password)$/.test(String(s.format ?? ''));
}

export const slowOversize = defineCheck({
  id: 'api4-slow-oversized-input',
  title: 'Oversized input slows responses',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-400',
  severity: 'medium',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: SLOW_POINTS * 5,
  description:
    'On reads, and on writes whose request key 1 can repeat, sends one free-text value repeated to 20x its maxLength (at least 2,000 ' +
    'characters). When that answer is slow, confirms with no other timing measurement of the scan in flight: the unchanged request re-timed, ' +
    'the oversized value twice and half of it. Finding when the oversized request takes 3x as long and at least 400 ms more than the baseline, ' +
    'again on the repeat, and half the size takes less time (the cost grows with the input).',
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
    const slowAgainst = (base: number) => (ex: Exchange) => !!ex.response && ex.durationMs >= base + SLOW_MARGIN_MS && ex.durationMs >= 3 * base;
    // Each oversized value is screened alongside the scan's other requests; a slow one is confirmed alone.
    for (const p of points) {
      if (ctx.budgetLeft() < 5) break;
      const max = typeof p.schema?.maxLength === 'number' ? p.schema.maxLength : 100;
      const cap = p.where === 'body' ? 20_000 : 4000;
      const size = Math.min(Math.max(max * 20, 2000), cap);
      const big = padded(valueText(p), size);
      const screen = await timingScreen(ctx, () => ctx.sendPrepared(p.with(big), AS_KEY1));
      if (!slowAgainst(baseline.durationMs)(screen)) continue;
      const finding = await withTimingLock(ctx, async (): Promise<FindingDraft | null> => {
        const again = await ctx.sendPrepared(request, AS_KEY1);
        if (!again.response) return null;
        // The faster sample: load from other checks only ever slows a sample down.
        const base = Math.min(baseline.durationMs, again.durationMs);
        const slow = slowAgainst(base);
        const first = await ctx.sendPrepared(p.with(big), AS_KEY1);
        if (!slow(first)) return null;
        const half = await ctx.sendPrepared(p.with(padded(valueText(p), Math.floor(size / 2))), AS_KEY1);
        const repeat = await ctx.sendPrepared(p.with(big), AS_KEY1);
        const longest = Math.max(first.durationMs, repeat.durationMs);
        if (!slow(repeat) || !half.response || half.durationMs <= base || half.durationMs + 100 >= longest) return null;
        return {
          parameter: p.name,
          cvss: withPrivileges(ctx, ctx.check.cvss),
          description:
            `${describeEndpoint(ep)} slows down with oversized input in ${describePoint(p)}: ${size} characters took ${ms(first.durationMs)} and ` +
            `${ms(repeat.durationMs)} (the unchanged request ${ms(base)}), and ${Math.floor(size / 2)} characters ${ms(half.durationMs)}. ` +
            'The work grows with the input, so a few such requests in parallel can tie up the server.',
          notes: [
            `Timings: baseline ${ms(baseline.durationMs)} and ${ms(again.durationMs)}; ${size} characters ${ms(first.durationMs)}, ${ms(repeat.durationMs)}; ` +
              `${Math.floor(size / 2)} characters ${ms(half.durationMs)}.`,
            ...(typeof p.schema?.maxLength === 'number' ? [`The documented maxLength of ${p.name} is ${p.schema.maxLength}.`] : []),
          ],
          exchanges: [
            { label: 'Baseline (re-sent)', exchange: again },
            { label: `Attack: ${size}-character ${p.name}`, exchange: first },
            { label: `Confirmation: ${Math.floor(size / 2)} characters`, exchange: half },
            { label: `Confirmation: ${size} characters again`, exchange: repeat },
          ],
          reproduce: repeat,
        };
      });
      if (finding) {
        yield finding;
        return;
      }
    }
  },
});

export const URC_CHECKS = [pageSizeAbuse, noRateLimit, sizeLimits, slowOversize];

