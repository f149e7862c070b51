// API4:2023 Unrestricted Resource Consumption: a burst of requests with no rate limit. One finding
// for the API (a missing limit is rarely per route), shown at the burst's endpoint and listing the
// other reads whose answers advertise no limit either.


import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint, endpointList, forEachLimit, withPrivileges } from '../common/helpers';
import type { CheckContext } from '../types';
import {
    AS_KEY1,
    ms,
    throttleSignals,
} from '../common/input-points';
import { CWE770, OWASP_API4 } from '../common/references';
import { personalData } from '../common/personal-data';
import { adjustCvss } from '../../cvss';

// ---------------------------------------------------------------- rate limit

const BURST = 30;
/** Other reads looked at (their shared baselines) to list where no limit shows. */
const MAX_LISTED = 40;

/** Lower is better: authenticated, no path parameters, then fewer parameters. */
function score(ctx: CheckContext, e: Endpoint): number {
  return (ctx.authSpec(e).declaredSecured ? 0 : 10) + (/\{/.test(e.path) ? 5 : 0) + e.parameters.length * 0.1;
}

/** Other reads whose (shared, key 1) answers advertise no limit either: where the same missing limit was seen. */
async function quietEndpoints(ctx: CheckContext, burst: Endpoint): Promise<Endpoint[]> {
  const reads = ctx.allEndpoints.filter((e) => e !== burst && e.method === 'GET').slice(0, MAX_LISTED);
  const quiet: Endpoint[] = [];
  await forEachLimit(reads, ctx.parallelism, async (e) => {
    const ex = await ctx.baseline('key1', e);
    if (ex?.ok && !throttleSignals(ex).length) quiet.push(e);
  });
  return quiet.sort((a, b) => a.path.localeCompare(b.path));
}

export const noRateLimit = defineCheck({
  id: 'api4-no-rate-limit',
  title: 'No rate limiting',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-770',
  confidence: 'medium',
  // Low: no limit was seen, but exhausting the API or guessing through it takes sustained volume (AC:H).
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  measuresThrottling: true,
  safety: 'safe',
  scope: 'api',
  budget: BURST,
  description:
    `Sends a bounded burst of ${BURST} identical reads (key 1) to one ordinary endpoint, within the scan's own rate cap. Finding when none is ` +
    'refused with 429 or 503 and no response carries rate-limit headers (RateLimit-*, X-RateLimit-*, Retry-After): low when the endpoint\'s ' +
    'answer carries personal or secret data (e-mail addresses, phone numbers, tokens), information otherwise. A limit enforced further ' +
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
    const others = await quietEndpoints(ctx, endpoint);
    const seen = [endpoint, ...others];
    // A risk where the answer carries personal or secret data (harvested at that pace); a remark otherwise.
    const personal = personalData(baseline);
    const vector = withPrivileges(ctx, ctx.check.cvss, endpoint);
    yield {
      endpoint: null,
      method: '*',
      path: '*',
      seenAt: { method: endpoint.method, path: endpoint.path },
      parameter: 'rate-limit',
      cvss: personal ? vector : adjustCvss(vector, { A: 'N' }),
      description:
        `${BURST} identical requests to ${describeEndpoint(endpoint)} in ${(elapsed / 1000).toFixed(1)} s were all answered ${[...new Set(results.map((r) => r.status))].join('/')}, ` +
        'with no 429 and no rate-limit headers. Nothing tells clients of a limit, and none was reached: the API appears to accept requests as fast ' +
        'as a client sends them, which lets one client exhaust it (and makes brute force and scraping cheap). A limit enforced further in front of ' +
        `the API or above this small burst would not show here. Seen on (${seen.length}): ${endpointList(seen, 20)}. ` +
        (personal
          ? `Its answer carries personal or secret data (${personal.kind} in ${personal.field}), which a client can harvest at that pace.`
          : 'Its answer carries no personal or secret data, so this is reported as information.'),
      notes: [
        `Burst: ${BURST} requests as key 1 to ${describeEndpoint(endpoint)}, ${ctx.parallelism} at a time, in ${ms(elapsed)}; statuses: ${results.map((r) => r.status).join(',')}.`,
        `Endpoints where no limit was seen (${seen.length}):`,
        `  ${describeEndpoint(endpoint)}: a burst of ${BURST}, never refused`,
        ...others.map((e) => `  ${describeEndpoint(e)}: no rate-limit header in its answer`),
      ],
      exchanges: [
        { label: 'Baseline', exchange: baseline },
        { label: `Burst request ${BURST} of ${BURST}`, exchange: last },
      ],
      reproduce: last,
    };
  },
});
