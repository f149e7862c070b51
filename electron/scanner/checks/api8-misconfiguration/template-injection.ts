// API8:2023 Security Misconfiguration (injection): server-side template and expression injection. A
// value that reaches a template engine (or a JavaScript template literal, an expression language) is
// evaluated: a product of two numbers the scan picks comes back computed. The product never appears in
// the request, so an echo cannot fake it; a second pair of numbers confirms.

import type { Exchange } from '../../http/exchange';
import type { SeededRandom } from '../../random';
import { bodyText } from '../common/answers';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { byPlace } from '../common/injection';
import { AS_KEY1, describePoint, isCreate, pointSource, type InjectionPoint } from '../common/input-points';
import { OWASP_API8 } from '../common/references';
import type { FindingDraft } from '../types';

const POINTS = 4;

/**
 * Expression syntaxes, each with the engines that evaluate it. ERB/EJS's `<%= e %>` is left out: its `>` is a
 * shell redirection, and where a value reaches a shell the probe would create a file (probes never write files).
 */
const SYNTAXES: { wrap: (expr: string) => string; engines: string }[] = [
  { wrap: (e) => `{{${e}}}`, engines: 'Jinja2, Twig, Nunjucks, Tornado, Angular expressions' },
  { wrap: (e) => `\${${e}}`, engines: 'JavaScript template literals, FreeMarker, Velocity, Spring and JSP expression language, Mako' },
  { wrap: (e) => `#{${e}}`, engines: 'Pug, Ruby string interpolation, Thymeleaf and JSF expressions' },
];

interface Product {
  expr: string;
  value: string;
}

function product(random: SeededRandom): Product {
  const a = random.int(10007, 49999);
  const b = random.int(1013, 1999);
  return { expr: `${a}*${b}`, value: String(a * b) };
}

/** The text of an answer, raw and as its JSON strings, where a computed product would show. */
const texts = (ex: Exchange) => `${ex.body}\n${bodyText(ex)}`;

export const templateInjection = defineCheck({
  id: 'api8-template-injection',
  title: 'Server-side template injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-1336',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: POINTS + 2,
  description:
    `Into up to ${POINTS} string values of key 1's request (query, path, then body), one request each: a value carrying three expressions ` +
    '({{a*b}}, ${c*d}, #{g*h}) with numbers the scan picks anew. Finding when the answer contains one of the products, which ' +
    'neither the request nor the baseline answer carries, and the same syntax alone with two new numbers comes back computed again.',
  coverage:
    'Needs the rendered text in the answer (or in an error message); blind evaluation (an e-mail, a log) is not seen. ERB, EJS and ' +
    'lodash templates (`<%= %>`) are not probed: the `>` would be a redirection that writes a file where a value reaches a shell. Engines without ' +
    'arithmetic in expressions (Handlebars, Mustache) are not detected; a sandboxed engine that only evaluates is still reported, since ' +
    'its sandbox is what stands between the input and the server.',
  remediation:
    'Never build templates or expressions from input: pass user values as data to a fixed template, use a logic-less engine for ' +
    'user-supplied templates, or render them in a sandbox with no access to objects, modules or the file system.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/1336.html', 'https://portswigger.net/web-security/server-side-template-injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const points = src.points
      .filter((p) => p.where !== 'header' && p.type === 'string' && typeof p.value === 'string' && !p.schema?.enum && !['uuid', 'date', 'date-time', 'email', 'uri'].includes(String(p.schema?.format ?? '')))
      .sort(byPlace)
      .slice(0, POINTS);
    const before = texts(baseline);
    for (const p0 of points) {
      if (ctx.budgetLeft() <= 0) return;
      const products = SYNTAXES.map(() => product(ctx.random));
      const value = `pcx${SYNTAXES.map((s, i) => s.wrap(products[i]!.expr)).join('x')}`;
      const p = await src.get(p0.name);
      if (!p) continue;
      const probe = await ctx.sendPrepared(p.with(value), AS_KEY1);
      if (!probe.response) continue;
      const hit = SYNTAXES.findIndex((_, i) => texts(probe).includes(products[i]!.value) && !before.includes(products[i]!.value));
      if (hit < 0 || ctx.budgetLeft() <= 0) continue;
      const again = product(ctx.random);
      const p2 = isCreate(ep) ? await src.get(p0.name) : p;
      if (!p2) continue;
      const confirm = await ctx.sendPrepared(p2.with(`pcx${SYNTAXES[hit]!.wrap(again.expr)}`), AS_KEY1);
      if (!confirm.response || !texts(confirm).includes(again.value)) continue;
      yield finding(p, hit, value, products[hit]!, again, probe, confirm, baseline);
      return;
    }

    function finding(p: InjectionPoint, hit: number, value: string, first: Product, second: Product, probe: Exchange, confirm: Exchange, base: Exchange): FindingDraft {
      const syntax = SYNTAXES[hit]!;
      return {
        parameter: p.name,
        description:
          `${describeEndpoint(ep)} evaluates ${describePoint(p)} as a template or expression: ${JSON.stringify(syntax.wrap(first.expr))} came back as ` +
          `${first.value} (HTTP ${probe.status}), and ${JSON.stringify(syntax.wrap(second.expr))} as ${second.value} (HTTP ${confirm.status}). ` +
          `This syntax is evaluated by ${syntax.engines}. Template engines reach objects, modules and the file system from expressions: ` +
          'server-side template injection usually leads to running code on the server.',
        notes: [`${describePoint(p)} = ${JSON.stringify(value)}; the answer contains ${first.value} (= ${first.expr}).`, `Confirmation: ${JSON.stringify(syntax.wrap(second.expr))} -> ${second.value}.`],
        exchanges: [
          { label: 'Baseline', exchange: base },
          { label: 'Attack: four expression syntaxes', exchange: probe },
          { label: `Confirmation: ${syntax.wrap(second.expr)}`, exchange: confirm },
        ],
        reproduce: confirm,
      };
    }
  },
});
