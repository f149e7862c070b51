// What the GraphQL authorization checks share (issue 20): whose objects an id names, learnt the GraphQL
// way. Each key's own reads (queries that need no argument: a "me"-like one first, then lists) are sent
// with `__typename` added to every selection set, so the objects in the answers say their type; the ids
// of a type a key reads and the other does not are that key's objects. A key's identity (id, username,
// e-mail) comes from the scan's /me-like answer, else from a "me"-like query's object.

import { Kind, parse, print, visit, type FieldNode, type SelectionSetNode } from 'graphql';
import type { Endpoint, EndpointParameter, JsonSchema } from '../../../../shared/contract';
import { isIdLikeName, wordsOf } from '../../../importer/default-flags';
import type { Exchange, KeyNumber, RequestAuth } from '../../http/exchange';
import { identityValues } from '../../identities/verify';
import type { CheckContext } from '../types';
import { argumentsOf, fieldValue, graphqlAnswer, namedType, operationDocument, operationOf, resolved, sendGraphql, type GraphqlAnswer } from './graphql';
import { asKey, identityOf, isUserRef } from './objects';

// ---------------------------------------------------------------- documents and answers

const TYPENAME: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };

/**
 * The document with each selection set rewritten by `at`, told its depth (1: the operation's own selection,
 * 2: the root field's, and so on); undefined keeps the set as it is.
 */
function rewriteSelectionSets(document: string, at: (node: SelectionSetNode, depth: number) => SelectionSetNode | undefined): string {
  const doc = parse(document, { noLocation: true });
  let depth = 0;
  const out = visit(doc, {
    OperationDefinition: { enter: () => void (depth = 0) },
    SelectionSet: {
      enter(node: SelectionSetNode) {
        depth += 1;
        return at(node, depth);
      },
      leave: () => void (depth -= 1),
    },
  });
  return print(out);
}

/** The document with `__typename` asked in every selection set below the root (objects in the answer then name their type). */
export function withTypenames(document: string): string {
  return rewriteSelectionSets(document, (node, depth) => {
    if (depth === 1) return undefined;
    const has = node.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias);
    return has ? undefined : { ...node, selections: [...node.selections, TYPENAME] };
  });
}

/**
 * The document without selection sets past `levels` below the root field: a read asked with no arguments lists
 * everything, and a list nested in each listed object (pastes -> owner -> pastes) multiplies the answer by
 * itself — on a server that answers one request at a time that read holds it for minutes.
 */
export function withinLevels(document: string, levels: number): string {
  // Depth 1: the operation's selection; 2: the root field's; deeper ones keep only their leaves.
  return rewriteSelectionSets(document, (node, depth) =>
    depth <= levels ? undefined : { ...node, selections: node.selections.filter((f) => f.kind !== Kind.FIELD || !f.selectionSet) },
  );
}

export type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export interface TypedObject {
  typename: string;
  value: Json;
}

/** The objects in a value that name their type (`__typename`), outermost first; at most `max`. */
export function typedObjects(value: unknown, max = 500): TypedObject[] {
  const out: TypedObject[] = [];
  const walk = (v: unknown, depth: number) => {
    if (out.length >= max || depth > 12) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isRecord(v)) {
      if (typeof v.__typename === 'string') out.push({ typename: v.__typename, value: v });
      for (const [k, x] of Object.entries(v)) if (k !== '__typename') walk(x, depth + 1);
    }
  };
  walk(value, 0);
  return out;
}

const ID_FIELDS = ['id', '_id', 'ID', 'Id', 'uuid', 'guid', 'key'];

