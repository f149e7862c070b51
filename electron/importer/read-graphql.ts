// GraphQL schemas -> an API (issue 20): SDL text and introspection results are read with graphql-js,
// and each root field of the query, mutation and subscription types becomes an endpoint: POST to the
// GraphQL path, its arguments `argument` parameters, its request body `{ query, variables }` with a
// valid operation document, and its `graphql` descriptor. `importGraphqlSchema` is pure, so live
// introspection (scanner/graphql-introspect.ts) imports the schema it fetched the same way as a file.

import {
  buildASTSchema,
  buildClientSchema,
  isCompositeType,
  isNonNullType,
  Kind,
  parse,
  validateSchema,
  type ASTNode,
  type DocumentNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { validateSDL } from 'graphql/validation/validate.js';
import type { EndpointParameter, GraphqlOperation, JsonSchema } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import { ImportError, lineColumn, SkipOperation } from './errors';
import { guardIntrospection, guardSdlDocument, guardSdlText } from './graphql-bounds';
import { outputSchema, SelectionBuilder } from './graphql-documents';
import { argumentSchema, MAX_TYPE_WRAPPERS, namedOf, outputLeafSchema, wrappersOf } from './graphql-types-to-schema';
import { IMPORT_LIMITS } from './limits';
import { buildEndpoints, type PendingOperation, type UnexpectedErrorHook } from './read-spec';
import type { Budgets } from './resolve-refs';
import type { ExtractedEndpoint, ImportResult } from './result';
import { clampText, isObject, own } from './values';
import { SET_BASE_URL, Warnings } from './warnings';

export type GraphqlFormat = 'graphql-sdl' | 'graphql-introspection';

export interface GraphqlImportOptions {
  /** The API's name ("" -> "GraphQL API"). */
  name: string;
  /** The server ("https://api.example.com"); "" when the schema does not say (a file). */
  baseUrl: string;
  /** The GraphQL endpoint's path ("/graphql"). */
  path: string;
  format: GraphqlFormat;
  onUnexpectedError?: UnexpectedErrorHook;
}

export const DEFAULT_GRAPHQL_PATH = '/graphql';
export const DEFAULT_GRAPHQL_NAME = 'GraphQL API';

/** Schema problems graphql-js finds (beyond a missing query type) become this many warnings at most. */
const MAX_SCHEMA_WARNINGS = 5;
const MAX_MESSAGE = 300;

const KIND_WORD = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;
type OperationKind = keyof typeof KIND_WORD;

// ---------------------------------------------------------------- detection

const SDL_START = /^(?:extend\s+)?(?:type|interface|union|enum|input|scalar|schema|directive)(?:\s+[_A-Za-z@]|\s*\{)/;

/** The text after leading whitespace, `#` comments and descriptions: where a definition's keyword stands. */
function afterPreamble(text: string): string | null {
  let i = 0;
  for (let guard = 0; guard < 10_000; guard += 1) {
    while (i < text.length && /[\s,\uFEFF]/.test(text[i]!)) i += 1;
    if (text[i] === '#') {
      const end = text.indexOf('\n', i);
      if (end === -1) return null;
      i = end + 1;
    } else if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      if (end === -1) return null;
      i = end + 3;
    } else if (text[i] === '"') {
      // A one-line description: a YAML or JSON key ("openapi": ...) has a colon after it instead of a keyword.
      const m = /^"(?:[^"\\\n]|\\.)*"/.exec(text.slice(i, i + 2_000));
      if (!m) return null;
      i += m[0].length;
    } else return text.slice(i, i + 200);
  }
  return null;
}

/**
 * Whether a text is GraphQL SDL: its first definition starts with an SDL keyword ("type Query {",
 * "schema {", "extend type", "directive @", after comments and descriptions), which YAML would read as a
 * key only when a colon follows the words ("type Query: x") and JSON never starts with.
 */
