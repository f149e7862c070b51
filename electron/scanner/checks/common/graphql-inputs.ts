// The arguments of a GraphQL operation as injection points (issue 20). Each String, ID or custom-scalar
// argument (a list of them: its first member; an input object: its such fields, one level down) becomes
// an InjectionPoint whose `with` sends the operation with that one variable changed and every other
// variable as the scan's request has it. The REST injection machinery (time-proof, sql-read, answer
// comparison) then runs on GraphQL operations unchanged. Which operations may take payloads at all is
// the design's safety rule: queries freely, mutations only when they address no existing object.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { mutate, type PreparedRequest } from '../../requests';
import { graphqlSendBlocked } from '../../graphql-safety';
import type { CheckContext } from '../types';
import { argumentsOf, fieldValue, graphqlAnswer, namedType, operationOf, resolved } from './graphql';
import type { InjectionPoint, PointSource, ValueType } from './input-points';
import type { Exchange } from '../../http/exchange';

const BUILT_IN = new Set(['String', 'ID', 'Int', 'Float', 'Boolean']);

/** What an input of a GraphQL type takes: text (String, ID), a custom scalar (may take objects), or something payloads do not fit. */
export type GraphqlInputKind = 'text' | 'custom' | 'other';

function graphqlTypeOf(schema: JsonSchema | null | undefined): string | null {
  const t = schema?.['x-graphql-type'];
  return typeof t === 'string' ? t : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** The kind of an input from its GraphQL type string and JSON Schema (enums and input objects are 'other'). */
export function inputKind(typeRef: string | null, schema: JsonSchema | null | undefined): GraphqlInputKind {
  const named = typeRef ? namedType(typeRef) : null;
  if (named === 'String' || named === 'ID') return 'text';
  if (!named || BUILT_IN.has(named) || Array.isArray(schema?.enum)) return 'other';
  const inner = typeRef && /^\[/.test(typeRef.trim()) && isRecord(schema?.items) ? (schema!.items as JsonSchema) : schema;
  if (Array.isArray(inner?.enum) || isRecord(inner?.properties) || inner?.['x-circular'] !== undefined) return 'other';
  return 'custom';
}

/** The GraphQL named type of a point made by argumentPoints ("String", "ID", "JSON"); null for other points. */
export function pointGraphqlType(p: InjectionPoint): string | null {
  const t = graphqlTypeOf(p.schema);
  return t ? namedType(t) : null;
}

const isList = (typeRef: string) => typeRef.trim().startsWith('[');

function valueType(kind: GraphqlInputKind, value: unknown): ValueType {
  if (kind === 'text') return 'string';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (isRecord(value)) return 'object';
  return 'unknown';
}

/** A value to start from when the request left an optional argument out. */
function startValue(schema: JsonSchema | null | undefined): unknown {
  const ex = schema?.example ?? schema?.default;
  return typeof ex === 'string' || typeof ex === 'number' ? ex : 'portcullis';
}

/**
 * The injection points of a GraphQL request: its text and custom-scalar arguments (and those fields of
 * input-object arguments), each sent as its variable; `where` is 'argument' and `name` the argument
 * ("title", "filter.title").
 */
export function argumentPoints(endpoint: Endpoint, request: PreparedRequest): InjectionPoint[] {
  const op = operationOf(endpoint);
  const body = isRecord(request.bodyValue) ? request.bodyValue : null;
  if (!body) return [];
  const vars = isRecord(body.variables) ? body.variables : {};
  const send = (change: (v: Record<string, unknown>) => void): PreparedRequest => {
    const next = JSON.parse(JSON.stringify(vars)) as Record<string, unknown>;
    change(next);
    return mutate(request, { bodyValue: { ...body, variables: next } });
  };
  const points: InjectionPoint[] = [];
  for (const param of argumentsOf(endpoint)) {
    const typeRef = op.variable_types[param.name] ?? graphqlTypeOf(param.schema);
    const schema = param.schema ?? null;
    const kind = inputKind(typeRef, schema);
    const arg = param.name;
    if (kind !== 'other' && typeRef) {
      const list = isList(typeRef);
      const current = list ? (Array.isArray(vars[arg]) ? (vars[arg] as unknown[])[0] : undefined) : vars[arg];
      const value = current === undefined || current === null ? startValue(list && isRecord(schema?.items) ? (schema!.items as JsonSchema) : schema) : current;
      points.push({
        where: 'argument',
        name: arg,
        key: arg,
        value,
        schema,
        type: valueType(kind, value),
        with: (v) => send((next) => (next[arg] = list ? [v] : v)),
      });
      continue;
    }
    // An input object: its text and custom-scalar fields, one level down.
    const props = isRecord(schema?.properties) ? (schema!.properties as Record<string, JsonSchema>) : null;
    if (!props || !typeRef || isList(typeRef)) continue;
    const obj = isRecord(vars[arg]) ? vars[arg] : null;
    if (!obj) continue;
    for (const [field, sub] of Object.entries(props)) {
      const subType = graphqlTypeOf(sub);
      const subKind = inputKind(subType, sub);
      if (subKind === 'other' || !subType || isList(subType)) continue;
      const current = obj?.[field];
      // An optional field the request left out is set alone: the object's required fields are in it already.
      const value = current === undefined || current === null ? startValue(sub) : current;
      points.push({
        where: 'argument',
        name: `${arg}.${field}`,
        key: field,
        value,
        schema: sub,
        type: valueType(subKind, value),
        with: (v) => send((next) => (next[arg] = { ...(isRecord(next[arg]) ? next[arg] : {}), [field]: v })),
      });
    }
  }
  return points;
}

// ---------------------------------------------------------------- safety

/**
 * Whether payloads may be sent to the operation (the design's safety rule): queries always; a mutation
 * only when no argument addresses an existing object (a create, a login, a code check) or the scan allows
 * writes to existing objects, and never one whose name says it deletes or resets; subscriptions never
 * (they do not answer over a plain POST).
 */
export function mayInject(ctx: Pick<CheckContext, 'options'>, endpoint: Endpoint): boolean {
  return !!endpoint.graphql && graphqlSendBlocked(endpoint, ctx.options.allowExistingObjects) === null;
}

/**
 * The argument points of key 1's request for the operation. Queries repeat the same request; a mutation
 * gets a fresh one per send (new unique values, so repeated creates do not collide). Null when the
 * operation may not take payloads or has no request.
 */
export async function argumentSource(ctx: CheckContext): Promise<PointSource | null> {
  const ep = ctx.endpoint;
  if (!ep.graphql || !mayInject(ctx, ep)) return null;
  const request = await ctx.baselineRequest(ep, 'key1');
  if (!request) return null;
  const points = argumentPoints(ep, request);
  const repeat = operationOf(ep).kind === 'query';
  let first = true;
  const now = async (): Promise<PreparedRequest | null> => (repeat ? request : ctx.prepare(ep, 1));
  return {
    request,
    points,
    async get(name) {
      if (repeat || first) {
        first = false;
        return points.find((p) => p.name === name) ?? null;
      }
      const again = await now();
      return again ? (argumentPoints(ep, again).find((p) => p.name === name) ?? null) : null;
    },
    unchanged: now,
  };
}

// ---------------------------------------------------------------- comparing answers

/** The size of a field's value: a list's length, otherwise its JSON length. */
function sizeOf(v: unknown): number {
  return Array.isArray(v) ? v.length : JSON.stringify(v ?? null).length;
}

/**
 * The first answer got more of the operation's field than the second: the field resolved where it did
 * not (null, or an error naming it), or a longer list or value. Both must have executed (`data` present)
 * and neither be a server error: a refused input is not a "false" answer.
 */
export function moreOfField(yes: Exchange, no: Exchange, responseKey: string): boolean {
  if (!yes.response || !no.response || yes.status >= 500 || no.status >= 500) return false;
  const a = graphqlAnswer(yes);
  const b = graphqlAnswer(no);
  if (!a?.data || b?.data === undefined || !b) return false;
  if (!resolved(a, responseKey)) return false;
  if (!resolved(b, responseKey)) return true;
  const va = fieldValue(a, responseKey);
  const vb = fieldValue(b, responseKey);
  if (Array.isArray(va) && Array.isArray(vb)) return va.length > vb.length;
  return JSON.stringify(va) !== JSON.stringify(vb) && sizeOf(va) > sizeOf(vb);
}
