// API4:2023 Unrestricted Resource Consumption: page sizes far above what the API should allow.


import type { Endpoint } from '../../../../shared/contract';
import { mutate } from '../../requests';
import { compareBodies } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    AS_KEY1,
    injectionPoints,
    itemCount,
} from '../common/input-points';
import { withPrivileges } from '../common/helpers';
import { CWE770, OWASP_API4 } from '../common/references';

// ---------------------------------------------------------------- page size

/** Paging parameters other than the size: left as they are when filters are dropped. */
const PAGING = /^(page|pagenumber|offset|skip|start|cursor|after|before|from|pagetoken|nexttoken)$/;
export const SIZE_NAME = /^(limit|size|pagesize|perpage|pagelimit|count|max|maxresults|maxitems|top|first|last|take|rows|num|numresults|resultsperpage|itemsperpage|batchsize|fetch|fetchsize|length|quantity)$/;

export function normalizedName(name: string): string {
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
