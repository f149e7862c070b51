// API8:2023 Security Misconfiguration, transport: TRACE answered with an echo of the request, and plain
// HTTP served where the API speaks HTTPS. Both are server-wide: one finding for the API.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { toProbe } from '../../requests';
import { describeEndpoint, defineCheck } from '../common/helpers';
import { sameAnswer } from '../common/input-points';
import type { CheckContext } from '../types';
import { OWASP_API8 } from '../common/references';


export const traceEnabled = defineCheck({
  id: 'api8-trace-enabled',
  title: 'HTTP TRACE enabled',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-693',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 2,
  description:
    'Sends TRACE (without credentials) to the API\'s base path and to one endpoint, with a header carrying a random token. Finding when the ' +
    'server answers 2xx and echoes that header back: TRACE is enabled, and echoes whatever the request carried (cookies and authorization ' +
    'headers included, the basis of cross-site tracing).',
  remediation: 'Disable TRACE (and TRACK) in the web server, proxy and framework; answer 405.',
  references: [OWASP_API8, 'https://owasp.org/www-community/attacks/Cross_Site_Tracing', 'https://cwe.mitre.org/data/definitions/693.html'],
  async *run(ctx) {
    const urls = [ctx.url('/').href];
    const sample = ctx.endpoints.find((e) => !/\{/.test(e.path));
    if (sample) urls.push(ctx.url(sample.path).href);
    for (const url of [...new Set(urls)]) {
      if (ctx.budgetLeft() <= 0) return;
      const token = `portcullis-${ctx.random.hex(8)}`;
      const ex = await ctx.send({ method: 'TRACE', url, headers: { 'x-portcullis-trace': token }, followRedirects: false });
      if (!ex.ok || !ex.body.includes(token)) continue;
      yield {
        endpoint: null,
        method: 'TRACE',
        path: '*',
        parameter: 'trace',
        description:
          `TRACE ${new URL(url).pathname} answered HTTP ${ex.status}${ex.contentType ? ` (${ex.contentType})` : ''} and echoed the request's ` +
          'headers back, the scanner\'s random header included. A page that can make a victim\'s browser or a proxy send TRACE reads the ' +
          'echoed cookies and authorization headers; TRACE has no use on an API.',
        notes: [`The echoed header: x-portcullis-trace: ${token}.`],
        exchanges: [{ label: 'Attack: TRACE with a random header', exchange: ex }],
        reproduce: ex,
      };
      return;
    }
  },
});

/** A public GET endpoint first (no credential travels over plain HTTP), else any GET. */
async function plainCandidate(ctx: CheckContext): Promise<{ endpoint: Endpoint; baseline: Exchange } | null> {
  const gets = ctx.endpoints.filter((e) => e.method === 'GET').sort((a, b) => Number(ctx.authSpec(a).declaredSecured) - Number(ctx.authSpec(b).declaredSecured));
  for (const endpoint of gets.slice(0, 3)) {
    const anon = await ctx.baseline('anonymous', endpoint);
    if (anon?.response && anon.status < 300) return { endpoint, baseline: anon };
  }
  for (const endpoint of gets.slice(0, 3)) {
    const anon = await ctx.baseline('anonymous', endpoint);
    if (anon?.response && anon.status < 500) return { endpoint, baseline: anon };
  }
  return null;
}

export const plainHttp = defineCheck({
  id: 'api8-plain-http-accepted',
  title: 'Plain HTTP accepted alongside HTTPS',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-319',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 1,
  description:
    'For an API served over HTTPS, sends one endpoint\'s request (without credentials; a public endpoint when there is one) over plain HTTP, ' +
    'on the same port when the base URL names one, else port 80. Finding when the plain request is served like the HTTPS one (same status ' +
    'and body) instead of being redirected to HTTPS or refused.',
  remediation:
    'Do not serve the API over plain HTTP: redirect (301/308) to HTTPS or close the port, and send Strict-Transport-Security so clients ' +
    'never try plain HTTP again.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/319.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html'],
  async *run(ctx) {
    const base = ctx.url('/');
    if (base.protocol !== 'https:') return;
    const found = await plainCandidate(ctx);
    if (!found) return;
    const request = await ctx.baselineRequest(found.endpoint, 'anonymous');
    if (!request) return;
    const url = new URL(request.url);
    url.protocol = 'http:';
    if (!base.port) url.port = '';
    const ex = await ctx.send({ ...toProbe({ ...request, url }, { kind: 'none' }), followRedirects: false }, found.endpoint);
    if (!ex.response || (ex.status >= 300 && ex.status < 400) || !sameAnswer(ex, found.baseline)) return;
    yield {
      endpoint: null,
      method: found.endpoint.method,
      path: '*',
      parameter: 'plain-http',
      description:
        `The API answers plain HTTP: ${describeEndpoint(found.endpoint)} sent to ${url.origin} was served (HTTP ${ex.status}) exactly like the ` +
        'HTTPS request, with no redirect to HTTPS. Clients that use (or are downgraded to) http:// send credentials and data in clear text, ' +
        'readable and changeable by anyone on the network path.',
      notes: [`HTTPS (${base.origin}): HTTP ${found.baseline.status}. Plain HTTP (${url.origin}): HTTP ${ex.status}, no Location header.`],
      exchanges: [
        { label: 'Baseline over HTTPS', exchange: found.baseline },
        { label: 'Attack: the same request over plain HTTP', exchange: ex },
      ],
      reproduce: ex,
    };
  },
});

