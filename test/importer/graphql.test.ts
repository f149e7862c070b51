// The GraphQL importer (issue 20): SDL and introspection results become one endpoint per root field,
// with valid operation documents, variables the request builder's values satisfy, cycles and default
// flags; broken schemas are refused with where they break, and REST files are still detected as before.

import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  getVariableValues,
  graphql,
  introspectionFromSchema,
  Kind,
  parse,
  validate,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { ImportError } from '../../electron/importer/index';
import { importGraphqlSchema, looksLikeGraphqlSdl } from '../../electron/importer/read-graphql';
import { synthesize } from '../../electron/scanner/schema-values';
import { importError, importJson, importText, openapi } from './import-helpers';

type Ep = Omit<Endpoint, 'id'>;

const SDL = fs.readFileSync(path.join(__dirname, '../fixtures/graphql/workspace.graphql'), 'utf8');
const schema = buildSchema(SDL);
const sdlImport = importText(SDL, 'workspace.graphql');
const byName = (endpoints: Ep[]) => Object.fromEntries(endpoints.map((e) => [e.summary, e]));
const ops = byName(sdlImport.endpoints);

const OPERATIONS = [
  'Query.me',
  'Query.user',
  'Query.users',
  'Query.project',
  'Query.tasks',
  'Query.node',
  'Query.search',
  'Query.serverTime',
  'Query.adminAuditLog',
  'Mutation.login',
  'Mutation.verifyCode',
  'Mutation.createTask',
  'Mutation.updateTask',
  'Mutation.deleteProject',
  'Mutation.setWebhook',
  'Mutation.importFromUrl',
  'Mutation.checkout',
  'Mutation.adminSetRole',
  'Subscription.taskChanged',
];

/** The body the request builder would send: the request body schema's synthesised value. */
function requestBody(e: Ep): { query: string; variables?: Record<string, unknown> } {
  return synthesize(e.request_body!.schema, { forRequest: true }) as { query: string; variables?: Record<string, unknown> };
}

function operationOf(document: string): OperationDefinitionNode {
  return parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}