export function looksLikeGraphqlSdl(text: string): boolean {
  const start = afterPreamble(text);
  if (!start || !SDL_START.test(start)) return false;
  const line = start.split('\n', 1)[0]!;
  return !/^[\w\s"'-]+:(\s|$)/.test(line);
}

/** The `{ __schema }` part of an introspection result (`{ data: { __schema } }` or `{ __schema }`), with its pointer. */
export function introspectionIn(doc: unknown): { value: IntrospectionQuery; where: string } | null {
  if (!isObject(doc)) return null;
  if (isObject(own(doc, '__schema'))) return { value: doc as unknown as IntrospectionQuery, where: '' };
  const data = own(doc, 'data');
  if (isObject(data) && isObject(own(data, '__schema'))) return { value: data as unknown as IntrospectionQuery, where: '/data' };
  return null;
}

// ---------------------------------------------------------------- reading

function locationOf(err: Pick<GraphQLError, 'locations'>): string {
  const at = err.locations?.[0];
  return at ? lineColumn(at.line, at.column) : '';
}

function nodeLocation(node: ASTNode | null | undefined): string {
  const token = node?.loc?.startToken;
  return token ? `line ${token.line}` : '';
}

const clampMessage = (m: string): string => clampText(m.replace(/\s+/g, ' '), MAX_MESSAGE);

function isGraphqlError(err: unknown): err is GraphQLError {
  return err instanceof Error && err.name === 'GraphQLError';
}

/** SDL text -> a schema. Syntax and definition errors refuse the file with their line; directives the file uses but does not define (federation's @key) are warned about and ignored. */
export function readGraphqlSdl(text: string, warnings: Warnings): GraphQLSchema {
  guardSdlText(text);
  let doc: DocumentNode;
  try {
    doc = parse(text, { maxTokens: IMPORT_LIMITS.maxGraphqlTokens });
  } catch (err) {
    if (err instanceof RangeError) throw new ImportError('The GraphQL schema nests too deeply to read.');
    if (isGraphqlError(err)) throw new ImportError(`The file is not a valid GraphQL schema: ${clampMessage(err.message)}`, locationOf(err));
    throw err;
  }
  const executable = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION);
  if (executable)
    throw new ImportError('The file holds GraphQL operations, not a schema: import the schema (SDL) or an introspection result.', nodeLocation(executable));
  guardSdlDocument(doc);
  const problems = validateSDL(doc);
  const unknownDirective = /^Unknown directive "@([^"]+)"/;
  const refusal = problems.find((e) => !unknownDirective.test(e.message));
  if (refusal) throw new ImportError(`The GraphQL schema is not valid: ${clampMessage(refusal.message)}`, locationOf(refusal));
  if (problems.length) {
    const names = [...new Set(problems.map((e) => `@${unknownDirective.exec(e.message)![1]}`))];
    warnings.add(
      locationOf(problems[0]!),
      `The schema uses directives it does not define (${clampText(names.slice(0, 10).join(', '), 200)}); they were ignored.`,
    );
  }
  try {
    return buildASTSchema(doc, { assumeValidSDL: true });
  } catch (err) {
    if (err instanceof RangeError) throw new ImportError('The GraphQL schema nests too deeply to read.');
    throw new ImportError(`The GraphQL schema is not valid: ${clampMessage((err as Error).message)}`, isGraphqlError(err) ? locationOf(err) : '');
  }
}

/**
 * An introspection result -> a schema; a result graphql-js cannot build one from, or one larger than
 * the import limits, is refused. A file's, a live endpoint's and a scan's introspection all end here.
 */
export function readGraphqlIntrospection(found: { value: IntrospectionQuery; where: string }): GraphQLSchema {
  guardIntrospection(found.value, found.where);
  try {
    return buildClientSchema(found.value);
  } catch (err) {
    if (err instanceof RangeError) throw new ImportError('The GraphQL introspection result nests too deeply to read.', `${found.where}/__schema`);
    throw new ImportError(`The GraphQL introspection result is not valid: ${clampMessage((err as Error).message)}`, `${found.where}/__schema`);
  }
}

// ---------------------------------------------------------------- operations

/** "pastes" -> "Pastes": the operation's name in its document. */
function operationNameOf(field: string): string {
  return field.charAt(0).toUpperCase() + field.slice(1);
}

interface RootType {
  kind: OperationKind;
  type: GraphQLObjectType;
}

function rootTypes(schema: GraphQLSchema): RootType[] {
  const roots: RootType[] = [];
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  const subscription = schema.getSubscriptionType();
  if (query) roots.push({ kind: 'query', type: query });
  if (mutation) roots.push({ kind: 'mutation', type: mutation });
  if (subscription) roots.push({ kind: 'subscription', type: subscription });
  return roots;
}

const ERRORS_SCHEMA: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      message: { type: 'string' },
      locations: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } } },
      path: { type: 'array', items: { type: ['string', 'integer'] } },
      extensions: { type: 'object' },
    },
  },
};

