// API9:2023 Improper Inventory Management: older API versions still answering.


import type { Exchange } from '../../http/exchange';
import { mutate, pathParamNames } from '../../requests';
import { compareBodies } from '../../similarity';
import { apiWideFinding, defineCheck, type Hit } from '../common/helpers';
import { AS_KEY1 } from '../common/input-points';
import { documentedPaths, matchesDocumented } from './paths';
import { OWASP_API9 } from '../common/references';

const VERSION = /\/v(\d+)(?=\/|$)/;

function similarShape(a: Exchange, b: Exchange): boolean {
  if (a.status !== b.status) return false;
  const s = compareBodies(a, b);
  return s.json ? s.structure >= 0.8 : s.values >= 0.8;
}

export const oldVersions = defineCheck({
  id: 'api9-old-version-alive',
  title: 'Old API version still answering',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 24,
  description:
    'For documented paths with a version segment (/v2/...), sends key 1\'s request — up to three reads, then up to three writes (POST, ' +
    'PUT, PATCH; never DELETE, and writes only where the shared baseline may send them) — to the two earlier versions and the next one ' +
    '(/v1/..., /v3/...) that the spec does not document, and to a version that cannot exist (/v999/) as a control. Finding when another ' +
    'version answers like the documented one (same status, same shape of body) while the made-up version does not: an undocumented ' +
    'version is alive. One finding per version.',
  coverage:
    'Only numbered path segments (/v2/, /api/v2/); versions in headers, query strings or media types are not tried, nor a version prefix ' +
    'on an unversioned API.',
  remediation:
    'Keep an inventory of every deployed API version; retire old versions (or route them to the same hardened code), and document and ' +
    'protect those that must stay, with the same authentication, rate limits and fixes as the current one.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/'],
  async *run(ctx) {
    const documented = documentedPaths(ctx);
    const newer = new Map<string, boolean>();
    // Reads first; writes only where the baselines send them (creates, or the scan's own objects), never DELETE.
    const versioned = ctx.endpoints
      .filter((e) => VERSION.test(ctx.url(e.path).pathname) && e.method !== 'DELETE')
      .sort((a, b) => pathParamNames(a.path).length - pathParamNames(b.path).length);
    const picked = [...versioned.filter((e) => e.method === 'GET').slice(0, 3), ...versioned.filter((e) => e.method !== 'GET').slice(0, 3)];
    const alive = new Map<string, Hit[]>();
    for (const endpoint of picked) {
      if (ctx.budgetLeft() < 2) break;
      const baseline = await ctx.baseline('key1', endpoint);
      const request = await ctx.baselineRequest(endpoint);
      if (!baseline?.response || baseline.status >= 400 || !request) continue;
      const current = Number(VERSION.exec(request.url.pathname)![1]);
      const at = (v: string) => mutate(request, { path: request.url.pathname.replace(VERSION, `/${v}`) });
      const control = await ctx.sendPrepared(at('v999'), AS_KEY1);
      if (similarShape(control, baseline)) continue;
      for (const other of [current - 1, current - 2, current + 1].filter((v, i, a) => v >= 0 && a.indexOf(v) === i)) {
        if (ctx.budgetLeft() <= 0) break;
        const req = at(`v${other}`);
        if (matchesDocumented(documented, req.url.pathname)) continue;
        const ex = await ctx.sendPrepared(req, AS_KEY1);
        if (!similarShape(ex, baseline) || ex.status >= 400) continue;
        const label = request.url.pathname.replace(VERSION, `/v${other}`).replace(new RegExp(`(/v${other}).*`), '$1/');
        const list = alive.get(label) ?? [];
        const deprecation = ex.header('deprecation') || ex.header('sunset') ? ' (marked deprecated)' : '';
        list.push({ endpoint, exchange: ex, detail: `${ex.request.method} ${new URL(ex.request.url).pathname} answered HTTP ${ex.status} like v${current}${deprecation}; /v999/ answered ${control.status}` });
        alive.set(label, list);
        newer.set(label, other > current);
      }
    }
    for (const [label, hits] of alive) {
      const f = apiWideFinding(
        {
          id: `old-version ${label}`,
          name: newer.get(label) ? `Undocumented newer API version answering: ${label}` : `Old API version still answering: ${label}`,
          confidence: 'high',
          description:
            `Requests to ${label} — a version the spec does not document — are served like the documented version, while a made-up version ` +
            'is refused. Undocumented versions (old ones left running, new ones deployed early) often lack the fixes, authentication and rate ' +
            'limits of the current one, and nobody watches them.',
          recommendation: ctx.check.remediation,
        },
        hits,
      );
      // Reported at the operation that answered (never at the version prefix), as the API's paths are written.
      const first = hits[0]!;
      const other = VERSION.exec(label)![1];
      const template = decodeURIComponent(ctx.url(first.endpoint.path).pathname);
      const at = VERSION.test(first.endpoint.path) ? first.endpoint.path : template;
      yield { ...f, method: first.exchange.request.method, path: at.replace(VERSION, `/v${other}`) };
    }
  },
});
