// What the GraphQL checks share (issue 20): reading a GraphQL answer (`data`, `errors`, `extensions`),
// building operations from an imported operation (aliases, other selections, inline arguments) with
// graphql-js rather than by string surgery, and sending them as a JSON POST, an array batch or a GET.
// Verdicts read GraphQL semantics (which field came back, which error), never a server's wording.

import { Kind, parse, print, visit, type ASTNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode, type VariableDefinitionNode, type VariableNode } from 'graphql';
import type { Endpoint, EndpointParameter, GraphqlOperation } from '../../../../shared/contract';
import { graphqlOperationName } from '../../../../shared/display';
import type { Exchange, KeyNumber, RequestAuth } from '../../http/exchange';
import type { CheckContext } from '../types';

/** A GraphQL error as servers send it: `message`, and optionally `path`, `locations`, `extensions`. */
export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** One GraphQL response: `data` (absent when the request failed before execution) and its `errors`. */
export interface GraphqlAnswer {
  data: Record<string, unknown> | null | undefined;
  errors: GraphqlError[];
  extensions?: Record<string, unknown>;
}

/** An operation to send: its document, variables and optional name. */
export interface GraphqlCall {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function toAnswer(v: unknown): GraphqlAnswer | null {
  if (!isRecord(v) || (!('data' in v) && !('errors' in v))) return null;
  const errors = Array.isArray(v.errors)
    ? v.errors.filter(isRecord).map((e) => ({
        message: typeof e.message === 'string' ? e.message : '',
        path: Array.isArray(e.path) ? (e.path as (string | number)[]) : undefined,
        extensions: isRecord(e.extensions) ? e.extensions : undefined,
      }))
    : [];
  return { data: isRecord(v.data) ? v.data : v.data === null ? null : undefined, errors, extensions: isRecord(v.extensions) ? v.extensions : undefined };
}

/** The exchange's GraphQL answer (a JSON object with `data` or `errors`); null when it is not one. */
export function graphqlAnswer(ex: Exchange): GraphqlAnswer | null {
  return toAnswer(ex.json());
}

/** The answers to an array batch, in order; null when the body is not an array of GraphQL answers. */
export function graphqlBatchAnswers(ex: Exchange): GraphqlAnswer[] | null {
  const v = ex.json();
  if (!Array.isArray(v)) return null;
  const answers = v.map(toAnswer);
  return answers.every((a): a is GraphqlAnswer => a !== null) ? answers : null;
}

/** The messages of an answer's errors. */
export function errorMessages(a: GraphqlAnswer | null): string[] {
  return a ? a.errors.map((e) => e.message) : [];
}

/** The value an answer gives a (possibly aliased) root field; undefined when absent. */
export function fieldValue(a: GraphqlAnswer | null, responseKey: string): unknown {
  return a?.data ? a.data[responseKey] : undefined;
}

/** The field came back with a value (not null) and no error names it: the server resolved it for this caller. */
export function resolved(a: GraphqlAnswer | null, responseKey: string): boolean {
  const v = fieldValue(a, responseKey);
  if (v === null || v === undefined) return false;
  return !a!.errors.some((e) => e.path?.[0] === responseKey);
}

// ---------------------------------------------------------------- the operations of a scan

/** The scan's GraphQL operations. */
export function graphqlEndpoints(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints.filter((e) => !!e.graphql);
}

/** The distinct paths of the scan's GraphQL operations ("/graphql"). */
export function graphqlPaths(endpoints: readonly Endpoint[]): string[] {
  return [...new Set(graphqlEndpoints(endpoints).map((e) => e.path))];
}

/** The operation of a GraphQL endpoint (checks apply only to those, so it is there). */
export function operationOf(endpoint: Endpoint): GraphqlOperation {
  if (!endpoint.graphql) throw new Error(`${endpoint.method} ${endpoint.path} is not a GraphQL operation`);
  return endpoint.graphql;
}

/** "Query.loan": the name findings and notes use. */
export function operationName(endpoint: Endpoint): string {
  return graphqlOperationName(operationOf(endpoint));
}

/** The operation's arguments (its `argument` parameters). */
export function argumentsOf(endpoint: Endpoint): EndpointParameter[] {
  return endpoint.parameters.filter((p) => p.in === 'argument');
}

/** The GraphQL named type of an argument ("ID" for "[ID!]!"). */
export function namedType(typeRef: string): string {
  return typeRef.replace(/[[\]!\s]/g, '');
}

// ---------------------------------------------------------------- documents

const parsedCache = new WeakMap<GraphqlOperation, { op: OperationDefinitionNode; field: FieldNode }>();

function parsedOperation(op: GraphqlOperation): { op: OperationDefinitionNode; field: FieldNode } {
  let hit = parsedCache.get(op);
  if (!hit) {
    const doc = parse(op.document, { noLocation: true });
    const def = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const field = def?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
    if (!def || !field) throw new Error(`The document of ${graphqlOperationName(op)} has no operation`);
    hit = { op: def, field };
    parsedCache.set(op, hit);
  }
  return hit;
}

/** The leaf fields the operation's document selects directly under its field ("pastes { id title owner { id } }" -> id, title). */
export function selectedLeafFields(op: GraphqlOperation): string[] {
  const { field } = parsedOperation(op);
  return (field.selectionSet?.selections ?? [])
    .filter((s): s is FieldNode => s.kind === Kind.FIELD && !s.selectionSet && !s.name.value.startsWith('__'))
    .map((s) => s.name.value);
}

/** A selection set from GraphQL text ("{ id name }"). */
export function selectionSet(text: string): SelectionSetNode {
  const doc = parse(`query ${text}`, { noLocation: true });
  return (doc.definitions[0] as OperationDefinitionNode).selectionSet;
}

export interface DocumentChanges {
  /** Ask for the field this many times under aliases `<alias>0`, `<alias>1`... (default once, unaliased). */
  aliases?: number;
  /** Alias prefix (default "a"). */
  alias?: string;
  /** Another selection for the field ("{ __typename }"); null for none (a scalar field). */
  selection?: string | null;
  /** Leave the variable definitions and arguments out (a field called without arguments). */
  withoutArguments?: boolean;
  /** The operation's name (default: the imported one). */
  name?: string;
}

/** The operation's document, changed: aliased copies of the field, another selection, no arguments. */
export function operationDocument(op: GraphqlOperation, changes: DocumentChanges = {}): string {
  const { op: def, field } = parsedOperation(op);
  const selection = changes.selection === undefined ? field.selectionSet : changes.selection === null ? undefined : selectionSet(changes.selection);
  const base: FieldNode = { ...field, selectionSet: selection, arguments: changes.withoutArguments ? [] : field.arguments };
  const count = changes.aliases ?? 0;
  const prefix = changes.alias ?? 'a';
  const fields: FieldNode[] = count > 0 ? Array.from({ length: count }, (_, i) => ({ ...base, alias: { kind: Kind.NAME, value: `${prefix}${i}` } })) : [base];
  const next: OperationDefinitionNode = {
    ...def,
    name: changes.name ? { kind: Kind.NAME, value: changes.name } : def.name,
    variableDefinitions: changes.withoutArguments ? [] : def.variableDefinitions,
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
  };
  return print({ kind: Kind.DOCUMENT, definitions: [next] });
}

/** A selection nesting the operation's cycle `depth` times (["owner","pastes"] x 2 -> owner { pastes { owner { pastes { __typename } } } }). */
export function cycleSelection(cycle: readonly string[], depth: number): string {
  let inner = '{ __typename }';
  const steps: string[] = [];
  for (let i = 0; i < depth; i++) steps.push(...cycle);
  for (let i = steps.length - 1; i >= 0; i--) inner = `{ ${steps[i]} ${inner} }`;
  return inner;
}

// ---------------------------------------------------------------- sending

/** The variables key `key` would send for the operation (from the scan's request builder); {} when none. */
export async function operationVariables(ctx: CheckContext, endpoint: Endpoint, key: KeyNumber = 1): Promise<Record<string, unknown>> {
  const prepared = await ctx.prepare(endpoint, key);
  const value = prepared?.bodyValue;
  const vars = isRecord(value) ? value.variables : undefined;
  return isRecord(vars) ? { ...vars } : {};
}

export interface SendOptions {
  auth: RequestAuth;
  /** POST (JSON body, the default) or GET (?query=&variables=). */
  method?: 'POST' | 'GET';
  /** The path to send to (default: the endpoint's). */
  path?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The document tests the endpoint's path, not the operation (only __typename, or it fails validation): http/engine.ts pathProbe. */
  pathProbe?: boolean;
  /** The probe bounds its own cost: http/engine.ts ownGuard. */
  ownGuard?: boolean;
}

/** Sends one operation to a GraphQL endpoint, charged to the check's budget. */
export function sendGraphql(ctx: CheckContext, endpoint: Endpoint, call: GraphqlCall, opts: SendOptions): Promise<Exchange> {
  const url = ctx.url(opts.path ?? endpoint.path);
  const placements = ctx.authSpec(endpoint).placements;
  if (opts.method === 'GET') {
    url.searchParams.set('query', call.query);
    if (call.variables && Object.keys(call.variables).length) url.searchParams.set('variables', JSON.stringify(call.variables));
    if (call.operationName) url.searchParams.set('operationName', call.operationName);
    return ctx.send({ method: 'GET', url, auth: opts.auth, placements, headers: { accept: 'application/json', ...opts.headers }, timeoutMs: opts.timeoutMs, ...pathProbe(opts) }, endpoint);
  }
  const body = JSON.stringify({ query: call.query, ...(call.variables ? { variables: call.variables } : {}), ...(call.operationName ? { operationName: call.operationName } : {}) });
  return ctx.send(
    { method: 'POST', url, auth: opts.auth, placements, headers: { 'content-type': 'application/json', accept: 'application/json', ...opts.headers }, body, timeoutMs: opts.timeoutMs, ...pathProbe(opts) },
    endpoint,
  );
}

const pathProbe = (opts: SendOptions) => ({ ...(opts.pathProbe ? { pathProbe: true } : {}), ...(opts.ownGuard ? { ownGuard: true } : {}) });

/** Sends several operations in one request, as an array batch. */
export function sendGraphqlBatch(ctx: CheckContext, endpoint: Endpoint, calls: readonly GraphqlCall[], opts: Omit<SendOptions, 'method'>): Promise<Exchange> {
  const url = ctx.url(opts.path ?? endpoint.path);
  const body = JSON.stringify(calls.map((c) => ({ query: c.query, ...(c.variables ? { variables: c.variables } : {}) })));
  return ctx.send(
    {
      method: 'POST',
      url,
      auth: opts.auth,
      placements: ctx.authSpec(endpoint).placements,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...opts.headers },
      body,
      timeoutMs: opts.timeoutMs,
    },
    endpoint,
  );
}

