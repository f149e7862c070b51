// API8:2023 Security Misconfiguration: GraphQL field suggestions (issue 20). With introspection off, a
// server that still answers a misspelled name with "Did you mean ...?" (graphql-js and its ports do by
// default) gives the schema away name by name: tools like Clairvoyance rebuild whole schemas from it.
// The probes misspell the operation's own names (its root field, its arguments, the sub-fields it
// selects: one letter swapped or dropped) in one document that fails validation, so nothing executes.

import { Kind, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck } from '../common/helpers';
import { errorMessages, graphqlAnswer, graphqlEndpoints, operationName, operationOf, sendGraphql } from '../common/graphql';
import { AS_KEY1 } from '../common/input-points';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';

/** Operations misspelled per GraphQL endpoint (one request each), and names misspelled per operation. */
const OPERATIONS = 4;
const ARGUMENTS = 2;
const SUB_FIELDS = 3;
const PATHS = 2;

const PROBE = 'query PortcullisIntrospectionProbe { __schema { queryType { name } } }';
/** A field no schema has (names starting with "__" are reserved): it makes a mutation document fail validation whatever else it holds. */
const GUARD = '__portcullisNoSuchField';

/** Names a suggestion quotes ("Did you mean \"loan\" or \"loans\"?"; graphql-core quotes with '). */
const SUGGESTION = /did you mean\s+([^?]*)\?/gi;
const QUOTED = /["'`]([_A-Za-z][_0-9A-Za-z]*)["'`]/g;

/** One letter swapped with the next (or dropped where they are the same): close enough for any suggestion list. */
export function misspell(name: string): string {
  if (name.length < 2) return `${name}${name}`;
  const i = Math.max(0, Math.floor(name.length / 2) - 1);
  if (name[i] === name[i + 1]) return name.slice(0, i) + name.slice(i + 1);
  return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
}

/** The names suggested in an answer's errors, each with the message that gave it. */
export function suggestedNames(messages: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of messages) {
    for (const m of message.matchAll(SUGGESTION)) {
      for (const q of m[1]!.matchAll(QUOTED)) if (!out.has(q[1]!)) out.set(q[1]!, message);
    }
  }
  return out;
}

interface Parsed {
  field: FieldNode;
  arguments: string[];
  subFields: string[];
}

function parsedField(endpoint: Endpoint): Parsed | null {
  try {
    const doc = parse(operationOf(endpoint).document, { noLocation: true });
    const def = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const field = def?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
    if (!field) return null;
    const subFields = (field.selectionSet?.selections ?? [])
      .filter((s): s is FieldNode => s.kind === Kind.FIELD && !s.name.value.startsWith('__'))
      .map((s) => s.name.value);
    return { field, arguments: (field.arguments ?? []).map((a) => a.name.value), subFields };
  } catch {
    return null;
  }
}

/** Every name the scan already knows: root fields, arguments and selected sub-fields of the imported operations. */
function knownNames(endpoints: readonly Endpoint[]): Set<string> {
  const out = new Set<string>();
  for (const e of graphqlEndpoints(endpoints)) {
    const op = operationOf(e);
    out.add(op.field).add(op.root_type);
    for (const name of Object.keys(op.variable_types)) out.add(name);
    for (const name of parsedField(e)?.subFields ?? []) out.add(name);
  }
  return out;
}

interface Misspelled {
  document: string;
  /** "loan -> laon" for each misspelling. */
  typos: string[];
}

/**
 * A document misspelling the operation's root field, a few arguments and selected sub-fields:
 * query { laon  loan(di: null) { tilte } }. It fails validation, so it runs nothing; a mutation's also
 * carries a field no schema has, in case a misspelling happens to be a real name.
 */