function readOperation(root: RootType, field: GraphQLField<unknown, unknown>, path: string, selections: SelectionBuilder, budgets: Budgets): ExtractedEndpoint {
  if ([field.type, ...field.args.map((a) => a.type)].some((t) => wrappersOf(t) > MAX_TYPE_WRAPPERS))
    throw new SkipOperation(`its types nest lists more than ${MAX_TYPE_WRAPPERS} deep`);
  const parameters: EndpointParameter[] = [];
  const variables: Record<string, unknown> = {};
  const requiredVariables: string[] = [];
  const variableTypes: Record<string, string> = {};
  const definitions: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    // A non-null argument with a default may be left out: its variable is declared nullable, so it may be too.
    const hasDefault = arg.defaultValue !== undefined;
    const variableType = isNonNullType(arg.type) && hasDefault ? arg.type.ofType : arg.type;
    const required = isNonNullType(variableType);
    const schema = argumentSchema(arg, budgets.request);
    variables[arg.name] = schema;
    if (required) requiredVariables.push(arg.name);
    variableTypes[arg.name] = String(variableType);
    definitions.push(`$${arg.name}: ${String(variableType)}`);
    passed.push(`${arg.name}: $${arg.name}`);
    if (parameters.length < IMPORT_LIMITS.maxParameters) parameters.push({ name: arg.name, in: 'argument', required, schema });
  }

  const named = namedOf(field.type);
  const composite = isCompositeType(named);
  const selection = composite ? selections.selection(named, 1, 2) : null;
  const header = `${root.kind} ${operationNameOf(field.name)}${definitions.length ? `(${definitions.join(', ')})` : ''} {\n`;
  const call = `  ${field.name}${passed.length ? `(${passed.join(', ')})` : ''}`;
  const document = selection ? `${header}${call} {\n${selection.text}  }\n}` : `${header}${call}\n}`;

  const graphql: GraphqlOperation = {
    kind: root.kind,
    root_type: root.type.name,
    field: field.name,
    document,
    variable_types: variableTypes,
    returns: String(field.type),
    cycle: composite ? selections.cycle(named) : null,
  };
  const name = graphqlOperationName(graphql);
  const bodyProperties: Record<string, unknown> = { query: { type: 'string', const: document } };
  if (definitions.length) {
    const vars: JsonSchema = { type: 'object', properties: variables };
    if (requiredVariables.length) vars.required = requiredVariables;
    bodyProperties.variables = vars;
  }
  const returned = outputSchema(field.type, selection ? selection.schema : outputLeafSchema(named));
  const description = field.description ? clampText(field.description, IMPORT_LIMITS.maxStoredString) : '';
  return {
    method: 'POST',
    path,
    summary: clampText(name, IMPORT_LIMITS.maxSummaryLength),
    operation_id: clampText(name, IMPORT_LIMITS.maxOperationIdLength),
    tags: [KIND_WORD[root.kind]],
    parameters,
    request_body: {
      required: true,
      content_type: 'application/json',
      schema: { type: 'object', required: ['query'], properties: bodyProperties },
    },
    responses: {
      '200': {
        description: description || `The ${KIND_WORD[root.kind].toLowerCase()}'s result (data and errors).`,
        content_type: 'application/json',
        schema: {
          type: 'object',
          properties: { data: { type: 'object', properties: { [field.name]: returned } }, errors: ERRORS_SCHEMA },
        },
      },
    },
    security: null,
    graphql,
  };
}

/** Refuses a schema without a query type; warns about the other problems graphql-js finds in it. */
function checkSchema(schema: GraphQLSchema, warnings: Warnings): void {
  const problems = validateSchema(schema);
  if (!schema.getQueryType()) {
    const node = schema.astNode ?? schema.extensionASTNodes[0];
    throw new ImportError('The GraphQL schema has no query type: define `type Query` (or name one in `schema { query: ... }`).', nodeLocation(node));
  }
  for (const p of problems.slice(0, MAX_SCHEMA_WARNINGS))
    warnings.add(locationOf(p) || nodeLocation(p.nodes?.[0]), `The schema is not valid GraphQL: ${clampMessage(p.message)}`);
  if (problems.length > MAX_SCHEMA_WARNINGS) warnings.add('', `${problems.length - MAX_SCHEMA_WARNINGS} more schema problems were left out.`);
}

/** Imports a schema with the warnings collected so far (the SDL reader's). */
export function importGraphqlSchemaWith(schema: GraphQLSchema, opts: GraphqlImportOptions, warnings: Warnings): ImportResult {
  checkSchema(schema, warnings);
  const path = opts.path || DEFAULT_GRAPHQL_PATH;
  const selections = new SelectionBuilder(schema);
  const operations: PendingOperation[] = [];
  for (const root of rootTypes(schema)) {
    for (const field of Object.values(root.type.getFields())) {
      const label = `${KIND_WORD[root.kind]}.${field.name}`;
      operations.push({
        label,
        where: nodeLocation(field.astNode) || label,
        read: (budgets) => readOperation(root, field, path, selections, budgets),
      });
    }
  }
  if (operations.length === 0) throw new ImportError('The GraphQL schema defines no operations: its query type has no fields.', nodeLocation(schema.getQueryType()?.astNode));
  if (!opts.baseUrl)
    warnings.add('', `The schema names no server: its operations were imported at ${path}; ${SET_BASE_URL}`);
  const security = { schemes: {}, default: [] };
  const { endpoints, skipped } = buildEndpoints({ name: opts.name, baseUrl: opts.baseUrl, security, operations }, warnings, opts.onUnexpectedError);
  if (endpoints.length === 0) {
    const first = warnings.toArray().find((w) => w.message.startsWith('Skipped'));
    throw new ImportError(`None of the ${skipped} operations could be imported${first ? `; the first: ${first.message}` : '.'}`, first?.location ?? '');
  }
  return {
    name: clampText(opts.name, IMPORT_LIMITS.maxNameLength) || DEFAULT_GRAPHQL_NAME,
    base_url: clampText(opts.baseUrl, IMPORT_LIMITS.maxBaseUrlLength),
    format: opts.format,
    spec_version: null,
    security,
    endpoints,
    warnings: warnings.toArray(),
  };
}

/** A GraphQL schema -> an API of its operations (pure: live introspection and files both end here). */
export function importGraphqlSchema(schema: GraphQLSchema, opts: GraphqlImportOptions): ImportResult {
  return importGraphqlSchemaWith(schema, opts, new Warnings());
}