/** The value an object gives an argument: its field of the argument's name, else its id. */
export function objectValueFor(obj: Json, argument: string): string | null {
  for (const f of [argument, ...ID_FIELDS]) {
    const v = obj[f];
    if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return null;
}

/** The answer's value of the operation's field as JSON text ("" when absent), for comparing answers. */
export function fieldText(a: GraphqlAnswer | null, field: string): string {
  const v = fieldValue(a, field);
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/** The field came back with something in it: not null, false, an empty list or an empty object. */
export function gotContent(a: GraphqlAnswer | null, field: string): boolean {
  if (!resolved(a, field)) return false;
  const v = fieldValue(a, field);
  if (v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.entries(v).some(([k, x]) => k !== '__typename' && x !== null && x !== undefined);
  return true;
}

/** Why an answer is a refusal, in a few words ("errors: Not authorised"), for notes. */
export function answerSummary(ex: Exchange, field: string): string {
  const a = graphqlAnswer(ex);
  if (!a) return `HTTP ${ex.status}${ex.response ? '' : ` (${ex.error ?? 'no response'})`}, not a GraphQL answer`;
  if (a.errors.length) return `HTTP ${ex.status}, errors: ${a.errors.map((e) => e.message).slice(0, 2).join('; ').slice(0, 160)}`;
  const v = fieldValue(a, field);
  return `HTTP ${ex.status}, ${field}: ${v === undefined ? 'absent' : JSON.stringify(v).slice(0, 80)}`;
}

// ---------------------------------------------------------------- arguments and types

function graphqlTypeOf(schema: JsonSchema | null | undefined): string | null {
  const t = schema?.['x-graphql-type'];
  return typeof t === 'string' ? t : null;
}

/** The GraphQL type string of an argument ("ID!"). */
export function argumentType(endpoint: Endpoint, param: EndpointParameter): string {
  return operationOf(endpoint).variable_types[param.name] ?? graphqlTypeOf(param.schema) ?? '';
}

/** An argument that names one object: of GraphQL type ID, or named like an id (the importer's id-like names). */
export function isObjectArgument(endpoint: Endpoint, param: EndpointParameter): boolean {
  const named = namedType(argumentType(endpoint, param));
  if (named === 'ID') return true;
  // Enums, input objects, booleans and floats name no object.
  if (!named || ['Float', 'Boolean'].includes(named) || isRecord(param.schema?.properties) || Array.isArray(param.schema?.enum)) return false;
  return isIdLikeName(param.name) || isUserRef(param.name);
}

/** The object arguments of an operation, required ones first. */
export function objectArguments(endpoint: Endpoint): EndpointParameter[] {
  return argumentsOf(endpoint)
    .filter((p) => isObjectArgument(endpoint, p) && !argumentType(endpoint, p).trim().startsWith('['))
    .sort((a, b) => Number(b.required) - Number(a.required));
}

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us)$/.test(word)) return word;
  return word.replace(/s$/, '');
}

/**
 * The object types an argument may address, lower-case: the type the operation returns, and the
 * resource its name says ("loanId" -> "loan"); for a user reference also "user".
 */
export function addressedTypes(endpoint: Endpoint, param: EndpointParameter): string[] {
  const out = new Set<string>();
  const returns = namedType(operationOf(endpoint).returns).toLowerCase();
  const words = wordsOf(param.name).trim().split(' ');
  const resource = words.length > 1 && /^(id|ids|uuid|guid|key|slug|number|num|no|pk)$/.test(words[words.length - 1]!) ? words.slice(0, -1).join('') : null;
  if (resource) out.add(singular(resource));
  if (isUserRef(param.name) && !resource) out.add('user');
  if (!resource || param.name === 'id') out.add(returns);
  // The field's noun ("deleteLoan" -> "loan", "userById" -> "user").
  const noun = wordsOf(operationOf(endpoint).field)
    .trim()
    .split(' ')
    .filter((w) => !/^(get|set|update|delete|remove|create|add|by|id|admin|for|of|the|one|single|find|fetch|read)$/.test(w));
  if (noun.length && !resource) out.add(singular(noun[noun.length - 1]!));
  return [...out].filter(Boolean);
}

/** Whether an object's type is one of those (lower-case names; "UserProfile" counts for "user" only by its exact name). */
export function ofTypes(obj: TypedObject, types: readonly string[]): boolean {
  return types.includes(obj.typename.toLowerCase());
}

// ---------------------------------------------------------------- each key's own reads

const ME_FIELD = / (me|viewer|whoami|who am i|self|current user|current account|current profile|my profile|my account|my user|profile|account|session user) $/;

/** A "me"-like query: its field names the caller ("me", "viewer", "currentUser"). */
export function isMeQuery(endpoint: Endpoint): boolean {
  const op = endpoint.graphql;
  return !!op && op.kind === 'query' && ME_FIELD.test(wordsOf(op.field));
}

const LIST_TYPE = /^\s*\[/;
const SCALARS = new Set(['String', 'ID', 'Int', 'Float', 'Boolean']);
const MAX_READS = 6;

/** Queries that need no argument, "me"-like ones first, then lists, at most a few: what each key reads of its own. */
export function ownReadQueries(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints
    .filter((e) => e.graphql?.kind === 'query' && !argumentsOf(e).some((p) => p.required))
    .map((e, i) => ({ e, rank: isMeQuery(e) ? 0 : /^(my|own)/i.test(e.graphql!.field) ? 1 : LIST_TYPE.test(e.graphql!.returns) ? 2 : 3, i }))
    .filter((c) => !SCALARS.has(namedType(c.e.graphql!.returns)))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_READS)
    .map((c) => c.e);
}

export interface OwnRead {
  endpoint: Endpoint;
  exchange: Exchange;
  answer: GraphqlAnswer | null;
  objects: TypedObject[];
}

