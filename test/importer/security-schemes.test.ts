// OAuth 2.0 and OpenID Connect schemes as the scanner needs them: the grants a spec declares and
// the token URL it can run client-credentials or password grants against, kept only when usable.

import { describe, expect, it } from 'vitest';
import { importJson, openapi } from './import-helpers';

const ops = { '/a': { get: { responses: {} } } };
const withSchemes = (securitySchemes: Record<string, unknown>) => importJson(openapi(ops, { components: { securitySchemes } }));
const swagger = (securityDefinitions: Record<string, unknown>) =>
  importJson({ swagger: '2.0', info: { title: 'S', version: '1' }, host: 'api.test', schemes: ['https'], securityDefinitions, paths: ops });

describe('OpenAPI 3 oauth2 and openIdConnect schemes', () => {
  it('maps every flow to its grant and prefers the client-credentials token URL', () => {
    const r = withSchemes({
      oauth: {
        type: 'oauth2',
        flows: {
          implicit: { authorizationUrl: 'https://auth.test/authorize', scopes: {} },
          authorizationCode: { authorizationUrl: 'https://auth.test/authorize', tokenUrl: 'https://auth.test/code-token', scopes: {} },
          password: { tokenUrl: 'https://auth.test/password-token', scopes: {} },
          clientCredentials: { tokenUrl: 'https://auth.test/token', scopes: { read: 'r' } },
          'x-extra': {},
        },
      },
    });
    expect(r.security.schemes.oauth).toEqual({
      type: 'oauth2',
      tokenUrl: 'https://auth.test/token',
      grants: ['client_credentials', 'password', 'authorization_code', 'implicit'],
    });
    expect(r.warnings).toEqual([]);
  });

  it("takes the password flow's token URL next, never the authorization-code flow's, and keeps a relative one as written", () => {
    const r = withSchemes({
      pw: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: '/authorize', tokenUrl: '/code-token', scopes: {} }, password: { tokenUrl: '/oauth/token?realm=api', scopes: {} } } },
      code: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: '/authorize', tokenUrl: '/code-token', scopes: {} } } },
      none: { type: 'oauth2', flows: {} },
    });
    expect(r.security.schemes).toEqual({
      pw: { type: 'oauth2', tokenUrl: '/oauth/token?realm=api', grants: ['password', 'authorization_code'] },
      code: { type: 'oauth2', grants: ['authorization_code'] },
      none: { type: 'oauth2' },
    });
  });

  it('drops a token URL that is not http(s) or relative, too long, or holds credentials, with a warning, and falls back to the next flow', () => {
    const r = withSchemes({
      ftp: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'ftp://auth.test/token', scopes: {} }, password: { tokenUrl: 'https://auth.test/pw', scopes: {} } } },
      js: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'javascript:alert(1)', scopes: {} } } },
      long: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `https://auth.test/${'a'.repeat(3000)}`, scopes: {} } } },
      userinfo: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://client:s3cret@auth.test/token', scopes: {} } } },
      templated: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://{tenant}.auth.test/token', scopes: {} } } },
      number: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 42, scopes: {} } } },
    });
    expect(r.security.schemes).toEqual({
      ftp: { type: 'oauth2', tokenUrl: 'https://auth.test/pw', grants: ['client_credentials', 'password'] },
      js: { type: 'oauth2', grants: ['client_credentials'] },
      long: { type: 'oauth2', grants: ['client_credentials'] },
      userinfo: { type: 'oauth2', grants: ['client_credentials'] },
      templated: { type: 'oauth2', grants: ['client_credentials'] },
      number: { type: 'oauth2', grants: ['client_credentials'] },
    });
    const at = (name: string) => `/components/securitySchemes/${name}/flows/clientCredentials/tokenUrl`;
    expect(r.warnings).toEqual([
      { location: at('ftp'), message: 'Security scheme "ftp": its token URL was dropped because it is not an http(s) URL or a relative reference.' },
      { location: at('js'), message: 'Security scheme "js": its token URL was dropped because it is not an http(s) URL or a relative reference.' },
      { location: at('long'), message: 'Security scheme "long": its token URL was dropped because it is longer than 2048 characters.' },
      { location: at('userinfo'), message: 'Security scheme "userinfo": its token URL was dropped because it holds a user name or password.' },
      { location: at('templated'), message: 'Security scheme "templated": its token URL was dropped because it holds a {variable} the importer cannot fill.' },
      { location: at('number'), message: 'Security scheme "number": its token URL was dropped because it is not a string.' },
    ]);
    expect(JSON.stringify(r)).not.toContain('s3cret');
  });

  it('keeps the OpenID Connect discovery URL when usable', () => {
    const r = withSchemes({
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.test/.well-known/openid-configuration' },
      relative: { type: 'openIdConnect', openIdConnectUrl: '.well-known/openid-configuration' },
      bad: { type: 'openIdConnect', openIdConnectUrl: 'file:///etc/passwd' },
      missing: { type: 'openIdConnect' },
    });
    expect(r.security.schemes).toEqual({
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.test/.well-known/openid-configuration' },
      relative: { type: 'openIdConnect', openIdConnectUrl: '.well-known/openid-configuration' },
      bad: { type: 'openIdConnect' },
      missing: { type: 'openIdConnect' },
    });
    expect(r.warnings).toEqual([
      {
        location: '/components/securitySchemes/bad/openIdConnectUrl',
        message: 'Security scheme "bad": its OpenID Connect URL was dropped because it is not an http(s) URL or a relative reference.',
      },
    ]);
  });
});

