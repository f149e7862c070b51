// API8:2023 Security Misconfiguration (injection) through GraphQL: markup that a mutation stores and a later
// query returns verbatim. The REST stored-markup read-back (script-content.ts) for GraphQL: a create-like
// mutation gets a script payload and, in a second create, plain HTML, each with its own marker, in its free-text
// arguments; then the queries that need no arguments are read as key 1 and searched for the payloads. GraphQL
// answers JSON, which browsers do not render: the risk is a client that puts the field into a page, so the
// findings are informational, as the REST check's JSON read-back is. Two payloads because sanitisers differ:
// one that strips scripts but keeps HTML leaves only the second.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { mutate, type PreparedRequest } from '../../requests';
import { wordsOf } from '../../../importer/default-flags';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { graphqlAnswer, graphqlEndpoints, operationDocument, operationName, operationOf, resolved, sendGraphql } from '../common/graphql';
import { argumentPoints, mayInject, pointGraphqlType } from '../common/graphql-inputs';
import { AS_KEY1, describePoint, type InjectionPoint } from '../common/input-points';
import { isIdLike, newMarker } from '../common/objects';
import { OWASP_API8 } from '../common/references';
import type { CheckContext } from '../types';
import { containsMarkup } from './script-content';

/** Mutations that store what they are given. */
const STORES = / (create|add|new|insert|post|submit|save|publish|write|comment|reply|send|upload|import) /;
/** Arguments that are not free text: ids, addresses, credentials, codes, formats. */
const NOT_TEXT = /e-?mail|url|uri|link|href|host|path|file|phone|password|passwd|secret|token|key|hash|date|time|zip|postal|currency|country|lang|locale|sort|order|format|type|status|user_?name|login|handle|code|scheme|port/i;
const TEXT_POINTS = 3;
const READERS = 6;

const PAYLOADS = {
  script: { label: 'an element with an event handler', make: (m: string) => `${m}"'><img src=x onerror=alert(1)>` },
  html: { label: 'plain HTML markup', make: (m: string) => `${m}<h1>portcullis</h1>` },
} as const;
type PayloadKind = keyof typeof PAYLOADS;

/** The free-text String arguments of a request: no id, address, credential or format, no enum. */
function textPoints(endpoint: Endpoint, request: PreparedRequest): InjectionPoint[] {
  return argumentPoints(endpoint, request)
    .filter((p) => pointGraphqlType(p) === 'String' && !p.name.includes('.') && !isIdLike(p.key) && !NOT_TEXT.test(p.key) && !p.schema?.enum)
    .slice(0, TEXT_POINTS);
}

export function storesText(e: Endpoint): boolean {
  return e.graphql?.kind === 'mutation' && STORES.test(wordsOf(e.graphql.field));
}

interface Stored {
  kind: PayloadKind;
  point: InjectionPoint;
  payload: string;
  write: Exchange;
}

