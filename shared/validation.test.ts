import { describe, expect, it } from 'vitest';
import { APIS_MESSAGES } from './api-messages';
import { LIMITS } from './constants';
import {
  loginPayload,
  matchesEndpointSearch,
  signupPayload,
  validateExtendedProfile,
  validateGraphqlUrl,
  validateImportFile,
  validateLogin,
  validatePasswordChange,
  validateReset,
  validateScanConfig,
  validateSettingsProfile,
  validateShare,
  validateSignup,
} from './validation';

const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

describe('sign-up (spec section 5, in order)', () => {
  const valid = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    username: 'ada',
    password: 'longenough',
    confirmPassword: 'longenough',
    terms: true,
  };

  it('accepts a complete form', () => {
    expect(validateSignup(valid)).toEqual([]);
  });

  it('reports every rule in the spec order with its exact text', () => {
    expect(messages(validateSignup({}))).toEqual([
      'First name is required',
      'Last name is required',
      'Email is required',
      'Username is required',
      'Password required',
      'Please agree to terms',
    ]);
    expect(
      messages(validateSignup({ firstName: ' ', lastName: 'L', email: 'nope', username: 'ab', password: 'short', confirmPassword: 'x' })),
    ).toEqual(['First name is required', 'Invalid email', 'Username too short', 'Password too short', 'Passwords must match', 'Please agree to terms']);
  });

  it('fills the form one field at a time: the first error moves down the spec order', () => {
    const steps: [Record<string, unknown>, string][] = [
      [{}, 'First name is required'],
      [{ firstName: 'A' }, 'Last name is required'],
      [{ firstName: 'A', lastName: 'B' }, 'Email is required'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b' }, 'Invalid email'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co' }, 'Username is required'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co', username: 'ab' }, 'Username too short'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co', username: 'abc' }, 'Password required'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co', username: 'abc', password: '1234567' }, 'Password too short'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co', username: 'abc', password: '12345678' }, 'Passwords must match'],
      [{ firstName: 'A', lastName: 'B', email: 'a@b.co', username: 'abc', password: '12345678', confirmPassword: '12345678' }, 'Please agree to terms'],
    ];
    for (const [form, first] of steps) expect(validateSignup(form)[0]?.message).toBe(first);
  });

  it('trims values and lower-cases email and username before sending', () => {
    expect(signupPayload({ ...valid, firstName: ' Ada ', email: ' ADA@Example.COM ', username: ' Ada ' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      username: 'ada',
      password: 'longenough',
    });
  });

  it('skips the client-only rules for the server payload', () => {
    const { confirmPassword: _c, terms: _t, ...payload } = valid;
    expect(validateSignup(payload, { form: false })).toEqual([]);
  });
});

describe('login', () => {
  it('needs both fields', () => {
    expect(messages(validateLogin({ identifier: 'a', password: '' }))).toEqual(['Please enter both identifier and password']);
    expect(messages(validateLogin({ identifier: ' ', password: 'x' }))).toEqual(['Please enter both identifier and password']);
    expect(validateLogin({ identifier: 'a', password: 'x' })).toEqual([]);
  });
  it('sends the identifier as email when it contains @, else as username', () => {
    expect(loginPayload('Ada@Example.com', 'pw')).toEqual({ email: 'ada@example.com', password: 'pw' });
    expect(loginPayload('ada', 'pw')).toEqual({ username: 'ada', password: 'pw' });
  });
});

describe('password change', () => {
  it('pins every message in order', () => {
    expect(messages(validatePasswordChange({}))).toEqual(['Current password is required.', 'New password is required.']);
    expect(messages(validatePasswordChange({ currentPassword: 'Old1pass', newPassword: 'abc', confirmPassword: 'x' }))).toEqual([
      'Password must be at least 8 characters long.',
      'Password must contain at least one uppercase letter.',
      'Password must contain at least one number.',
      'Password confirmation does not match.',
    ]);
    expect(messages(validatePasswordChange({ currentPassword: 'a', newPassword: 'ABCDEFGH1', confirmPassword: 'ABCDEFGH1' }))).toEqual([
      'Password must contain at least one lowercase letter.',
    ]);
    expect(messages(validatePasswordChange({ currentPassword: 'Same1pass', newPassword: 'Same1pass', confirmPassword: 'Same1pass' }))).toEqual([
      'New password must be different from current password.',
    ]);
    expect(validatePasswordChange({ currentPassword: 'Old1pass', newPassword: 'New1pass', confirmPassword: 'New1pass' })).toEqual([]);
  });
});

describe('reset', () => {
  it('pins the messages', () => {
    expect(messages(validateReset({ token: 't', password: 'longenough', confirmPassword: 'different' }))).toEqual(['Passwords do not match.']);
    expect(messages(validateReset({ password: 'longenough', confirmPassword: 'longenough' }))).toEqual(['Missing or invalid token.']);
    expect(messages(validateReset({ token: 't', password: 'short', confirmPassword: 'short' }))).toEqual([
      'Password must be at least 8 characters.',
      'Password must be at least 8 characters.',
    ]);
    expect(validateReset({ token: 't', password: 'short1234' }, { form: false })).toEqual([]);
  });
});

