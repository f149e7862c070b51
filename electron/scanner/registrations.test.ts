// Which operations register users (withheld with sign-up off), the user a check's request registered,
// and the password placeholder requests are prepared with.

import { describe, expect, it } from 'vitest';
import type { Endpoint, JsonSchema } from '../../shared/contract';
import { Exchange } from './http/exchange';
import { generatePassword, isPasswordKey, PASSWORD_PLACEHOLDER, withPasswordPlaceholders } from './passwords';
import { registeredAccount, registersUsers, registrationOperation, registrationOperations } from './registrations';
import { synthesize } from './schema-values';

function ep(method: string, path: string, schema: JsonSchema | null = null, over: Partial<Endpoint> = {}): Endpoint {
  return {
    id: `${method} ${path}`,
    method,
    path,
    summary: '',
    flags: [],
    operation_id: null,
    tags: [],
    parameters: [],
    request_body: schema ? { content_type: 'application/json', required: true, schema } : null,
    responses: {},
    security: null,
    ...over,
  } as Endpoint;
}

const account = { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } };

describe('operations that register users', () => {
  it.each([
    ['POST', '/auth/signup', null],
    ['POST', '/users/v1/register', account],
    ['POST', '/users', account],
    ['POST', '/admin/users', account],
    ['POST', '/orgs/{orgId}/members', account],
    ['POST', '/api/registrations', { type: 'object', properties: { user: account } }],
    ['POST', '/signup', { type: 'object', properties: { email: { type: 'string' } } }],
    ['POST', '/orgs/{orgId}/join', account],
  ] as const)('%s %s registers', (method, path, schema) => {
    expect(registersUsers(ep(method, path, schema as JsonSchema | null))).toBe(true);
  });

  it.each([
    ['POST', '/auth/login', account],
    ['POST', '/users/password-reset', account],
    ['POST', '/users', { type: 'object', properties: { name: { type: 'string' } } }],
    ['PUT', '/users/{id}', account],
    ['GET', '/register', null],
    ['POST', '/orders', account],
    ['POST', '/groups/{groupId}/join', null],
    ['POST', '/devices/register', { type: 'object', properties: { push_token: { type: 'string' } } }],
    ['PUT', '/events/{id}/register', { type: 'object', properties: { seats: { type: 'integer' } } }],
  ] as const)('%s %s does not', (method, path, schema) => {
    expect(registersUsers(ep(method, path, schema as JsonSchema | null))).toBe(false);
  });

  it('a GraphQL mutation by its name and arguments', () => {
    const gql = (field: string, args: string[], kind: 'mutation' | 'query' = 'mutation') =>
      ep('POST', '/graphql', null, {
        graphql: { kind, root_type: 'Mutation', field, document: '', variable_types: {}, returns: 'Member', cycle: null },
        parameters: args.map((name) => ({ name, in: 'argument', required: true, schema: { type: 'string' } })) as Endpoint['parameters'],
      });
    expect(registersUsers(gql('register', ['username', 'password']))).toBe(true);
    expect(registersUsers(gql('signUp', ['email']))).toBe(true);
    expect(registersUsers(gql('createUser', ['login', 'password']))).toBe(true);
    expect(registersUsers(gql('createUser', ['name']))).toBe(false);
    expect(registersUsers(gql('login', ['username', 'password']))).toBe(false);
    expect(registersUsers(gql('register', ['username'], 'query'))).toBe(false);
    expect(registrationOperation(gql('register', ['username', 'password']))).toMatchObject({ graphqlField: 'register', label: 'Mutation.register' });
  });

  it('includes the operation the user named, whatever it is called', () => {
    const named = ep('POST', '/onboarding/start', account);
    expect(registrationOperations([named, ep('POST', '/orders', account)], { operation: 'POST /onboarding/start' })).toEqual([named]);
  });
});

describe('the user a check registered', () => {
  const op = { method: 'POST', path: '/signup', label: 'POST /signup' };
  const exchange = (body: string, status: number, answer: unknown) =>
    new Exchange(1, { method: 'POST', url: 'http://127.0.0.1:9/signup', headers: {}, body, auth: { kind: 'none' }, placements: [] }, { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer), bytes: 0, truncated: false }, null, 1);

  it('is read from what the request sent, with the id the answer gave', () => {
    const a = registeredAccount(op, exchange(JSON.stringify({ user: { username: 'pcs1', email: 'pcs1@example.com', password: 'Pc-abc-7x' } }), 201, { id: 42 }), 'why');
    expect(a).toEqual({ operation: 'POST /signup', username: 'pcs1', email: 'pcs1@example.com', password: 'Pc-abc-7x', id: '42', purpose: 'why' });
    const form = registeredAccount(op, exchange('login=pcs2&pwd=Pc-def-7x', 200, {}), 'why');
    expect(form).toMatchObject({ username: 'pcs2', password: 'Pc-def-7x' });
    const gql = registeredAccount(op, exchange(JSON.stringify({ query: 'mutation { register(username: "pcs3", password: "Pc-ghi-7x", email: "x@example.com") { token } }' }), 200, { data: { register: { token: 't' } } }), 'why');
    expect(gql).toMatchObject({ username: 'pcs3', email: 'x@example.com', password: 'Pc-ghi-7x' });
  });

  it('is nobody when the answer says no user was made', () => {
    const body = JSON.stringify({ username: 'pcs1', password: 'Pc-abc-7x' });
    expect(registeredAccount(op, exchange(body, 409, { error: 'taken' }), 'why')).toBeNull();
    expect(registeredAccount(op, exchange(body, 200, { success: false }), 'why')).toBeNull();
    expect(registeredAccount(op, exchange(JSON.stringify({ query: 'mutation { register(username: "a", password: "b") { token } }' }), 200, { errors: [{ message: 'taken' }] }), 'why')).toBeNull();
  });
});

describe('the password placeholder', () => {
  it('is as long as a generated password, and generated passwords differ', () => {
    expect(PASSWORD_PLACEHOLDER.length).toBe(generatePassword().length);
    const many = new Set(Array.from({ length: 200 }, generatePassword));
    expect(many.size).toBe(200);
    for (const p of many) expect(p).toMatch(/^Pc-[A-Za-z0-9]{16}-7x$/);
  });

  it('takes the place of every password value, the spec example included', () => {
    expect(withPasswordPlaceholders({ username: 'a', password: 'correct-horse-battery-staple', nested: { new_password: 'x', confirm_password: 'x' }, list: [{ pwd: 1 }], compass: 'N', bypass: 'y' })).toEqual({
      username: 'a',
      password: PASSWORD_PLACEHOLDER,
      nested: { new_password: PASSWORD_PLACEHOLDER, confirm_password: PASSWORD_PLACEHOLDER },
      list: [{ pwd: PASSWORD_PLACEHOLDER }],
      compass: 'N',
      bypass: 'y',
    });
    expect(['password', 'passwd', 'user_pass', 'passwordConfirmation', 'currentPassword', 'passphrase'].every(isPasswordKey)).toBe(true);
    expect(['bypass', 'compass', 'passport', 'password_hint_id'].some(isPasswordKey)).toBe(false);
    expect(synthesize({ type: 'object', properties: { password: { type: 'string', example: 'correct-horse-battery-staple' }, pin: { type: 'string', format: 'password' } } }, { forRequest: true })).toEqual({
      password: PASSWORD_PLACEHOLDER,
      pin: PASSWORD_PLACEHOLDER,
    });
  });
});
