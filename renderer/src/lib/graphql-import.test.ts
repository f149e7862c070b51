import { describe, expect, it } from 'vitest';
import { identitySchema } from '../../../shared/identities';
import { credentialIdentity, isHeaderName } from './graphql-import';

describe('the GraphQL endpoint form credential', () => {
  it('is a bearer token in Authorization, a pasted "Bearer " not doubled, valid for the server', () => {
    const identity = credentialIdentity('  Bearer abc.def  ', 'Authorization');
    expect(identity).toEqual({ name: 'import', role: 'user', token: 'abc.def', place: { header: 'Authorization', value: 'Bearer {token}' } });
    expect(identitySchema.safeParse(identity).success).toBe(true);
  });

  it('goes as it is in another header', () => {
    const identity = credentialIdentity('k-123', 'X-API-Key');
    expect(identity).toEqual({ name: 'import', role: 'user', token: 'k-123', place: { header: 'X-API-Key', value: '{token}' } });
    expect(identitySchema.safeParse(identity).success).toBe(true);
  });

  it('is nothing without a token', () => {
    expect(credentialIdentity('  ', 'Authorization')).toBeNull();
    expect(credentialIdentity('Bearer ', 'Authorization')).toBeNull();
  });

  it('checks header names like the server', () => {
    expect(isHeaderName('X-Api-Key')).toBe(true);
    expect(isHeaderName('X Api')).toBe(false);
    expect(isHeaderName('')).toBe(false);
  });
});
