import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Endpoint, EndpointParameter } from '../../../../shared/contract';
import { addressedTypes, gotContent, isMeQuery, objectArguments, objectValueFor, ownReadQueries, typedObjects, withTypenames, withinLevels } from './graphql-objects';

const schema = buildSchema(`
  type Query { loan(id: ID!): Loan, me: Member, myLoans: [Loan!]!, version: String }
  type Loan { id: ID! book: Book }
  type Book { title: String }
  type Member { id: ID! name: String }
`);

function operation(field: string, returns: string, args: Record<string, [string, Partial<EndpointParameter>?]> = {}, kind: 'query' | 'mutation' = 'query'): Endpoint {
  const parameters: EndpointParameter[] = Object.entries(args).map(([name, [type, extra]]) => ({
    name,
    in: 'argument',
    required: type.endsWith('!'),
    schema: { type: 'string', 'x-graphql-type': type },
    example: undefined,
    description: null,
    ...extra,
  })) as EndpointParameter[];
  const vars = Object.keys(args);
  return {
    id: field,
    method: 'POST',
    path: '/graphql',
    summary: `${kind === 'query' ? 'Query' : 'Mutation'}.${field}`,
    parameters,
    graphql: {
      kind,
      root_type: kind === 'query' ? 'Query' : 'Mutation',
      field,
      document: `${kind} ${vars.length ? `(${vars.map((v) => `$${v}: ${args[v]![0]}`).join(', ')})` : ''} { ${field}${vars.length ? `(${vars.map((v) => `${v}: $${v}`).join(', ')})` : ''} { id } }`,
      variable_types: Object.fromEntries(vars.map((v) => [v, args[v]![0]])),
      returns,
      cycle: null,
    },
  } as unknown as Endpoint;
}

describe('GraphQL objects of the authorization checks', () => {
  it('asks __typename in every selection below the root, and the document stays valid', () => {
    const doc = withTypenames('query Q($id: ID!) { loan(id: $id) { id book { title } } }');
    expect(doc.match(/__typename/g)).toHaveLength(2);
    expect(doc).not.toMatch(/^\s*query Q\(\$id: ID!\) \{\s*__typename/);
    expect(validate(schema, parse(doc))).toEqual([]);
    expect(withTypenames('{ me { id __typename } }').match(/__typename/g)).toHaveLength(1);
  });

  it('finds the typed objects of an answer and their ids', () => {
    const found = typedObjects({ loans: [{ __typename: 'Loan', id: 'l1', book: { __typename: 'Book', title: 'Dune' } }] });
    expect(found.map((o) => o.typename)).toEqual(['Loan', 'Book']);
    expect(objectValueFor(found[0]!.value, 'loanId')).toBe('l1');
    expect(objectValueFor({ username: 'bob', id: 7 }, 'username')).toBe('bob');
  });

  it('tells object arguments and the types they address', () => {
    const loan = operation('loan', 'Loan', { id: ['ID!'] });
    expect(objectArguments(loan).map((p) => p.name)).toEqual(['id']);
    expect(addressedTypes(loan, objectArguments(loan)[0]!)).toContain('loan');
    const byMember = operation('loansOf', '[Loan!]!', { memberId: ['String!'], limit: ['Int'] });
    expect(objectArguments(byMember).map((p) => p.name)).toEqual(['memberId']);
    expect(addressedTypes(byMember, objectArguments(byMember)[0]!)).toEqual(['member']);
    expect(objectArguments(operation('search', '[Book]', { title: ['String'] }))).toEqual([]);
  });

  it('picks the argument-free reads, "me"-like first, scalars left out', () => {
    const ops = [operation('version', 'String'), operation('myLoans', '[Loan!]!'), operation('me', 'Member'), operation('loan', 'Loan', { id: ['ID!'] })];
    expect(ownReadQueries(ops).map((e) => e.graphql!.field)).toEqual(['me', 'myLoans']);
    expect(isMeQuery(operation('viewer', 'User'))).toBe(true);
    expect(isMeQuery(operation('currentUser', 'User'))).toBe(true);
    expect(isMeQuery(operation('members', '[Member]'))).toBe(false);
  });

  it('counts an answer as content only when the field resolved to something', () => {
    expect(gotContent({ data: { loan: { __typename: 'Loan', id: '1' } }, errors: [] }, 'loan')).toBe(true);
    expect(gotContent({ data: { loan: null }, errors: [{ message: 'Not allowed', path: ['loan'] }] }, 'loan')).toBe(false);
    expect(gotContent({ data: { loans: [] }, errors: [] }, 'loans')).toBe(false);
    expect(gotContent({ data: { ok: false }, errors: [] }, 'ok')).toBe(false);
  });
});

describe('withinLevels', () => {
  it('keeps the listed objects and the objects they name, not a list nested in each of them', () => {
    const doc = withinLevels('query P { pastes { id owner { id name pastes { id owner { id } } paste { id } } } }', 2);
    expect(doc.replace(/\s+/g, ' ')).toBe('query P { pastes { id owner { id name } } }');
  });
});
