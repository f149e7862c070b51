// API8:2023 Security Misconfiguration: a framework's interactive debug console or profiler left
// reachable (debug mode on in production). Found like undocumented endpoints: a well-known path that
// answers unlike the API's not-found answer, with that framework's own page.

import type { Exchange } from '../../http/exchange';
import { apiWideFinding, defineCheck, forEachLimit, type Hit } from '../common/helpers';
import { OWASP_API8 } from '../common/references';
import { pseudoEndpoint } from '../api9-inventory/debug-endpoints';
import { NotFoundModel, presence, shapeOf } from '../api9-inventory/not-found';
import { ANON, originUrl } from '../api9-inventory/paths';

interface Console {
  path: string;
  name: string;
  test(ex: Exchange): boolean;
}

const page = (ex: Exchange) => ex.body.slice(0, 50_000);

const CONSOLES: readonly Console[] = [
  { path: '/console', name: 'Werkzeug debugger console', test: (ex) => /Werkzeug Debugger|__debugger__=yes/.test(page(ex)) },
  { path: '/h2-console', name: 'H2 database console', test: (ex) => /H2 Console|h2-console\/login\.do|org\.h2\./i.test(page(ex)) },
  { path: '/_profiler', name: 'Symfony profiler', test: (ex) => /Symfony Profiler|sf-toolbar|_profiler\/search/.test(page(ex)) },
  { path: '/telescope', name: 'Laravel Telescope', test: (ex) => /<title>[^<]*Telescope|window\.Telescope/.test(page(ex)) },
  { path: '/_ignition/health-check', name: 'Laravel Ignition', test: (ex) => /"can_execute_commands"\s*:/.test(page(ex)) },
  { path: '/rails/info/properties', name: 'Rails info page', test: (ex) => /Rails version/.test(page(ex)) && /Ruby version/.test(page(ex)) },
  { path: '/jolokia', name: 'Jolokia JMX bridge', test: (ex) => /"agent"\s*:/.test(page(ex)) && /"protocol"\s*:|jolokia/i.test(page(ex)) },
];

export const debugConsole = defineCheck({
  id: 'api8-debug-console',
  title: 'Framework debug console exposed',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-489',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 28,
  description:
    'GETs, without credentials, the addresses of common frameworks\' interactive debug consoles and profilers (Werkzeug /console, H2 ' +
    '/h2-console, Symfony /_profiler, Laravel /telescope and /_ignition/health-check, Rails /rails/info/properties, Jolokia /jolokia) at ' +
    'the origin root and the base path, after random paths at the same place. Finding: an answer unlike those random paths that is that ' +
    'framework\'s own page — debug mode is on, and the console runs code or reads internals.',
  coverage:
    'Only these consoles, only by their default address; a console behind the framework\'s PIN or login is still reported (the PIN of some ' +
    'can be derived). Stack traces in error answers are api8-verbose-errors\'.',
  remediation:
    'Turn debug mode off in every deployed environment (FLASK_DEBUG=0 / app.run(debug=False), APP_DEBUG=false, spring.h2.console.enabled=false, ' +
    'no profiler bundles in production) and keep management consoles off the public listener.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/489.html', 'https://werkzeug.palletsprojects.com/en/latest/debug/'],
  async *run(ctx) {
    const get = (path: string) => ctx.send({ method: 'GET', url: originUrl(ctx, path), auth: ANON, followRedirects: false, headers: { accept: 'text/html, application/json;q=0.9, */*;q=0.5' } });
    const model = new NotFoundModel(get, ctx.random);
    const base = ctx.url('/').pathname.replace(/\/+$/, '');
    const jobs = [...new Set(['', base])].flatMap((prefix) => CONSOLES.map((c) => ({ prefix, c })));
    const hits = new Map<string, Hit[]>();
    await forEachLimit(jobs, ctx.parallelism, async ({ prefix, c }) => {
      if (ctx.budgetLeft() < 3 || ctx.skips('GET', originUrl(ctx, `${prefix}${c.path}`))) return;
      const controls = await model.controlsFor(shapeOf(prefix, c.path), c.path);
      const ex = await get(`${prefix}${c.path}`);
      if (presence(ex, controls) !== 'present' || !c.test(ex)) return;
      hits.set(c.name, [...(hits.get(c.name) ?? []), { endpoint: pseudoEndpoint(`${prefix}${c.path}`), exchange: ex, detail: `${c.name} (HTTP ${ex.status}); a random path there answered ${controls[0]!.status}` }]);
    });
    for (const [name, list] of hits) {
      list.sort((a, b) => a.endpoint.path.length - b.endpoint.path.length);
      const f = apiWideFinding(
        {
          id: `debug-console ${name}`,
          name: `${name} exposed`,
          confidence: 'high',
          description:
            `The ${name} answers without credentials. Debug consoles evaluate code or expose the application's internals (configuration, ` +
            'requests, database); debug mode also turns errors into pages that show source and variables.',
          recommendation: ctx.check.remediation,
        },
        list,
      );
      yield { ...f, method: 'GET', path: list[0]!.endpoint.path, reproduce: list[0]!.exchange };
    }
  },
});