export function misspelledDocument(endpoint: Endpoint, known: ReadonlySet<string>): Misspelled | null {
  const op = operationOf(endpoint);
  const parsed = parsedField(endpoint);
  if (!parsed) return null;
  const typos = new Set<string>();
  const typo = (name: string): string | null => {
    const t = misspell(name);
    if (t === name || known.has(t)) return null;
    typos.add(`${name} -> ${t}`);
    return t;
  };
  const root = typo(op.field);
  const args = parsed.arguments.slice(0, ARGUMENTS).map(typo).filter((t): t is string => !!t);
  const subs = parsed.subFields.slice(0, SUB_FIELDS).map(typo).filter((t): t is string => !!t);
  if (!typos.size) return null;
  const field = `${op.field}${args.length ? `(${args.map((a) => `${a}: null`).join(', ')})` : ''}${subs.length ? ` { ${subs.join(' ')} }` : ''}`;
  const keyword = op.kind === 'mutation' ? 'mutation' : op.kind === 'subscription' ? 'subscription' : 'query';
  const guard = op.kind === 'query' ? '' : ` ${GUARD}`;
  return { document: `${keyword} PortcullisSuggestions { ${root ?? ''} ${field}${guard} }`.replace(/\s+/g, ' '), typos: [...typos] };
}

/** The schema answered the introspection probe. */
function introspectionOn(ex: Exchange): boolean {
  const data = graphqlAnswer(ex)?.data as { __schema?: { queryType?: unknown } } | null | undefined;
  return !!data?.__schema?.queryType;
}

interface PathResult {
  refusal: Exchange;
  /** Introspection answered: the suggestions add nothing today, but stay when introspection is turned off. */
  introspection: boolean;
  probes: { endpoint: Endpoint; exchange: Exchange; typos: string[]; names: Map<string, string> }[];
}

async function probePath(ctx: CheckContext, path: string, ops: Endpoint[], known: ReadonlySet<string>): Promise<PathResult | null> {
  const first = ops[0]!;
  // The introspection probe and the misspelled documents run no resolver of the operation (they fail validation): its slowness does not hold them back.
  const refusal = await sendGraphql(ctx, first, { query: PROBE }, { auth: AS_KEY1, path, pathProbe: true });
  // No GraphQL answer: nothing to read. Introspection on: api9-graphql-introspection reports the schema, and the suggestions
  // are reported for information, since turning introspection off (the usual fix) would leave them.
  const introspection = introspectionOn(refusal);
  if (!refusal.response || (!introspection && !graphqlAnswer(refusal) && refusal.status !== 400)) return null;
  // Queries first: their documents are reads even if a misspelling happened to be valid.
  const ordered = [...ops.filter((e) => operationOf(e).kind === 'query'), ...ops.filter((e) => operationOf(e).kind !== 'query')];
  const probes: PathResult['probes'] = [];
  for (const endpoint of ordered.slice(0, OPERATIONS)) {
    if (ctx.budgetLeft() <= 0) break;
    const doc = misspelledDocument(endpoint, known);
    if (!doc) continue;
    const ex = await sendGraphql(ctx, endpoint, { query: doc.document }, { auth: AS_KEY1, path, pathProbe: true });
    const names = suggestedNames(errorMessages(graphqlAnswer(ex)));
    probes.push({ endpoint, exchange: ex, typos: doc.typos, names });
  }
  return { refusal, introspection, probes };
}