describe('share, import, scan config', () => {
  it('pins the messages', () => {
    expect(messages(validateShare({ email: ' ' }))).toEqual(['Please enter an email address.']);
    expect(messages(validateShare({ email: 'nope' }))).toEqual(['Invalid email']);
    expect(validateShare({ email: 'b@example.com' })).toEqual([]);
    expect(messages(validateImportFile(null))).toEqual(['Please select a file.']);
    expect(messages(validateImportFile({ name: 'api.txt' }))).toEqual(['Please choose a .json, .yaml, .yml, .har, .graphql or .graphqls file.']);
    expect(validateImportFile({ name: 'schema.GraphQL' })).toEqual([]);
    expect(validateImportFile({ name: 'schema.graphqls' })).toEqual([]);
    for (const name of ['a.json', 'a.yaml', 'A.YML', 'rec.har']) expect(validateImportFile({ name })).toEqual([]);
    expect(messages(validateScanConfig({ api_key_1: '   ' }))).toEqual(['A primary API key is required.']);
    expect(validateScanConfig({ api_key_1: 'k' })).toEqual([]);
  });
});

describe('settings profile', () => {
  it('pins the name rules', () => {
    expect(messages(validateSettingsProfile({ firstName: '', lastName: '' }))).toEqual(['First name is required', 'Last name is required']);
    expect(messages(validateSettingsProfile({ firstName: 'A', lastName: 'B' }))).toEqual([
      'First name must be at least 2 characters',
      'Last name must be at least 2 characters',
    ]);
    expect(messages(validateSettingsProfile({ firstName: 'A'.repeat(51), lastName: 'B'.repeat(51) }))).toEqual([
      'First name must be less than 50 characters',
      'Last name must be less than 50 characters',
    ]);
    expect(validateSettingsProfile({ firstName: ' Ad ', lastName: 'Lo' })).toEqual([]);
  });
  it('pins the username rules (optional)', () => {
    const base = { firstName: 'Ada', lastName: 'Lovelace' };
    expect(validateSettingsProfile({ ...base, username: '' })).toEqual([]);
    expect(messages(validateSettingsProfile({ ...base, username: 'ab' }))).toEqual(['Username must be at least 3 characters']);
    expect(messages(validateSettingsProfile({ ...base, username: 'a'.repeat(31) }))).toEqual(['Username must be less than 30 characters']);
    expect(messages(validateSettingsProfile({ ...base, username: 'ada.l' }))).toEqual([
      'Username can only contain letters, numbers, underscores, and dashes',
    ]);
    expect(validateSettingsProfile({ ...base, username: 'Ada_L-1' })).toEqual([]);
  });
  it('pins the extended rules', () => {
    expect(messages(validateExtendedProfile({ phone: 'call me', website_url: 'example.com', bio: 'x'.repeat(501) }))).toEqual([
      'Please enter a valid phone number',
      'Website URL must start with http:// or https://',
      'Bio must be less than 500 characters',
    ]);
    expect(validateExtendedProfile({ phone: '+27 (21) 555-0100', website_url: 'https://ada.dev', bio: 'x'.repeat(500) })).toEqual([]);
  });
});

describe('flags search', () => {
  it('filters by method or path, case-insensitive', () => {
    const e = { method: 'DELETE', path: '/Pets/{id}' };
    expect(matchesEndpointSearch(e, 'del')).toBe(true);
    expect(matchesEndpointSearch(e, 'pets')).toBe(true);
    expect(matchesEndpointSearch(e, 'users')).toBe(false);
    expect(matchesEndpointSearch(e, '')).toBe(true);
  });

  it('finds a GraphQL operation by its name', () => {
    const op = { method: 'POST', path: '/graphql', graphql: { kind: 'query' as const, field: 'loan' } };
    expect(matchesEndpointSearch(op, 'query.loan')).toBe(true);
    expect(matchesEndpointSearch(op, 'LOAN')).toBe(true);
    expect(matchesEndpointSearch(op, 'mutation')).toBe(false);
    expect(matchesEndpointSearch({ ...op, graphql: null }, 'loan')).toBe(false);
  });
});

describe('GraphQL endpoint URL', () => {
  it('gives the server\'s messages: required, then an http(s) address, then the length', () => {
    expect(validateGraphqlUrl('  ')).toBe(APIS_MESSAGES.graphqlUrlRequired);
    expect(validateGraphqlUrl('ftp://example.com/graphql')).toBe(APIS_MESSAGES.graphqlUrlInvalid);
    expect(validateGraphqlUrl('example.com/graphql')).toBe(APIS_MESSAGES.graphqlUrlInvalid);
    expect(validateGraphqlUrl(`https://example.com/${'a'.repeat(LIMITS.urlMax)}`)).toBe(APIS_MESSAGES.graphqlUrlTooLong);
    expect(validateGraphqlUrl(' https://api.example.com/graphql ')).toBeNull();
  });
});
