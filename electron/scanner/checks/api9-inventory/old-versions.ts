// API9:2023 Improper Inventory Management: older API versions still answering.


import type { Exchange } from '../../http/exchange';
import { mutate, pathParamNames } from '../../requests';
import { compareBodies } from '../../similarity';
import { apiWideFinding, defineCheck, type Hit } from '../common/helpers';
import { AS_KEY1 } from '../common/input-points';
import { documentedPaths, matchesDocumented } from './paths';
import { OWASP_API9 } from '../common/references';


// ---------------------------------------------------------------- old versions

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
  severity: 'medium',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 12,
  description:
    'For documented paths with a version segment (/v2/...), sends key 1\'s request for up to three reads to the earlier ' +
    'versions (/v1/...) that the spec does not document, and to a version that cannot exist (/v999/) as a control. Finding when an earlier ' +
    'version answers like the documented one (same status, same shape of body) while the made-up version does not: an undocumented version ' +
    'is alive.',
  remediation:
    'Keep an inventory of every deployed API version; retire old versions (or route them to the same hardened code), and document and ' +
    'protect those that must stay, with the same authentication, rate limits and fixes as the current one.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/'],
  async *run(ctx) {
    const documented = documentedPaths(ctx);
    // Reads only: nothing is written through an undocumented version.
    const versioned = ctx.endpoints
      .filter((e) => VERSION.test(ctx.url(e.path).pathname) && e.method === 'GET')
      .sort((a, b) => pathParamNames(a.path).length - pathParamNames(b.path).length);
    const alive = new Map<string, Hit[]>();
    let tried = 0;
    for (const endpoint of versioned) {
      if (tried >= 3 || ctx.budgetLeft() < 2) break;
      const baseline = await ctx.baseline('key1', endpoint);
      const request = await ctx.baselineRequest(endpoint);
      if (!baseline?.response || baseline.status >= 500 || baseline.status === 404 || !request) continue;
      tried += 1;
      const current = Number(VERSION.exec(request.url.pathname)![1]);
      const at = (v: string) => mutate(request, { path: request.url.pathname.replace(VERSION, `/${v}`) });
      const control = await ctx.sendPrepared(at('v999'), AS_KEY1);
      if (similarShape(control, baseline)) continue;
      for (const older of [current - 1, current - 2].filter((v, i, a) => v >= 0 && a.indexOf(v) === i)) {
        if (ctx.budgetLeft() <= 0) break;
        const req = at(`v${older}`);
        if (matchesDocumented(documented, req.url.pathname)) continue;
        const ex = await ctx.sendPrepared(req, AS_KEY1);
        if (!similarShape(ex, baseline) || ex.status >= 400) continue;
        const label = request.url.pathname.replace(VERSION, `/v${older}`).replace(new RegExp(`(/v${older}).*`), '$1/');
        const list = alive.get(label) ?? [];
        const deprecation = ex.header('deprecation') || ex.header('sunset') ? ' (marked deprecated)' : '';
        list.push({ endpoint, exchange: ex, detail: `${ex.request.method} ${new URL(ex.request.url).pathname} answered HTTP ${ex.status} like v${current}${deprecation}; /v999/ answered ${control.status}` });
        alive.set(label, list);
      }
    }
    for (const [label, hits] of alive) {
      const f = apiWideFinding(
        {
          id: `old-version ${label}`,
          name: `Old API version still answering: ${label}`,
          severity: 'medium',
          confidence: 'high',
          description:
            `Requests to ${label} — a version the spec does not document — are served like the documented version, while a made-up version ` +
            'is refused. Old versions often lack the fixes, authentication and rate limits of the current one, and nobody watches them.',
          recommendation: ctx.check.remediation,
        },
        hits,
      );
      yield { ...f, method: 'GET', path: label };
    }
  },
});