/** Selection sets kept below the root field in an own read: the listed objects and the objects they name. */
const OWN_READ_LEVELS = 2;

const readsMemo = new WeakMap<object, Map<string, Promise<OwnRead[]>>>();

/**
 * What `key` reads with the scan's argument-free queries (sent once per check and key, without their
 * optional arguments, `__typename` everywhere); only answers that resolved.
 */
export function ownReads(ctx: CheckContext, key: KeyNumber): Promise<OwnRead[]> {
  let byKey = readsMemo.get(ctx.resources);
  if (!byKey) readsMemo.set(ctx.resources, (byKey = new Map()));
  const memoKey = `${ctx.check.id}:${key}`;
  let p = byKey.get(memoKey);
  if (!p) {
    p = (async () => {
      const out: OwnRead[] = [];
      for (const e of ownReadQueries(ctx.allEndpoints)) {
        if (ctx.budgetLeft(e) <= 0) break;
        const op = operationOf(e);
        let query: string;
        try {
          // Asked without arguments it lists everything: its objects and theirs, no list nested in a listed object.
          query = withTypenames(withinLevels(operationDocument(op, { withoutArguments: true }), OWN_READ_LEVELS));
        } catch {
          continue;
        }
        const ex = await sendGraphql(ctx, e, { query }, { auth: asKey(key) });
        const answer = graphqlAnswer(ex);
        if (!resolved(answer, op.field)) continue;
        out.push({ endpoint: e, exchange: ex, answer, objects: typedObjects(fieldValue(answer, op.field)) });
      }
      return out;
    })();
    byKey.set(memoKey, p);
  }
  return p;
}

/**
 * Who `key` is: the scan's /me-like answer (REST), else the object a "me"-like query gave it (id,
 * username, e-mail...). Empty when neither says.
 */
export async function identityValuesOf(ctx: CheckContext, key: KeyNumber): Promise<Record<string, string>> {
  const known = identityOf(ctx, key)?.values ?? {};
  if (Object.keys(known).length) return known;
  const me = (await ownReads(ctx, key)).find((r) => isMeQuery(r.endpoint));
  return me ? identityValues(fieldValue(me.answer, operationOf(me.endpoint).field)) : {};
}

/** Values that identify `key` and no other of the scan's keys (long enough to search for), like identityMarks. */
export async function identityMarksOf(ctx: CheckContext, key: KeyNumber, others: readonly KeyNumber[]): Promise<string[]> {
  const mine = Object.values(await identityValuesOf(ctx, key));
  const theirs = new Set<string>();
  for (const k of others) for (const v of Object.values(await identityValuesOf(ctx, k))) theirs.add(v);
  return [...new Set(mine)].filter((v) => v.length >= 4 && !/^(true|false|null|user|admin|customer)$/i.test(v) && !theirs.has(v));
}

export interface Readable {
  object: TypedObject;
  read: OwnRead;
}

/** The ids (by the argument's name) of objects of the types in `key`'s own reads, with where each was read. */
export async function readableIds(ctx: CheckContext, key: KeyNumber, types: readonly string[], argument: string): Promise<Map<string, Readable>> {
  const out = new Map<string, Readable>();
  for (const read of await ownReads(ctx, key)) {
    for (const object of read.objects) {
      if (!ofTypes(object, types)) continue;
      const id = objectValueFor(object.value, argument);
      if (id !== null && !out.has(id)) out.set(id, { object, read });
    }
  }
  return out;
}

/** The object `key`'s "me"-like query answered with (for its role), or null. */
export async function meObject(ctx: CheckContext, key: KeyNumber): Promise<unknown> {
  const rest = identityOf(ctx, key)?.exchange?.json();
  if (rest !== undefined && rest !== null) return rest;
  const me = (await ownReads(ctx, key)).find((r) => isMeQuery(r.endpoint));
  return me ? fieldValue(me.answer, operationOf(me.endpoint).field) : null;
}

/** A variable's value for an id read from an answer: a number where the argument is an Int. */
export function idVariable(endpoint: Endpoint, param: EndpointParameter, id: string): string | number {
  return namedType(argumentType(endpoint, param)) === 'Int' && /^-?\d+$/.test(id) ? Number(id) : id;
}

// ---------------------------------------------------------------- sending one operation

/** Sends the operation with these variables as `auth` (its own document, `__typename` added when asked). */
export function sendOperation(ctx: CheckContext, endpoint: Endpoint, variables: Record<string, unknown>, auth: RequestAuth, typenames = false): Promise<Exchange> {
  const op = operationOf(endpoint);
  const query = typenames ? withTypenames(op.document) : op.document;
  return sendGraphql(ctx, endpoint, { query, variables }, { auth });
}