describe('GraphQL SDL import', () => {
  it('detects SDL and makes one POST /graphql endpoint per root field, named after the operation kind', () => {
    expect(sdlImport.format).toBe('graphql-sdl');
    expect(sdlImport.name).toBe('workspace');
    expect(sdlImport.base_url).toBe('');
    expect(sdlImport.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/names no server.*\/graphql.*base URL/)]);
    expect(sdlImport.endpoints.map((e) => e.summary)).toEqual(OPERATIONS);
    for (const e of sdlImport.endpoints) {
      expect(e.method).toBe('POST');
      expect(e.path).toBe('/graphql');
      expect(e.operation_id).toBe(e.summary);
      expect(e.security).toBeNull();
      expect(e.tags).toEqual([e.summary.split('.')[0]]);
    }
    expect(ops['Query.me']!.graphql).toMatchObject({ kind: 'query', root_type: 'RootQuery', field: 'me', returns: 'User' });
    expect(ops['Mutation.login']!.graphql).toMatchObject({ kind: 'mutation', root_type: 'RootMutation', returns: 'AuthPayload' });
    expect(ops['Subscription.taskChanged']!.graphql).toMatchObject({ kind: 'subscription', root_type: 'RootSubscription', returns: 'Task!' });
  });


  it('writes each operation with every argument as a variable and a bounded selection of leaf fields', () => {
    expect(ops['Query.serverTime']!.graphql!.document).toBe('query ServerTime {\n  serverTime\n}');
    expect(ops['Mutation.verifyCode']!.graphql!.document).toBe('mutation VerifyCode($code: String!) {\n  verifyCode(code: $code)\n}');
    const tasks = ops['Query.tasks']!.graphql!;
    expect(tasks.document).toMatch(/^query Tasks\(\$filter: TaskFilter, \$first: Int, \$after: String\) \{\n {2}tasks\(filter: \$filter, first: \$first, after: \$after\) \{\n {4}totalCount\n {4}nodes \{\n {6}id\n {6}title\n/);
    // A non-null argument with a default is optional: its variable is nullable.
    expect(tasks.variable_types).toEqual({ filter: 'TaskFilter', first: 'Int', after: 'String' });
    expect(ops['Subscription.taskChanged']!.graphql!.document).toMatch(/^subscription TaskChanged\(\$projectId: ID!\) \{\n {2}taskChanged\(projectId: \$projectId\) \{\n/);
    // Three levels of objects, no deeper; fields with required arguments are left out.
    const user = ops['Query.user']!.graphql!.document;
    expect(user).toContain('\n    projects {\n      id\n');
    expect(user).not.toMatch(/\n {10}\w+ \{/);
    expect(user).not.toContain('apiToken');
    // Interfaces and unions: __typename, then an inline fragment per possible type.
    const node = ops['Query.node']!.graphql!.document;
    expect(node).toMatch(/ {4}__typename\n {4}id\n {4}\.\.\. on User \{\n {6}username\n/);
    expect(node).toContain('    ... on Comment {\n      body\n');
    const search = ops['Query.search']!.graphql!.document;
    for (const t of ['User', 'Project', 'Task', 'Comment']) expect(search).toContain(`    ... on ${t} {`);
  });

  it('writes documents that validate against the schema', () => {
    for (const e of sdlImport.endpoints) {
      const errors = validate(schema, parse(e.graphql!.document));
      expect(errors.map((err) => `${e.summary}: ${err.message}`)).toEqual([]);
      expect(e.request_body!.schema!.properties).toMatchObject({ query: { type: 'string', const: e.graphql!.document } });
    }
  });

  it('describes arguments as JSON Schemas with their GraphQL types, defaults and recursion cut', () => {
    const tasks = ops['Query.tasks']!;
    expect(tasks.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['filter', 'argument', false],
      ['first', 'argument', false],
      ['after', 'argument', false],
    ]);
    const filter = tasks.parameters[0]!.schema!;
    expect(filter).toMatchObject({ type: 'object', 'x-graphql-type': 'TaskFilter', description: 'Filters combine with and/or; they nest.' });
    expect(filter.properties).toMatchObject({
      status: { type: 'array', 'x-graphql-type': '[TaskStatus!]', items: { type: 'string', enum: ['OPEN', 'IN_PROGRESS', 'DONE', 'ARCHIVED'], 'x-graphql-type': 'TaskStatus!' } },
      assigneeId: { type: 'string', 'x-graphql-type': 'ID' },
      dueBefore: { type: 'string', format: 'date-time', 'x-graphql-type': 'DateTime' },
      and: { 'x-circular': 'TaskFilter', 'x-graphql-type': '[TaskFilter!]' },
      not: { 'x-circular': 'TaskFilter', 'x-graphql-type': 'TaskFilter' },
    });
    expect(tasks.parameters[1]!.schema).toEqual({ type: 'integer', format: 'int32', 'x-graphql-type': 'Int!', default: 50 });
    const create = ops['Mutation.createTask']!;
    expect(create.parameters).toEqual([expect.objectContaining({ name: 'input', in: 'argument', required: true })]);
    expect(create.parameters[0]!.schema).toMatchObject({
      type: 'object',
      required: ['projectId', 'title'],
      properties: { priority: { type: 'integer', default: 3 }, labels: { type: 'array', default: [] }, status: { enum: expect.any(Array), default: 'OPEN' } },
    });
    expect(ops['Mutation.importFromUrl']!.parameters[0]!.schema).toEqual({ type: 'string', format: 'uri', 'x-graphql-type': 'URL!' });
    expect(ops['Mutation.login']!.request_body!.schema!.properties).toMatchObject({
      variables: { type: 'object', required: ['username', 'password'], properties: { username: { type: 'string' }, password: { type: 'string' } } },
    });
    expect(ops['Query.me']!.request_body!.schema!.properties).not.toHaveProperty('variables');
  });

  it('synthesises variables the schema accepts for every operation', async () => {
    for (const e of sdlImport.endpoints) {
      const body = requestBody(e);
      expect(body.query).toBe(e.graphql!.document);
      const op = operationOf(body.query);
      const coerced = getVariableValues(schema, op.variableDefinitions ?? [], body.variables ?? {});
      expect((coerced.errors ?? []).map((err) => `${e.summary}: ${err.message}`)).toEqual([]);
      // Executed without resolvers: fields come back null (non-null ones as errors), never a variable error.
      const result = await graphql({ schema, source: body.query, variableValues: body.variables });
      expect((result.errors ?? []).filter((err) => !/Cannot return null for non-nullable field/.test(err.message)).map((err) => err.message)).toEqual([]);
    }
  });

  it('describes the 200 response as data.<field> in the selected shape, with errors', () => {
    const schema200 = ops['Query.tasks']!.responses['200']!.schema!;
    expect(schema200).toMatchObject({
      type: 'object',
      properties: {
        data: { properties: { tasks: { type: 'object', properties: { totalCount: { type: 'integer' }, nodes: { type: 'array', items: { properties: { title: { type: 'string' } } } } } } } },
        errors: { type: 'array' },
      },
    });
    expect(ops['Query.serverTime']!.responses['200']!.schema).toMatchObject({ properties: { data: { properties: { serverTime: { type: 'string', format: 'date-time' } } } } });
  });

  it('finds the shortest field cycle from the returned type back to itself', () => {
    expect(ops['Query.me']!.graphql!.cycle).toEqual(['projects', 'owner']);
    expect(ops['Query.project']!.graphql!.cycle).toEqual(['owner', 'projects']);
    expect(ops['Mutation.createTask']!.graphql!.cycle).toEqual(['subtasks']);
    expect(ops['Query.tasks']!.graphql!.cycle).toBeNull(); // TaskConnection: nothing leads back to it
    expect(ops['Query.search']!.graphql!.cycle).toBeNull(); // a union has no fields
    expect(ops['Query.serverTime']!.graphql!.cycle).toBeNull();
    // The cycle is a valid selection, nested as deep as wanted.
    const cycle = ops['Query.me']!.graphql!.cycle!;
    const steps = [...cycle, ...cycle];
    const nested = `query { me { ${steps.join(' { ')} { __typename }${' }'.repeat(steps.length)} }`;
    expect(validate(schema, parse(nested))).toEqual([]);
  });

  it('sets default flags from the operation kind, its name and its arguments', () => {
    const flags = (name: string) => [...ops[name]!.flags].sort();
    expect(flags('Query.me')).toEqual(['BOPLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Query.user')).toEqual(['BOLA', 'BOPLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Query.serverTime')).toEqual(['IIM', 'SEC_MISC', 'URC']);
    expect(flags('Query.adminAuditLog')).toEqual(['BFLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Query.tasks')).toContain('BOLA'); // filter.assigneeId
    expect(flags('Mutation.login')).toEqual(['BFLA', 'BKEN_AUTH', 'BOPLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Mutation.verifyCode')).toEqual(['BFLA', 'BKEN_AUTH', 'BOPLA', 'IIM', 'SEC_MISC', 'UABF', 'URC']);
    expect(flags('Mutation.createTask')).not.toContain('BOLA'); // the project id of a create names its parent
    expect(flags('Mutation.updateTask')).toContain('BOLA');
    expect(flags('Mutation.deleteProject')).toEqual(['BFLA', 'BOLA', 'BOPLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Mutation.setWebhook')).toEqual(expect.arrayContaining(['SSRF', 'UCAPI', 'BOLA']));
    expect(flags('Mutation.importFromUrl')).toEqual(expect.arrayContaining(['SSRF', 'UCAPI']));
    expect(flags('Mutation.checkout')).toContain('UABF');
    expect(flags('Mutation.adminSetRole')).toEqual(['BFLA', 'BOLA', 'BOPLA', 'IIM', 'SEC_MISC', 'URC']);
    expect(flags('Subscription.taskChanged')).toEqual(['BOLA', 'BOPLA', 'IIM', 'SEC_MISC', 'URC']);
  });
});

describe('GraphQL introspection import', () => {
  const introspection = introspectionFromSchema(schema);

  it('reads { data: { __schema } } and { __schema } into the same operations as the SDL', () => {
    for (const doc of [{ data: introspection }, introspection]) {
      const r = importText(JSON.stringify(doc), 'workspace-introspection.json');
      expect(r.format).toBe('graphql-introspection');
      expect(r.name).toBe('workspace-introspection');
      expect(r.base_url).toBe('');
      expect(r.endpoints).toEqual(sdlImport.endpoints);
    }
  });

  it('names an API without a file name "GraphQL API"', () => {
    const r = importText(JSON.stringify({ data: introspection }), '');
    expect(r.name).toBe('GraphQL API');
  });

  it('imports a schema given directly (live introspection) at its path and base URL', () => {
    const r = importGraphqlSchema(schema, { name: 'api.example.test', baseUrl: 'https://api.example.test', path: '/api/graphql', format: 'graphql-introspection' });
    expect(r.base_url).toBe('https://api.example.test');
    expect(r.warnings).toEqual([]);
    expect(r.endpoints.every((e) => e.path === '/api/graphql')).toBe(true);
    expect(r.endpoints.length).toBe(OPERATIONS.length);
  });

  it('refuses a broken introspection result with where it is', () => {
    const err = importError(() => importJson({ data: { __schema: { queryType: { name: 'Query' }, types: [] } } }));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/^The GraphQL introspection result is not valid: .*Query.* \(at \/data\/__schema\)\.$/);
    const noTypes = importError(() => importJson({ __schema: { queryType: { name: 'Query' } } }));
    expect(noTypes.message).toMatch(/introspection result is not valid.*\(at \/__schema\)/);
  });
});

describe('GraphQL schema errors', () => {
  it('refuses SDL with a syntax error, naming its line and column', () => {
    const err = importError(() => importText('type Query {\n  pastes: [Paste!\n}\n', 'broken.graphql'));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/^The file is not a valid GraphQL schema: Syntax Error: .* \(at line 3, column 1\)\.$/);
  });

  it('refuses a schema without a query type', () => {
    const err = importError(() => importText('type Mutation {\n  ping: Boolean\n}\n'));
    expect(err.message).toMatch(/GraphQL schema has no query type/);
    const named = importError(() => importText('schema {\n  mutation: M\n}\ntype M { ping: Boolean }\n'));
    expect(named.message).toMatch(/no query type.*\(at line 1\)\.$/);
  });

  it('refuses unknown types with their line, and ignores undefined directives with a warning', () => {
    const err = importError(() => importText('type Query {\n  me: User\n}\n'));
    expect(err.message).toMatch(/^The GraphQL schema is not valid: Unknown type "User" \(at line 2, column 7\)\.$/);
    const federated = importText('type Query {\n  me: User\n}\ntype User @key(fields: "id") {\n  id: ID!\n}\n', 'users.graphqls');
    expect(federated.name).toBe('users');
    expect(federated.endpoints.map((e) => e.summary)).toEqual(['Query.me']);
    expect(federated.warnings).toContainEqual({ location: 'line 4, column 11', message: expect.stringMatching(/directives it does not define \(@key\)/) });
  });

  it('refuses a query document offered as a schema', () => {
    const afterType = importError(() => importText('type Query { me: ID }\nquery Me { me }\n'));
    expect(afterType.message).toMatch(/holds GraphQL operations, not a schema.*\(at line 2\)\.$/);
  });

  it('warns about other schema problems and still imports', () => {
    const r = importText('interface Node { id: ID! }\ntype Query { thing: Thing }\ntype Thing implements Node { name: String }\n');
    expect(r.endpoints.map((e) => e.summary)).toEqual(['Query.thing']);
    expect(r.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/not valid GraphQL: Interface field Node\.id expected but Thing does not provide it/));
  });
});

describe('GraphQL detection', () => {
  it('recognises SDL from its content, after comments and descriptions', () => {
    for (const text of [
      'type Query { a: Int }',
      '# comment\n\ntype Query {\n a: Int }',
      '"""\nThe API\n"""\nschema { query: Q }\ntype Q { a: Int }',
      '"A one-line description"\ntype Query { a: Int }',
      'extend type Query { b: Int }',
      'directive @auth(requires: String) on FIELD_DEFINITION\ntype Query { a: Int }',
      'scalar Date\ntype Query { a: Date }',
      'schema{query:Q} type Q{a:Int}',
    ])
      expect(looksLikeGraphqlSdl(text), text).toBe(true);
  });

  it('leaves YAML and JSON documents alone', () => {
    for (const text of [
      'openapi: 3.0.3\ninfo:\n  title: T\n',
      '# type Query {\nopenapi: 3.0.3\n',
      'type: object\nproperties: {}\n',
      'type Query: x\n',
      '"openapi": "3.0.3"\n"info": {"title": "T", "version": "1"}\n',
      '{"type": "Query"}',
      'schema: {}\n',
      'input: x\n',
    ])
      expect(looksLikeGraphqlSdl(text), text).toBe(false);
  });

  it('still reads REST descriptions as before', () => {
    const r = importJson(openapi({ '/pets': { get: { responses: { '200': { description: 'ok' } } } } }));
    expect(r.format).toBe('openapi-3.0');
    expect(r.endpoints[0]!.graphql).toBeUndefined();
    const yamlDoc = importText('openapi: 3.0.3\ninfo:\n  title: Types\n  version: "1"\npaths:\n  /types:\n    get:\n      responses:\n        "200":\n          description: ok\n', 'types.yaml');
    expect(yamlDoc.format).toBe('openapi-3.0');
    expect(importError(() => importJson({ hello: 'world' })).message).toMatch(/not an API description this app can read: .*GraphQL schema \(SDL\)/);
  });
});

describe('GraphQL import limits', () => {
  it('keeps selections of wide and deep types bounded', () => {
    const leaves = Array.from({ length: 200 }, (_, i) => `  f${i}: String`).join('\n');
    const chain = Array.from({ length: 10 }, (_, i) => `type L${i} { name: String next: L${i + 1} }`).join('\n');
    const sdl = `type Query {\n  wide: Wide\n  deep: L0\n}\ntype Wide {\n${leaves}\n}\n${chain}\ntype L10 { name: String }\n`;
    const r = importText(sdl);
    const wide = r.endpoints.find((e) => e.summary === 'Query.wide')!.graphql!.document;
    expect(wide.match(/\n {4}f\d+/g)!.length).toBe(30);
    const deep = r.endpoints.find((e) => e.summary === 'Query.deep')!.graphql!.document;
    expect(deep.match(/next \{/g)!.length).toBe(2);
    const built: GraphQLSchema = buildSchema(sdl);
    for (const e of r.endpoints) expect(validate(built, parse(e.graphql!.document))).toEqual([]);
  });

  it('refuses types nested deeper than any schema writes them, and a schema without operations', () => {
    const deepArg = importError(() => importText(`type Query { a(x: ${'['.repeat(3000)}Int${']'.repeat(3000)}): Int }`));
    expect(deepArg.message).toMatch(/Skipped Query\.a: its types nest lists more than 16 deep/);
    const deepReturn = importError(() => importText(`type Query { a: ${'['.repeat(50_000)}Int${']'.repeat(50_000)} }`));
    expect(deepReturn.message).toBe('The GraphQL schema nests too deeply to read.');
    const deepInput = importText(`input I { x: ${'['.repeat(40)}Int${']'.repeat(40)} }\ntype Query { a(i: I): Int }`);
    expect(deepInput.endpoints[0]!.parameters[0]!.schema!.properties).toEqual({ x: { 'x-truncated': 'depth', 'x-graphql-type': 'Int' } });
    expect(importError(() => importText('type Query')).message).toBe('The GraphQL schema defines no operations: its query type has no fields (at line 1).');
  });

  it('imports at most the endpoint limit of operations', () => {
    const fields = Array.from({ length: 10_050 }, (_, i) => `  f${i}: Int`).join('\n');
    const r = importText(`type Query {\n${fields}\n}`);
    expect(r.endpoints.length).toBe(10_000);
    expect(r.warnings).toContainEqual({ location: 'line 10002', message: 'Only the first 10,000 operations were imported; 50 more were left out.' });
  });

  it('gives a type with nothing selectable __typename', () => {
    const r = importText('type Query { box: Box }\ntype Box { inner(id: ID!): Box }\n');
    expect(r.endpoints[0]!.graphql!.document).toBe('query Box {\n  box {\n    __typename\n  }\n}');
  });
});