describe('Swagger 2 oauth2 schemes', () => {
  it('maps `flow` to a grant and keeps the token URL of the application and password flows', () => {
    const r = swagger({
      app: { type: 'oauth2', flow: 'application', tokenUrl: 'https://auth.test/token', scopes: {} },
      pw: { type: 'oauth2', flow: 'password', tokenUrl: '/token', scopes: {} },
      code: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://auth.test/a', tokenUrl: 'https://auth.test/code', scopes: {} },
      implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://auth.test/a', scopes: {} },
      odd: { type: 'oauth2', flow: 'toString', scopes: {} },
      bad: { type: 'oauth2', flow: 'application', tokenUrl: 'gopher://auth.test/token', scopes: {} },
    });
    expect(r.security.schemes).toEqual({
      app: { type: 'oauth2', tokenUrl: 'https://auth.test/token', grants: ['client_credentials'] },
      pw: { type: 'oauth2', tokenUrl: '/token', grants: ['password'] },
      code: { type: 'oauth2', grants: ['authorization_code'] },
      implicit: { type: 'oauth2', grants: ['implicit'] },
      odd: { type: 'oauth2' },
      bad: { type: 'oauth2', grants: ['client_credentials'] },
    });
    expect(r.warnings).toContainEqual({
      location: '/securityDefinitions/bad/tokenUrl',
      message: 'Security scheme "bad": its token URL was dropped because it is not an http(s) URL or a relative reference.',
    });
  });
});

describe('Postman oauth2 auth', () => {
  const collection = (oauth2: unknown[], variable: unknown[] = []) => ({
    info: { name: 'O', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'baseUrl', value: 'https://api.o.test' }, ...variable],
    auth: { type: 'oauth2', oauth2 },
    item: [{ name: 'one', request: { method: 'GET', url: '{{baseUrl}}/things' } }],
  });

  it('reads the access token URL (variables filled) and the grant type, never the client secret', () => {
    const r = importJson(
      collection(
        [
          { key: 'accessTokenUrl', value: '{{authBase}}/oauth/token' },
          { key: 'grant_type', value: 'client_credentials' },
          { key: 'clientId', value: 'my-client' },
          { key: 'clientSecret', value: 'very-secret-client-secret' },
        ],
        [{ key: 'authBase', value: 'https://auth.o.test' }],
      ),
    );
    expect(r.security).toEqual({ schemes: { oauth2Auth: { type: 'oauth2', tokenUrl: 'https://auth.o.test/oauth/token', grants: ['client_credentials'] } }, default: [{ oauth2Auth: [] }] });
    expect(JSON.stringify(r)).not.toContain('very-secret-client-secret');
  });

  it('maps password_credentials and PKCE grants, and drops a token URL with an unknown variable', () => {
    const pw = importJson(collection([{ key: 'grant_type', value: 'password_credentials' }, { key: 'accessTokenUrl', value: '{{nowhere}}/token' }]));
    expect(pw.security.schemes.oauth2Auth).toEqual({ type: 'oauth2', grants: ['password'] });
    expect(pw.warnings).toContainEqual({ location: '/auth', message: 'The OAuth 2.0 access token URL was dropped because it uses a collection variable that has no value.' });
    const pkce = importJson(collection([{ key: 'grant_type', value: 'authorization_code_with_pkce' }]));
    expect(pkce.security.schemes.oauth2Auth).toEqual({ type: 'oauth2', grants: ['authorization_code'] });
    const bare = importJson(collection([]));
    expect(bare.security.schemes.oauth2Auth).toEqual({ type: 'oauth2' });
  });
});
