import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphqlOperation } from '../../../../shared/contract';
import { cycleSelection, operationDocument } from './graphql';

const schema = buildSchema(`
  type Query { loan(id: ID!, note: String): Loan }
  type Loan { id: ID! member: Member }
  type Member { id: ID! loans: [Loan] }
`);

const op: GraphqlOperation = {
  kind: 'query',
  root_type: 'Query',
  field: 'loan',
  document: 'query Loan($id: ID!, $note: String) { loan(id: $id, note: $note) { id } }',
  variable_types: { id: 'ID!', note: 'String' },
  returns: 'Loan',
  cycle: ['member', 'loans'],
};

const valid = (doc: string) => validate(schema, parse(doc)).map((e) => e.message);

describe('GraphQL documents of checks', () => {
  it('aliases the field and keeps the variables', () => {
    const doc = operationDocument(op, { aliases: 3 });
    expect(doc).toContain('a0: loan(id: $id, note: $note)');
    expect(doc).toContain('a2: loan');
    expect(valid(doc)).toEqual([]);
  });

  it('nests the cycle to a depth and stays valid', () => {
    const doc = operationDocument(op, { selection: cycleSelection(op.cycle!, 3) });
    expect(doc.match(/member/g)).toHaveLength(3);
    expect(valid(doc)).toEqual([]);
  });

  it('drops arguments on request, leaving an invalid call for the server to refuse', () => {
    const doc = operationDocument(op, { withoutArguments: true, name: 'Probe' });
    expect(doc).toMatch(/^query Probe \{/);
    expect(valid(doc).join()).toMatch(/argument "id"/);
  });
});
