// A stateful check that comes cheap once the scan creates objects: a create that is refused (4xx)
// but still stores the object.

import type { JsonSchema } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { mutate, pathParamNames } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { asKey, isObj, newMarker, readerOf, schemaShape, schemaType, fitMarker, type Json } from '../common/objects';

const PAGE_SIZE = /^(limit|per_?page|page_?size|pagesize|size|count|max_?results|top|take)$/i;

/** Plain text properties (no enum, format or pattern) that can carry a marker. */
function freeTextProps(schema: JsonSchema | null): [string, JsonSchema | null][] {
  return Object.entries(schemaShape(schema).props).filter(
    ([, s]) => !!s && schemaType(s) === 'string' && !s.enum && !s.format && !s.pattern && s.readOnly !== true && !('const' in s),
  );
}

interface Invalid {
  what: string;
  body: Json;
  marker: string;
}

/** Bodies the schema forbids, each carrying its own marker in the text properties it keeps. */
function invalidBodies(schema: JsonSchema | null, valid: Json): Invalid[] {
  const shape = schemaShape(schema);
  const text = freeTextProps(schema);
  const out: Invalid[] = [];
  const marked = (body: Json, skip: string | null) => {
    const marker = newMarker('pclleak');
    let placed = false;
    for (const [name, s] of text) {
      if (name === skip) continue;
      body[name] = fitMarker(marker, s);
      placed = body[name] === marker || placed;
    }
    return placed ? marker : null;
  };
  // 1. A required property left out.
  const required = shape.required.find((r) => r in valid);
  if (required) {
    const body: Json = { ...valid };
    delete body[required];
    const marker = marked(body, required);
    if (marker) out.push({ what: `without the required "${required}"`, body, marker });
  }
  // 2. A number or boolean property given a word.
  const typed = Object.entries(shape.props).find(([, s]) => ['integer', 'number', 'boolean'].includes(schemaType(s) ?? '') && s?.readOnly !== true);
  if (typed) {
    const body: Json = { ...valid, [typed[0]]: 'high' };
    const marker = marked(body, null);
    if (marker) out.push({ what: `with "${typed[0]}" (a ${schemaType(typed[1])}) set to the string "high"`, body, marker });
  }
  return out;
}

export const leakOnFailedCreate = defineCheck({
  id: 'api8-leak-on-failed-create',
  title: 'Refused create still stores the object',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-460',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 4,
  needsKey2: false,
  techniques: ['STATEFUL.2'],
  description:
    'For a POST that creates into a collection key 1 can list (a GET on the same path): sends two bodies the schema forbids — a required ' +
    'property left out, and a number or boolean given a word — each with its own random marker in the text properties it keeps, then lists ' +
    'the collection once (at the largest page size the spec allows). Finding: a create answered 400/422 and the list shows its marker — the ' +
    'API said no but stored the object.',
  coverage: 'Needs a list on the same path that shows the text properties; an object stored past the first page of the list is missed.',
  remediation:
    'Validate the whole request before writing anything, and write inside a transaction that is rolled back on any error, so a 4xx never ' +
    'leaves partial state behind.',
  references: [
    'https://cwe.mitre.org/data/definitions/460.html',
    'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Input_Validation_Cheat_Sheet.html',
  ],
  appliesTo: (e) => e.method === 'POST' && e.flags.includes('SEC_MISC') && /json/i.test(e.request_body?.content_type ?? '') && schemaType(e.request_body?.schema ?? null) === 'object',
  async *run(ctx) {
    const ep = ctx.endpoint;
    const list = readerOf(ctx, ep);
    if (!list || pathParamNames(list.path).length !== pathParamNames(ep.path).length) return;
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const refusedCreates: { invalid: Invalid; exchange: Exchange }[] = [];
    for (const invalid of invalidBodies(ep.request_body?.schema ?? null, base.bodyValue)) {
      if (ctx.budgetLeft() < 2) break;
      const ex = await ctx.sendPrepared(mutate(base, { bodyValue: invalid.body }), asKey(1));
      if (ex.status === 400 || ex.status === 422) refusedCreates.push({ invalid, exchange: ex });
    }
    if (!refusedCreates.length) return;
    const listRequest = await ctx.prepare(list, 1, 'read');
    if (!listRequest) return;
    const sizes: Record<string, string> = {};
    for (const p of list.parameters) {
      if (p.in === 'query' && PAGE_SIZE.test(p.name) && typeof p.schema?.maximum === 'number') sizes[p.name] = String(p.schema.maximum);
    }
    const listed = await ctx.sendPrepared(mutate(listRequest, { query: sizes }), asKey(1));
    if (!listed.ok) return;
    const leaked = refusedCreates.filter((r) => listed.body.includes(r.invalid.marker));
    if (!leaked.length) return;
    const first = leaked[0]!;
    yield {
      parameter: null,
      description:
        `${describeEndpoint(ep)} refused a create ${first.invalid.what} (HTTP ${first.exchange.status}), yet ${describeEndpoint(list)} lists an object ` +
        `carrying that request's marker "${first.invalid.marker}"${leaked.length > 1 ? `; so did the create ${leaked[1]!.invalid.what}` : ''}. ` +
        'The API stores before it validates: clients that retry create duplicates, and rejected (possibly malicious) input is kept.',
      exchanges: [
        { label: `Attack: create ${first.invalid.what}`, exchange: first.exchange },
        { label: 'Key 1 lists the collection afterwards', exchange: listed },
      ],
      reproduce: first.exchange,
    };
  },
});

