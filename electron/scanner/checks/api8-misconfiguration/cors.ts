// API8:2023 Security Misconfiguration: the CORS policy. Server-wide in practice, so each problem is
// one finding for the API listing the endpoints where it was seen.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { mutate, toProbe } from '../../requests';
import { apiWideFinding, defineCheck, describeEndpoint, forEachLimit, type ApiWideIssue, type Hit } from '../common/helpers';
import type { CheckContext } from '../types';
import { OWASP_API8 } from '../common/references';

const CORS_REFS = [
  OWASP_API8,
  'https://cwe.mitre.org/data/definitions/942.html',
  'https://portswigger.net/web-security/cors',
  'https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS',
];
const SAFE = new Set(['GET', 'HEAD']);
/** Endpoints tested for the `null` origin (besides those that reflect any origin). */
const NULL_ORIGIN_SAMPLE = 3;

const CORS_ISSUES: Record<string, ApiWideIssue> = {
  reflectedCredentials: {
    id: 'cors-any-origin-with-credentials',
    name: 'CORS trusts any origin, with credentials',
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    description:
      'The API echoes an arbitrary Origin (a random one the scanner made up) in Access-Control-Allow-Origin and sends ' +
      'Access-Control-Allow-Credentials: true. Any web page a signed-in user visits can call the API with the user\'s cookies and read the answers.',
    recommendation:
      'Answer CORS only for an explicit allow-list of trusted origins, compared exactly; never echo the request\'s Origin. ' +
      'Send Access-Control-Allow-Credentials only for those origins, and add `Vary: Origin`.',
  },
  reflected: {
    id: 'cors-any-origin',
    name: 'CORS trusts any origin',
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    description:
      'The API echoes an arbitrary Origin (a random one the scanner made up) in Access-Control-Allow-Origin, without credentials. ' +
      'Any web page can read its responses from a visitor\'s browser; harmful when responses depend on the network position (intranet APIs).',
    recommendation: 'Answer CORS only for an explicit allow-list of origins, compared exactly, and add `Vary: Origin`.',
  },
  nullCredentials: {
    id: 'cors-null-origin-with-credentials',
    name: 'CORS trusts the "null" origin, with credentials',
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    description:
      'The API answers `Origin: null` with Access-Control-Allow-Origin: null and Access-Control-Allow-Credentials: true. Sandboxed iframes and ' +
      'local files send that origin, so any page can read the API with the user\'s cookies.',
    recommendation: 'Never allow the `null` origin; allow only explicit trusted origins.',
  },
  null: {
    id: 'cors-null-origin',
    name: 'CORS trusts the "null" origin',
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    description: 'The API answers `Origin: null` with Access-Control-Allow-Origin: null. Sandboxed iframes and local files send that origin.',
    recommendation: 'Never allow the `null` origin; allow only explicit trusted origins.',
  },
  wildcard: {
    id: 'cors-wildcard',
    name: 'CORS allows every origin (*)',
    confidence: 'high',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N',
    description:
      'Responses carry Access-Control-Allow-Origin: *. Browsers then send no cookies, so this is only a risk for APIs that trust the caller\'s ' +
      'network position; listed for review.',
    recommendation: 'Prefer an explicit allow-list of origins for APIs that are not meant to be called from any web page.',
  },
};

function randomOrigin(random: SeededRandom): string {
  return `https://${random.hex(6)}.portcullis-cors-probe.example`;
}

interface CorsProbe {
  endpoint: Endpoint;
  exchange: Exchange;
  origin: string;
}

/** The CORS probe for an endpoint: its own request with an Origin (GET/HEAD), else a preflight (never a write). */
async function corsProbe(ctx: CheckContext, endpoint: Endpoint, origin: string): Promise<CorsProbe | null> {
  if (ctx.budgetLeft(endpoint) <= 0) return null;
  if (SAFE.has(endpoint.method)) {
    const request = await ctx.baselineRequest(endpoint);
    if (!request) return null;
    const ex = await ctx.sendPrepared(mutate(request, { headers: { origin } }), { kind: 'key', key: 1 });
    return { endpoint, exchange: ex, origin };
  }
  const request = (await ctx.baselineRequest(endpoint)) ?? (await ctx.prepare(endpoint, 1, 'read'));
  if (!request) return null;
  const preflight = mutate(request, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': endpoint.method,
      'access-control-request-headers': 'authorization,content-type',
      'content-type': null,
    },
    body: null,
  });
  const ex = await ctx.send(toProbe(preflight, { kind: 'none' }), endpoint);
  return { endpoint, exchange: ex, origin };
}

function allowsCredentials(ex: Exchange): boolean {
  return (ex.header('access-control-allow-credentials') ?? '').trim().toLowerCase() === 'true';
}

export const corsPolicy = defineCheck({
  id: 'api8-cors-policy',
  title: 'CORS policy trusts untrusted origins',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-942',
  confidence: 'high',
  cvss: CORS_ISSUES.reflectedCredentials!.cvss!,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 2000,
  description:
    'Sends each endpoint\'s request (a CORS preflight for methods other than GET/HEAD) with a random made-up Origin, and a few with `Origin: null`. ' +
    'Finding when Access-Control-Allow-Origin echoes that origin (any origin is trusted) or `null`; high when Access-Control-Allow-Credentials is true. ' +
    '`*` is listed as information. One finding per problem for the whole API, listing the endpoints.',
  remediation: CORS_ISSUES.reflectedCredentials!.recommendation,
  references: CORS_REFS,
  async *run(ctx) {
    const hits: Record<'reflectedCredentials' | 'reflected' | 'nullCredentials' | 'null' | 'wildcard', Hit[]> = { reflectedCredentials: [], reflected: [], nullCredentials: [], null: [], wildcard: [] };
    const quiet: Endpoint[] = [];
    await forEachLimit(ctx.endpoints, ctx.parallelism, async (endpoint) => {
      const probe = await corsProbe(ctx, endpoint, randomOrigin(ctx.random.fork(describeEndpoint(endpoint))));
      if (!probe?.exchange.response) return;
      const acao = (probe.exchange.header('access-control-allow-origin') ?? '').trim();
      const creds = allowsCredentials(probe.exchange);
      if (acao === probe.origin) {
        (creds ? hits.reflectedCredentials : hits.reflected).push({
          endpoint,
          exchange: probe.exchange,
          detail: `Origin ${probe.origin} echoed${creds ? ' with credentials' : ''}`,
        });
      } else if (acao === '*') {
        hits.wildcard.push({ endpoint, exchange: probe.exchange, detail: 'Access-Control-Allow-Origin: *' });
      } else {
        quiet.push(endpoint);
      }
    });
    // `null` is often allowed on its own; try a few endpoints that did not echo a random origin.
    const sample = quiet.sort((a, b) => a.path.localeCompare(b.path)).slice(0, NULL_ORIGIN_SAMPLE);
    for (const endpoint of sample) {
      const probe = await corsProbe(ctx, endpoint, 'null');
      if (!probe?.exchange.response) continue;
      if ((probe.exchange.header('access-control-allow-origin') ?? '').trim() === 'null') {
        const creds = allowsCredentials(probe.exchange);
        (creds ? hits.nullCredentials : hits.null).push({ endpoint, exchange: probe.exchange, detail: `Origin null allowed${creds ? ' with credentials' : ''}` });
      }
    }
    for (const [k, list] of Object.entries(hits)) if (list.length) yield apiWideFinding(CORS_ISSUES[k]!, list);
  },
});
