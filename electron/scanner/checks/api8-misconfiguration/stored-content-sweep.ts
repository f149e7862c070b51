// API8:2023 Security Misconfiguration (injection): markup stored by the scan's writes, looked for at the
// end of the scan in the answers of every readable route — a page, a view or an export that shows
// what another route stored, which the write's own readers do not reach.

import { AS_KEY1 } from '../common/input-points';
import { defineCheck } from '../common/helpers';
import { OWASP_API8 } from '../common/references';
import { firstReport, markupFirst, payloadsStored, servedUnescaped, storedFinding } from './script-content';

const ROUTES = 40;

export const storedContentSweep = defineCheck({
  id: 'api8-stored-content-sweep',
  title: 'Stored script content served by another route (XSS)',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-79',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:H/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  last: true,
  budget: ROUTES,
  description:
    'After every other check, when api8-script-content stored HTML payloads (each with its own marker) through creates or updates, reads ' +
    `up to ${ROUTES} GET routes once more as key 1, with the path and query values of their own requests (routes that declare an HTML ` +
    'answer first), and looks for those payloads. Finding when an answer rendered as HTML (text/html, XHTML, SVG, or sniffed) contains a ' +
    'payload unescaped: markup stored through one route runs in the browser of whoever opens another.',
  coverage:
    'Only routes the scan can read with key 1\'s own values; payloads shown only to another user, in an e-mail or after a delay are not ' +
    'seen. No request is sent when no payload was stored.',
  remediation:
    'Encode output for its context wherever stored text is put into HTML (templates with auto-escaping), serve API data as application/json ' +
    'with `X-Content-Type-Options: nosniff`, and add a Content-Security-Policy without \'unsafe-inline\'.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/79.html', 'https://owasp.org/www-community/attacks/xss/#stored-xss-attacks'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method === 'GET',
  async *run(ctx) {
    const stored = payloadsStored(ctx);
    if (!stored.length) return;
    for (const reader of [...ctx.endpoints].sort(markupFirst).slice(0, ROUTES)) {
      if (ctx.budgetLeft() <= 0) return;
      const request = await ctx.baselineRequest(reader, 'key1');
      if (!request) continue;
      const read = await ctx.sendPrepared(request, AS_KEY1, { headers: { ...request.headers, accept: 'text/html, application/json;q=0.9, */*;q=0.5' } });
      const served = servedUnescaped(read, stored)[0];
      if (!served) continue;
      const write = stored.find((s) => s.payload === served.payload)!;
      if (!firstReport(ctx, `${reader.id} ${served.point.name}`)) continue;
      yield storedFinding(ctx, write.endpoint, reader, served, write.write, read);
    }
  },
});