/** Reads every stored payload back through the queries that need no arguments: with their own request, and without arguments. */
async function readBack(ctx: CheckContext, stored: Stored[]): Promise<{ s: Stored; reader: Endpoint; read: Exchange }[]> {
  // Queries that select fields named like the arguments written (a `title` and a `body`) read the stored object first.
  const names = [...new Set(stored.map((s) => s.point.name))];
  const selects = (e: Endpoint) => names.filter((n) => new RegExp(`\\b${n.replace(/[^\w]/g, '')}\\b`).test(operationOf(e).document)).length;
  const readers = graphqlEndpoints(ctx.allEndpoints)
    .filter((e) => operationOf(e).kind === 'query' && !Object.values(operationOf(e).variable_types).some((t) => t.endsWith('!')))
    .map((e, i) => ({ e, i, n: selects(e) }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.e)
    .slice(0, READERS);
  const found: { s: Stored; reader: Endpoint; read: Exchange }[] = [];
  const left = () => stored.filter((s) => !found.some((f) => f.s === s));
  for (const reader of readers) {
    const op = operationOf(reader);
    const request = await ctx.baselineRequest(reader, 'key1');
    const tries: (() => Promise<Exchange>)[] = [];
    if (request) tries.push(() => ctx.sendPrepared(request, AS_KEY1));
    // The scan's own values of optional arguments (a filter, a flag) may hide the new object: read without them too.
    if (Object.keys(op.variable_types).length) tries.push(() => sendGraphql(ctx, reader, { query: operationDocument(op, { withoutArguments: true }) }, { auth: AS_KEY1 }));
    for (const read of tries) {
      if (!left().length || ctx.budgetLeft() <= 0) return found;
      const ex = await read();
      if (!resolved(graphqlAnswer(ex), op.field)) continue;
      for (const s of left()) if (containsMarkup(ex.body, s.payload)) found.push({ s, reader, read: ex });
    }
  }
  return found;
}

/** Browsers do not render JSON: a client that inserts the field into a page is needed (as for the REST JSON read-back). */
const STORED_IN_JSON_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:N/I:N/A:N';

export const graphqlStoredMarkup = defineCheck({
  id: 'api8-graphql-stored-markup',
  title: 'Stored markup returned verbatim through GraphQL',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-79',
  confidence: 'high',
  cvss: STORED_IN_JSON_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  protocols: ['graphql'],
  budget: 2 + 2 * READERS,
  description:
    `On a mutation that stores what it is given (create, add, post, submit, comment...), sets up to ${TEXT_POINTS} free-text String ` +
    'arguments (not ids, addresses, credentials, codes or formats) to a marker followed by an element with an event handler ' +
    '(`"\'><img src=x onerror=alert(1)>`), as key 1; then, in a second create, to a marker followed by plain HTML (`<h1>`). Then reads up to ' +
    `${READERS} queries that need no arguments as key 1 (with their own request, and without arguments) and looks for each payload. ` +
    'Finding (information, one per kind of payload) when a query returns a payload verbatim: the API stores markup as sent, and any client ' +
    'that puts the field into a page runs or renders it. Mutations only where the design\'s safety rule lets payloads reach them.',
  coverage:
    'Only payloads that come back through a query that needs no arguments; content shown to other users only, in e-mails or after a ' +
    'delay is not seen. GraphQL answers are JSON, so the check cannot see whether a client encodes the field.',
  remediation:
    'Encode stored text for its context wherever a client puts it into HTML (templates with auto-escaping, textContent rather than ' +
    'innerHTML), or sanitise markup on the way in with an allow-list sanitiser where rich text is meant; add a Content-Security-Policy ' +
    'without \'unsafe-inline\' to the clients.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/79.html', 'https://owasp.org/www-community/attacks/xss/#stored-xss-attacks'],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && storesText(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!mayInject(ctx, ep)) return;
    const stored: Stored[] = [];
    for (const kind of Object.keys(PAYLOADS) as PayloadKind[]) {
      if (ctx.budgetLeft() <= 0) break;
      const request = await ctx.prepare(ep, 1, 'write');
      if (!request) return;
      const points = textPoints(ep, request);
      if (!points.length) return;
      const body = request.bodyValue as { variables?: Record<string, unknown> } & Record<string, unknown>;
      const variables = { ...(body.variables ?? {}) };
      const sent = points.map((point) => ({ point, payload: PAYLOADS[kind].make(newMarker()) }));
      for (const s of sent) variables[s.point.name] = s.payload;
      const write = await ctx.sendPrepared(mutate(request, { bodyValue: { ...body, variables } }), AS_KEY1);
      if (!resolved(graphqlAnswer(write), operationOf(ep).field)) continue;
      stored.push(...sent.map((s) => ({ kind, ...s, write })));
    }
    if (!stored.length) return;
    const found = await readBack(ctx, stored);
    for (const kind of Object.keys(PAYLOADS) as PayloadKind[]) {
      const hit = found.find((f) => f.s.kind === kind);
      if (!hit) continue;
      const { s, reader, read } = hit;
      const script = kind === 'script';
      yield {
        parameter: `${s.point.name}:${kind}`,
        name: script ? 'Stored script payload returned verbatim through GraphQL (stored XSS in clients)' : 'Stored HTML markup returned verbatim through GraphQL (HTML injection in clients)',
        description:
          `${describeEndpoint(ep)} stores ${describePoint(s.point)} as sent: ${s.payload.length} characters of ${PAYLOADS[kind].label} ` +
          `(${JSON.stringify(s.payload)}) came back verbatim, neither refused nor encoded, in the answer of ${operationName(reader)}. ` +
          (script
            ? 'Any client (a web front end, an admin tool) that puts the field into a page runs the handler in the browser of whoever views it.'
            : 'Any client that puts the field into a page renders the markup: forged headings, links and forms in front of other users.') +
          ' GraphQL answers JSON, which browsers do not render by itself: informational until a client shows it unencoded.',
        notes: [
          'Steps:',
          `  1. ${operationName(ep)} with ${s.point.name} = ${JSON.stringify(s.payload)}: stores the payload.`,
          `  2. ${operationName(reader)} as key 1: returns it verbatim.`,
        ],
        exchanges: [
          { label: `Attack: store the payload in ${s.point.name}`, exchange: s.write },
          { label: 'Read back', exchange: read },
        ],
        reproduce: read,
      };
    }
  },
});
