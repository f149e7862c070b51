// API8:2023 Security Misconfiguration (injection): NoSQL operators that change what a query matches.


import type { Exchange } from '../../http/exchange';
import { randomAlnum } from '../../random';
import { mutate } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { scalar } from '../common/injection';
import {
    AS_KEY1,
    editableBody,
    isCreate,
    otherAnswer,
    pointSource,
    sameAnswer,
    valueText,
    type InjectionPoint,
} from '../common/input-points';
import { describeGain, gained } from './command-injection';
import { OWASP_API8 } from '../common/references';

export function describeDifference(a: Exchange, b: Exchange): string {
  if (a.status !== b.status) return `status ${a.status} instead of ${b.status}`;
  return `${a.body.length} bytes instead of ${b.body.length}`;
}

// ---------------------------------------------------------------- NoSQL operators

const NOSQL_FIELDS = 3;
const PAGING_NAME = /^(page|pages|page_?size|per_?page|limit|offset|skip|size|count|top|sort|order|order_?by|sort_?by|fields|include|expand|format|lang|locale)$/i;

export const nosqlInjection = defineCheck({
  id: 'api8-nosql-injection',
  title: 'NoSQL operator injection',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-943',
  severity: 'high',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 16,
  description:
    'Replaces string values of key 1\'s JSON body with MongoDB-style operators — all of them at once, then one at a time — and query ' +
    'parameters with their bracket form (name[$ne]=...). Finding when {"$ne": null} turns a refused or empty answer into a successful or ' +
    'larger one, {"$gt": ""} does the same, and a non-matching operator ({"$in": [random]}) answers like the baseline: the operators are ' +
    'evaluated. For query parameters: name[$eq]=value answers like name=value while name[$ne]=value answers otherwise.',
  remediation:
    'Accept only the types the schema declares (reject objects where strings are expected), cast values before building queries, and use ' +
    'the driver\'s sanitisation (e.g. mongo-sanitize, `sanitizeFilter`) so client input never supplies query operators.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/943.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/07-Input_Validation_Testing/05.6-Testing_for_NoSQL_Injection'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && e.method !== 'DELETE',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const src = await pointSource(ctx);
    const baseline = await ctx.baseline('key1');
    if (!src || !baseline?.response) return;
    const send = async (request: ReturnType<InjectionPoint['with']>) => (ctx.budgetLeft() > 0 ? ctx.sendPrepared(request, AS_KEY1) : null);

    // Bodies: operators in string fields.
    if (editableBody(src.request) && /json/i.test(src.request.contentType ?? '')) {
      const strings = src.points.filter((p) => p.where === 'body' && p.type === 'string' && typeof p.value === 'string' && !/[.[]/.test(p.name)).slice(0, NOSQL_FIELDS);
      const sets = [...(strings.length >= 2 ? [strings] : []), ...strings.map((p) => [p])];
      for (const set of sets) {
        const withOp = async (op: unknown) => {
          const fresh = isCreate(ep) ? await pointSource(ctx) : src;
          if (!fresh) return null;
          let value = fresh.request.bodyValue as Record<string, unknown>;
          for (const p of set) value = { ...value, [p.key]: op };
          return send(mutate(fresh.request, { bodyValue: value }));
        };
        const ne = await withOp({ $ne: null });
        if (!ne || !gained(ne, baseline)) continue;
        const control = await withOp({ $in: [`portcullis-${randomAlnum(12)}`] });
        if (!control || gained(control, baseline) || !control.response) continue;
        const gt = await withOp({ $gt: '' });
        if (!gt || !gained(gt, baseline)) continue;
        const names = set.map((p) => p.name).join(', ');
        yield {
          parameter: names,
          description:
            `${describeEndpoint(ep)} evaluates query operators sent in ${set.length > 1 ? 'body fields' : 'body field'} ${names}: with {"$ne": null} ` +
            `the answer became ${describeGain(ne, baseline)}, {"$gt": ""} did the same, and a non-matching operator ({"$in": [random]}) was ` +
            `answered like the original request (HTTP ${control.status}). The JSON value goes into a database query as is: an attacker can match ` +
            'records without knowing their values (log in without a password, read other users\' data).',
          notes: [`Baseline HTTP ${baseline.status}; $ne HTTP ${ne.status}; $gt HTTP ${gt.status}; non-matching $in HTTP ${control.status}.`],
          exchanges: [
            { label: 'Baseline', exchange: baseline },
            { label: 'Attack: {"$ne": null}', exchange: ne },
            { label: 'Confirmation: {"$gt": ""}', exchange: gt },
            { label: 'Control: {"$in": [random]}', exchange: control },
          ],
          reproduce: ne,
        };
        return;
      }
    }

    // Query parameters: name[$eq]=v must answer like name=v, name[$ne]=v otherwise.
    if (!baseline.ok) return;
    // Filters only: a value equal to its default, or a paging number, gives nothing to compare.
    const filters = src.points.filter((x) => x.where === 'query' && scalar(x) && String(x.schema?.default ?? '\u0000') !== valueText(x) && !PAGING_NAME.test(x.key));
    for (const p of filters.slice(0, 2)) {
      const v = valueText(p);
      const bracket = (op: string) => mutate(src.request, { query: { [p.name]: null, [`${p.name}[${op}]`]: v } });
      const eq = await send(bracket('$eq'));
      if (!eq?.ok || !sameAnswer(eq, baseline)) continue;
      const plainMissing = await send(mutate(src.request, { query: { [p.name]: null } }));
      // Without the parameter the answer must differ: else $eq "working" proves nothing.
      if (!plainMissing || !otherAnswer(plainMissing, baseline)) continue;
      const ne = await send(bracket('$ne'));
      if (!ne?.ok || !otherAnswer(ne, baseline) || !otherAnswer(ne, eq)) continue;
      // Still stable: $eq answers as before (the data did not simply change meanwhile).
      const again = await send(bracket('$eq'));
      if (!again || !sameAnswer(again, eq)) continue;
      yield {
        parameter: p.name,
        confidence: 'medium',
        description:
          `${describeEndpoint(ep)} evaluates query operators in query parameter ${p.name}: ${p.name}[$eq]=${v} answers like ${p.name}=${v}, ` +
          `the request without it answers differently, and ${p.name}[$ne]=${v} returns other data (HTTP ${ne.status}). The parsed object goes into ` +
          'a database query as is.',
        exchanges: [
          { label: 'Baseline', exchange: baseline },
          { label: `Control: ${p.name}[$eq]`, exchange: eq },
          { label: `Control: without ${p.name}`, exchange: plainMissing },
          { label: `Attack: ${p.name}[$ne]`, exchange: ne },
        ],
        reproduce: ne,
      };
      return;
    }
  },
});
