import { describe, expect, it } from 'vitest';
import type { Endpoint, EndpointParameter, GraphqlOperation, JsonSchema } from '../../../../shared/contract';
import { Exchange } from '../../http/exchange';
import type { PreparedRequest } from '../../requests';
import { argumentPoints, inputKind, mayInject, moreOfField } from './graphql-inputs';

function operation(kind: GraphqlOperation['kind'], field: string, args: Record<string, [string, JsonSchema]>): Endpoint {
  const types = Object.fromEntries(Object.entries(args).map(([n, [t]]) => [n, t]));
  const defs = Object.entries(types).map(([n, t]) => `$${n}: ${t}`).join(', ');
  const call = Object.keys(types).map((n) => `${n}: $${n}`).join(', ');
  const parameters: EndpointParameter[] = Object.entries(args).map(([name, [t, schema]]) => ({
    name,
    in: 'argument',
    required: t.endsWith('!'),
    schema: { ...schema, 'x-graphql-type': t },
  } as EndpointParameter));
  return {
    id: field,
    method: 'POST',
    path: '/graphql',
    summary: `${kind}.${field}`,
    flags: ['SEC_MISC'],
    operation_id: field,
    tags: [],
    parameters,
    request_body: null,
    responses: {},
    security: null,
    graphql: { kind, root_type: kind === 'query' ? 'Query' : 'Mutation', field, document: `${kind} Op(${defs}) { ${field}(${call}) { id } }`, variable_types: types, returns: 'Thing', cycle: null },
  } as unknown as Endpoint;
}

function request(variables: Record<string, unknown>): PreparedRequest {
  const bodyValue = { query: 'query { x }', variables };
  return { endpoint: null, method: 'POST', url: new URL('http://127.0.0.1/graphql'), headers: { 'content-type': 'application/json' }, body: JSON.stringify(bodyValue), bodyValue, contentType: 'application/json', placements: [], pathValues: {} };
}

const answer = (body: unknown, status = 200) =>
  new Exchange(1, { method: 'POST', url: 'http://127.0.0.1/graphql', headers: {}, body: null, auth: { kind: 'none' }, placements: [] }, { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), bytes: 0, truncated: false }, null, 5);

const search = operation('query', 'books', {
  title: ['String', { type: 'string' }],
  id: ['ID', { type: 'string' }],
  first: ['Int', { type: 'integer' }],
  genre: ['Genre', { type: 'string', enum: ['SF', 'CRIME'] }],
  filter: ['JSON', {}],
  tags: ['[String!]', { type: 'array', items: { type: 'string', 'x-graphql-type': 'String!' } }],
  where: ['BookWhere', { type: 'object', properties: { author: { type: 'string', 'x-graphql-type': 'String' }, year: { type: 'integer', 'x-graphql-type': 'Int' } } }],
});

describe('GraphQL arguments as injection points', () => {
  it('takes String, ID and custom-scalar arguments, lists by their first member, and input-object text fields', () => {
    const points = argumentPoints(search, request({ title: 'dune', id: '7', first: 3, genre: 'SF', filter: { a: 1 }, tags: ['x'], where: { author: 'Herbert', year: 1965 } }));
    expect(points.map((p) => `${p.name}:${p.type}`)).toEqual(['title:string', 'id:string', 'filter:object', 'tags:string', 'where.author:string']);
    expect(points.every((p) => p.where === 'argument')).toBe(true);
    expect(inputKind('Int!', { type: 'integer' })).toBe('other');
    expect(inputKind('DateTime', { type: 'string' })).toBe('custom');
  });

  it('changes only the chosen variable, in the request body GraphQL servers read', () => {
    const points = argumentPoints(search, request({ title: 'dune', first: 3, tags: ['x'], where: { author: 'Herbert', year: 1965 } }));
    const sent = (name: string, v: unknown) => (points.find((p) => p.name === name)!.with(v).bodyValue as { variables: Record<string, unknown> }).variables;
    expect(sent('title', "dune'")).toEqual({ title: "dune'", first: 3, tags: ['x'], where: { author: 'Herbert', year: 1965 } });
    expect(sent('tags', 'y')).toMatchObject({ tags: ['y'] });
    expect(sent('where.author', { $ne: null })).toMatchObject({ where: { author: { $ne: null }, year: 1965 } });
    // An argument the request left out starts from a neutral value.
    expect(points.find((p) => p.name === 'id')!.value).toBe('portcullis');
  });
});

describe('which operations take payloads', () => {
  const ctx = (allowExistingObjects = false) => ({ options: { allowExistingObjects, lowerPrivilegeKey: 2 as const } });
  it('queries always; creates and logins; never a delete, nor a mutation addressing an object unless allowed', () => {
    expect(mayInject(ctx(), search)).toBe(true);
    expect(mayInject(ctx(), operation('mutation', 'login', { username: ['String!', { type: 'string' }], password: ['String!', { type: 'string' }] }))).toBe(true);
    expect(mayInject(ctx(), operation('mutation', 'createBook', { input: ['BookInput!', { type: 'object', properties: { title: { type: 'string', 'x-graphql-type': 'String' } } }] }))).toBe(true);
    const update = operation('mutation', 'updateBook', { bookId: ['Int!', { type: 'integer' }], title: ['String', { type: 'string' }] });
    expect(mayInject(ctx(), update)).toBe(false);
    expect(mayInject(ctx(true), update)).toBe(true);
    expect(mayInject(ctx(), operation('mutation', 'renameBook', { input: ['RenameInput!', { type: 'object', properties: { book: { type: 'string', 'x-graphql-type': 'ID!' } } }] }))).toBe(false);
    expect(mayInject(ctx(true), operation('mutation', 'deleteBooks', { title: ['String', { type: 'string' }] }))).toBe(false);
    expect(mayInject(ctx(true), operation('subscription', 'bookAdded', { title: ['String', { type: 'string' }] }))).toBe(false);
  });
});

describe('reading boolean pairs from GraphQL answers', () => {
  it('counts a field that resolved where it did not, or a longer list; never an echo of the same length nor an answer that did not execute', () => {
    const some = answer({ data: { books: [{ id: '1' }, { id: '2' }] } });
    const none = answer({ data: { books: [] } });
    expect(moreOfField(some, none, 'books')).toBe(true);
    expect(moreOfField(none, some, 'books')).toBe(false);
    expect(moreOfField(answer({ data: { login: { token: 't' } } }), answer({ data: { login: null }, errors: [{ message: 'Invalid credentials', path: ['login'] }] }), 'login')).toBe(true);
    expect(moreOfField(answer({ data: { echo: "a' || 'a'==='a" } }), answer({ data: { echo: "a' && 'a'==='b" } }), 'echo')).toBe(false);
    expect(moreOfField(some, answer({ errors: [{ message: 'Variable "$filter" got invalid value' }] }, 400), 'books')).toBe(false);
    expect(moreOfField(some, answer({ errors: [{ message: 'boom' }] }, 500), 'books')).toBe(false);
  });
});
