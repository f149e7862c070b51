import { describe, expect, it } from 'vitest';
import { GOOGLE_ISSUER, resolveConfig } from '../../electron/config';

const base = { shell: 'server' as const, dataDir: '/tmp/portcullis-config-test' };

describe('social sign-in configuration', () => {
  it('is off without a client id', () => {
    expect(resolveConfig(base, {}).oidc).toBeNull();
    expect(resolveConfig(base, { PORTCULLIS_OIDC_ISSUER: 'https://idp.example' }).oidc).toBeNull();
  });

  it('defaults to Google; any issuer, client and secret by environment', () => {
    expect(resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'abc.apps.googleusercontent.com' }).oidc).toEqual({
      issuer: GOOGLE_ISSUER,
      clientId: 'abc.apps.googleusercontent.com',
    });
    expect(
      resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'c', PORTCULLIS_OIDC_CLIENT_SECRET: 's', PORTCULLIS_OIDC_ISSUER: 'https://login.example.com/realms/x/' }).oidc,
    ).toEqual({ issuer: 'https://login.example.com/realms/x/', clientId: 'c', clientSecret: 's' });
  });

  it('refuses an issuer over plain http unless it is on a loopback address', () => {
    expect(() => resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'c', PORTCULLIS_OIDC_ISSUER: 'http://idp.example' })).toThrow(/https/);
    expect(() => resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'c', PORTCULLIS_OIDC_ISSUER: 'https://u:p@idp.example' })).toThrow();
    expect(() => resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'c', PORTCULLIS_OIDC_ISSUER: 'not a url' })).toThrow();
    expect(resolveConfig(base, { PORTCULLIS_OIDC_CLIENT_ID: 'c', PORTCULLIS_OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe('http://127.0.0.1:9000');
    expect(() => resolveConfig({ ...base, oidc: { issuer: 'http://idp.example', clientId: 'c' } }, {})).toThrow(/https/);
  });
});
