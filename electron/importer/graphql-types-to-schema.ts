// GraphQL types -> the JSON Schemas the importer stores (issue 20): argument and variable schemas the
// request builder synthesises values from, and the leaf schemas of response shapes. Every schema carries
// `x-graphql-type` (the GraphQL type as written); walks are bounded in depth and by the operation's node
// budget, and a recursive input type is cut where it closes with `{ "x-circular": "<Type>" }`.

import {
  astFromValue,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  valueFromASTUntyped,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';
import type { JsonSchema } from '../../shared/contract';
import { IMPORT_LIMITS } from './limits';
import type { Budget } from './resolve-refs';
import { clampText, put } from './values';

/** Lists and non-nulls around a named type; real schemas use up to 4 ("[[Int!]!]!"). */
export const MAX_TYPE_WRAPPERS = 16;

/** How many lists and non-nulls wrap a type (printing a type costs that squared, so deep ones are refused first). */
export function wrappersOf(type: GraphQLType): number {
  let n = 0;
  let t = type;
  while (t instanceof GraphQLNonNull || t instanceof GraphQLList) {
    t = t.ofType as GraphQLType;
    n += 1;
  }
  return n;
}

/** The named type under a field type's lists and non-nulls. */
export function namedOf(type: GraphQLType): GraphQLNamedType {
  let t = type;
  while (t instanceof GraphQLNonNull || t instanceof GraphQLList) t = t.ofType as GraphQLType;
  return t as GraphQLNamedType;
}

/**
 * Input objects nest at most this many levels below an argument; deeper ones are cut (`x-truncated`).
 * The request builder's values stop about as deep (scanner/schema-values.ts), so more would be unused.
 */
const MAX_INPUT_DEPTH = 5;

/**
 * Custom scalars say nothing of their wire form; common names do. A value of the right JSON type and
 * format keeps a server's own scalar parser from refusing the synthesised request before it runs.
 */
const SCALAR_HINTS: [RegExp, JsonSchema][] = [
  [/^(long|bigint|int64|int32|uint|uint32|uint64|short|byte|positiveint|nonnegativeint|negativeint|nonpositiveint|unsignedint)$/i, { type: 'integer' }],
  [/^(bigdecimal|decimal|float64|double|positivefloat|nonnegativefloat)$/i, { type: 'number' }],
  [/^(datetime|instant|offsetdatetime|zoneddatetime|datetimeiso|timestamptz)$/i, { type: 'string', format: 'date-time' }],
  [/^(date|localdate)$/i, { type: 'string', format: 'date' }],
  [/^(time|localtime)$/i, { type: 'string', format: 'time' }],
  [/^(url|uri|httpurl|link)$/i, { type: 'string', format: 'uri' }],
  [/^(email|emailaddress)$/i, { type: 'string', format: 'email' }],
  [/^(uuid|guid)$/i, { type: 'string', format: 'uuid' }],
  [/^(ipv4|ip)$/i, { type: 'string', format: 'ipv4' }],
  [/^ipv6$/i, { type: 'string', format: 'ipv6' }],
  [/^(json|jsonobject|object|map)$/i, { type: 'object' }],
  [/^upload$/i, { type: 'string', format: 'binary' }],
];

/** The JSON Schema of a GraphQL leaf type (scalar or enum), without `x-graphql-type`. */
function leafSchema(type: GraphQLNamedType): JsonSchema {
  if (type instanceof GraphQLEnumType) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  switch (type.name) {
    case 'ID':
    case 'String':
      return { type: 'string' };
    case 'Int':
      return { type: 'integer', format: 'int32' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
  }
  for (const [pattern, schema] of SCALAR_HINTS) if (pattern.test(type.name)) return { ...schema };
  return { type: 'string' };
}

const outputLeafCache = new WeakMap<GraphQLNamedType, JsonSchema>();

/** The (shared, lean) schema of a leaf type in a response shape. */
export function outputLeafSchema(type: GraphQLNamedType): JsonSchema {
  let hit = outputLeafCache.get(type);
  if (!hit) {
    hit = { ...leafSchema(type), 'x-graphql-type': type.name };
    outputLeafCache.set(type, hit);
  }
  return hit;
}

/** A GraphQL input value as JSON (an enum's name, an input object's fields); undefined when it has none. */
export function inputValueJson(value: unknown, type: GraphQLInputType): unknown {
  if (value === undefined) return undefined;
  try {
    const ast = astFromValue(value, type);
    return ast ? valueFromASTUntyped(ast) : undefined;
  } catch {
    return undefined;
  }
}

function cut(budget: Budget, reason: 'size' | 'depth', graphqlType: string): JsonSchema {
  budget.truncations += 1;
  return { 'x-truncated': reason, 'x-graphql-type': graphqlType };
}

function describe(schema: JsonSchema, item: { description?: string | null; deprecationReason?: string | null }): void {
  if (item.description) schema.description = clampText(item.description, IMPORT_LIMITS.maxStoredString);
  if (item.deprecationReason !== null && item.deprecationReason !== undefined) schema.deprecated = true;
}

/** The schema of an input type at one position; `path` holds the input objects it sits in (recursion). */
function inputSchema(type: GraphQLInputType, budget: Budget, path: string[]): JsonSchema {
  if (wrappersOf(type) > MAX_TYPE_WRAPPERS) return cut(budget, 'depth', namedOf(type).name);
  const printed = String(type);
  if (budget.remaining <= 0) return cut(budget, 'size', printed);
  budget.remaining -= 1;
  // Plain `instanceof`: graphql-js's is*Type() helpers are several times slower when they answer no.
  const inner = type instanceof GraphQLNonNull ? (type.ofType as GraphQLInputType) : type;
  if (inner instanceof GraphQLList) return { type: 'array', items: inputSchema(inner.ofType as GraphQLInputType, budget, path), 'x-graphql-type': printed };
  if (inner instanceof GraphQLInputObjectType) {
    if (path.includes(inner.name)) return { 'x-circular': inner.name, 'x-graphql-type': printed };
    if (path.length >= MAX_INPUT_DEPTH) return cut(budget, 'depth', printed);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const inside = [...path, inner.name];
    for (const f of Object.values(inner.getFields())) {
      put(properties, f.name, fieldSchema(f, budget, inside));
      if (f.type instanceof GraphQLNonNull && f.defaultValue === undefined) required.push(f.name);
    }
    const schema: JsonSchema = { type: 'object', properties, 'x-graphql-type': printed };
    if (required.length) schema.required = required;
    if (inner.description) schema.description = clampText(inner.description, IMPORT_LIMITS.maxStoredString);
    return schema;
  }
  if (inner instanceof GraphQLScalarType || inner instanceof GraphQLEnumType) return { ...leafSchema(inner), 'x-graphql-type': printed };
  return { 'x-graphql-type': printed };
}

/**
 * A field of an input object or an argument. A recursive input type is cut at the field that closes the
 * cycle, list wrappers included, so a synthesised value leaves it null (the field is nullable: graphql-js
 * refuses input cycles through non-null fields) instead of a list of nulls its item type may refuse.
 */
function fieldSchema(f: GraphQLInputField | GraphQLArgument, budget: Budget, path: string[]): JsonSchema {
  let named: GraphQLInputType = f.type;
  while (named instanceof GraphQLNonNull || named instanceof GraphQLList) named = named.ofType as GraphQLInputType;
  const schema =
    named instanceof GraphQLInputObjectType && path.includes(named.name) && !(f.type instanceof GraphQLNonNull)
      ? { 'x-circular': named.name, 'x-graphql-type': String(f.type) }
      : inputSchema(f.type, budget, path);
  if (schema['x-truncated'] === undefined && schema['x-circular'] === undefined) {
    const dflt = inputValueJson(f.defaultValue, f.type);
    if (dflt !== undefined) schema.default = dflt;
    describe(schema, f);
  }
  return schema;
}

/** The JSON Schema of an argument (the value of its variable), charged to the operation's request budget. */
export function argumentSchema(arg: GraphQLArgument, budget: Budget): JsonSchema {
  return fieldSchema(arg, budget, []);
}