// ---------------------------------------------------------------- aliased copies with their own variables

/** The operation's field selects sub-fields (it returns an object, an interface, a union or a list of them). */
export function selectsSubfields(op: GraphqlOperation): boolean {
  return !!parsedOperation(op).field.selectionSet;
}

/** The variable name copy `i` of an aliased document uses for the operation's variable `name`. */
export function copyVariable(name: string, i: number): string {
  return `${name}_${i}`;
}

/**
 * The field `count` times under aliases `<alias>0`, `<alias>1`... in one operation, each copy with its own
 * variables (`$password` becomes `$password_0`, `$password_1`...), so each alias can carry other values.
 */
export function aliasedCopiesDocument(op: GraphqlOperation, count: number, changes: { alias?: string; selection?: string | null; name?: string } = {}): string {
  const { op: def, field } = parsedOperation(op);
  const selection = changes.selection === undefined ? field.selectionSet : changes.selection === null ? undefined : selectionSet(changes.selection);
  const prefix = changes.alias ?? 'a';
  const renamed = <T extends ASTNode>(node: T, i: number): T =>
    visit(node, { Variable: (v: VariableNode) => ({ ...v, name: { kind: Kind.NAME, value: copyVariable(v.name.value, i) } }) }) as T;
  const fields: FieldNode[] = [];
  const definitions: VariableDefinitionNode[] = [];
  for (let i = 0; i < count; i += 1) {
    fields.push({ ...renamed(field, i), selectionSet: selection, alias: { kind: Kind.NAME, value: `${prefix}${i}` } });
    for (const d of def.variableDefinitions ?? []) definitions.push(renamed(d, i));
  }
  const next: OperationDefinitionNode = {
    ...def,
    name: changes.name ? { kind: Kind.NAME, value: changes.name } : def.name,
    variableDefinitions: definitions,
    selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
  };
  return print({ kind: Kind.DOCUMENT, definitions: [next] });
}

/** The variables of an aliasedCopiesDocument: copy i's values under its renamed variables. */
export function aliasedCopiesVariables(copies: readonly Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  copies.forEach((vars, i) => {
    for (const [k, v] of Object.entries(vars)) out[copyVariable(k, i)] = v;
  });
  return out;
}
