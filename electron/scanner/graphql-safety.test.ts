import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { graphqlSendBlocked } from './graphql-safety';

function op(kind: 'query' | 'mutation' | 'subscription', field: string, args: Record<string, string> = {}): Endpoint {
  return {
    id: field,
    method: 'POST',
    path: '/graphql',
    summary: field,
    operation_id: null,
    tags: [],
    flags: [],
    parameters: Object.entries(args).map(([name, type]) => ({ name, in: 'argument', required: type.endsWith('!'), schema: { 'x-graphql-type': type } })),
    request_body: null,
    responses: {},
    security: null,
    graphql: { kind, root_type: kind === 'query' ? 'Query' : kind === 'mutation' ? 'Mutation' : 'Subscription', field, document: '', variable_types: args, returns: 'String', cycle: null },
  } as Endpoint;
}

describe('what a scan may send to a GraphQL operation', () => {
  it('sends queries, creates and logins; never a delete, a wipe, a subscription, nor a write to an existing object unless allowed', () => {
    expect(graphqlSendBlocked(op('query', 'member', { id: 'ID!' }), false)).toBeNull();
    expect(graphqlSendBlocked(op('mutation', 'login', { username: 'String!', password: 'String!' }), false)).toBeNull();
    expect(graphqlSendBlocked(op('mutation', 'resetPassword', { email: 'String!', code: 'String!', newPassword: 'String!' }), false)).toBeNull();
    expect(graphqlSendBlocked(op('mutation', 'deleteAllPastes'), true)).toMatch(/deletes or resets/);
    expect(graphqlSendBlocked(op('mutation', 'resetDatabase'), true)).toMatch(/deletes or resets/);
    expect(graphqlSendBlocked(op('mutation', 'setMemberRole', { id: 'ID!', role: 'Role!' }), false)).toMatch(/id of an existing object/);
    expect(graphqlSendBlocked(op('mutation', 'setMemberRole', { id: 'ID!', role: 'Role!' }), true)).toBeNull();
    expect(graphqlSendBlocked(op('mutation', 'editPaste', { pasteId: 'Int' }), false)).toMatch(/id of an existing object/);
    expect(graphqlSendBlocked(op('subscription', 'orderShipped', { orderId: 'ID!' }), true)).toMatch(/subscription/);
    expect(graphqlSendBlocked({ ...op('query', 'x'), graphql: undefined } as Endpoint, false)).toBeNull();
  });
});