export const graphqlFieldSuggestions = defineCheck({
  id: 'api8-graphql-field-suggestions',
  title: 'GraphQL field suggestions leak the schema',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-200',
  confidence: 'high',
  // Like introspection: a map of the API, no attack by itself.
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * (1 + OPERATIONS),
  description:
    'For each GraphQL endpoint of the scan, first asks for __schema as key 1 (when introspection answers, api9-graphql-introspection ' +
    `reports the schema). Then, for up to ${OPERATIONS} operations (queries first), sends one document misspelling ` +
    `the operation's root field, up to ${ARGUMENTS} of its arguments and ${SUB_FIELDS} of the sub-fields it selects (one letter swapped or ` +
    'dropped); the document fails validation, so nothing executes (a mutation document also carries a field no schema has). Finding when ' +
    'the errors answer "Did you mean ...?" with names: it lists every name learnt, and those the imported operations did not show. With ' +
    'introspection on, the finding is information only: the schema is public anyway, but turning introspection off would not hide it.',
  coverage:
    'Reads the "Did you mean" wording of graphql-js and its ports (graphql-core, Apollo, Yoga, Mercurius, Hot Chocolate\'s is alike); a ' +
    'server that suggests in other words is not seen. Only names close to the imported ones are asked for: a full schema recovery ' +
    '(Clairvoyance-style word lists) is out of the budget.',
  techniques: ['API8.graphql-field-suggestions'],
  remediation:
    'Turn field suggestions off in production along with introspection (graphql-js: strip "Did you mean" from validation errors in the ' +
    'error formatter; Apollo Server: hide them when introspection is disabled; graphql-armor\'s blockFieldSuggestions; Hot Chocolate / ' +
    'graphene: their suggestion options).',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/200.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://github.com/nikitastupin/clairvoyance'],
  async *run(ctx) {
    const known = knownNames(ctx.allEndpoints);
    const byPath = new Map<string, Endpoint[]>();
    for (const e of graphqlEndpoints(ctx.endpoints)) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
    for (const [path, ops] of [...byPath].slice(0, PATHS)) {
      if (ctx.budgetLeft() <= 0) return;
      const result = await probePath(ctx, path, ops, known);
      const hits = result?.probes.filter((p) => p.names.size > 0) ?? [];
      if (!result || !hits.length) continue;
      yield suggestionsFinding(path, result, hits, known);
    }
  },
});

/** With introspection on, the schema is public anyway: information only, no impact of its own. */
const INFORMATION_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N';

function suggestionsFinding(path: string, result: PathResult, hits: PathResult['probes'], known: ReadonlySet<string>): FindingDraft {
  const { refusal, introspection } = result;
  const names = new Map<string, string>();
  for (const h of hits) for (const [n, m] of h.names) if (!names.has(n)) names.set(n, m);
  const all = [...names.keys()];
  const unknown = all.filter((n) => !known.has(n));
  const ops = hits.map((h) => operationName(h.endpoint));
  const refused = introspection ? 'answers introspection' : introspectionRefusal(refusal);
  return {
    endpoint: null,
    method: 'POST',
    path,
    parameter: 'field-suggestions',
    ...(introspection ? { cvss: INFORMATION_CVSS } : {}),
    description:
      `The GraphQL endpoint ${path} ${refused} ${introspection ? 'and' : 'but'} answers misspelled names with suggestions: misspellings in ${ops.join(', ')} drew ` +
      `"Did you mean" errors naming ${all.length} schema names (${all.slice(0, 15).join(', ')}${all.length > 15 ? ', ...' : ''})` +
      `${unknown.length ? `, ${unknown.length} of them not among the imported operations (${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', ...' : ''})` : ''}. ` +
      'Repeated with word lists, suggestions rebuild the schema that introspection hides' +
      (introspection ? ': turning introspection off, the usual fix, would not hide it while suggestions stay on (information: the schema is public today).' : '.'),
    notes: [
      `Introspection: ${refused} (HTTP ${refusal.status}).`,
      ...hits.map((h) => `${operationName(h.endpoint)}: misspelled ${h.typos.join(', ')}; suggested ${[...h.names.keys()].join(', ')}`),
      `Names learnt (${all.length}): ${all.join(', ')}`,
    ],
    exchanges: [
      { label: introspection ? 'Introspection query (answered)' : 'Introspection query (refused)', exchange: refusal },
      ...hits.slice(0, 2).map((h) => ({ label: `Attack: misspelled names of ${operationName(h.endpoint)}`, exchange: h.exchange })),
    ],
    reproduce: hits[0]!.exchange,
  };
}

function introspectionRefusal(ex: Exchange): string {
  const message = errorMessages(graphqlAnswer(ex))[0];
  return message ? `refuses introspection ("${message.slice(0, 120)}")` : 'refuses introspection';
}
