import { describe, expect, it } from 'vitest';
import { camelName, inferCredential, isCredentialName, isSessionCookieName, looksLikeSecret, looksRandom, type CredentialPlace } from './infer-credentials';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RANDOM = 'a8Kd93mQz0Lp4Rt7Wv2Xy6Bn1Cs5Df8G';

describe('inferring a credential from one header, query parameter or cookie', () => {
  it.each<[CredentialPlace, string, string, string, unknown]>([
    ['header', 'X-Api-Token', '{{token}}', 'xApiToken', { type: 'apiKey', in: 'header', name: 'X-Api-Token' }],
    ['header', 'X-Custom', '{{apiKey}}', 'xCustom', { type: 'apiKey', in: 'header', name: 'X-Custom' }],
    ['header', 'X-Auth', 'Key {{secret}}', 'xAuth', { type: 'apiKey', in: 'header', name: 'X-Auth', template: 'Key {token}' }],
    ['header', 'Authorization', 'Token {{token}}', 'tokenAuth', { type: 'apiKey', in: 'header', name: 'Authorization', template: 'Token {token}' }],
    ['header', 'Authorization', 'Bearer {{jwt}}', 'bearerAuth', { type: 'http', scheme: 'bearer' }],
    ['header', 'Authorization', 'Basic {{user}}:{{pass}}', 'basicAuth', { type: 'http', scheme: 'basic' }],
    ['header', 'Authorization', '{{accessToken}}', 'authorization', { type: 'apiKey', in: 'header', name: 'Authorization' }],
    ['header', 'Authorization', `Bearer ${JWT}`, 'bearerAuth', { type: 'http', scheme: 'bearer' }],
    ['header', 'Authorization', 'Digest username="u", realm="r", response="abc"', 'digestAuth', { type: 'http', scheme: 'digest' }],
    ['header', 'Authorization', `SSWS ${RANDOM}`, 'sswsAuth', { type: 'apiKey', in: 'header', name: 'Authorization', template: 'SSWS {token}' }],
    ['header', 'X-API-Key', 'k', 'xApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' }],
    ['header', 'Ocp-Apim-Subscription-Key', RANDOM, 'ocpApimSubscriptionKey', { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' }],
    ['header', 'X-Whatever', JWT, 'xWhatever', { type: 'apiKey', in: 'header', name: 'X-Whatever' }],
    ['query', 'api_key', '{{key}}', 'apiKeyQuery', { type: 'apiKey', in: 'query', name: 'api_key' }],
    ['query', 'access_token', RANDOM, 'accessTokenQuery', { type: 'apiKey', in: 'query', name: 'access_token' }],
    ['cookie', 'session', '{{sid}}', 'sessionCookie', { type: 'apiKey', in: 'cookie', name: 'session' }],
    ['cookie', 'JSESSIONID', '8F3A2B1C9D0E7F6A', 'jsessionidCookie', { type: 'apiKey', in: 'cookie', name: 'JSESSIONID' }],
    ['cookie', 'laravel_session', 'eyJpdiI6IjEyMyJ9', 'laravelSessionCookie', { type: 'apiKey', in: 'cookie', name: 'laravel_session' }],
    ['cookie', 'auth_token', RANDOM, 'authTokenCookie', { type: 'apiKey', in: 'cookie', name: 'auth_token' }],
  ])('%s %s: %s -> %s', (place, field, value, suggested, scheme) => {
    expect(inferCredential(place, field, value)).toMatchObject({ suggested, scheme, place, field });
  });

  it.each<[CredentialPlace, string, string]>([
    ['header', 'Content-Type', 'application/json'],
    ['header', 'Accept', '{{accept}}'],
    ['header', 'User-Agent', 'PostmanRuntime/7.36.0'],
    ['header', 'X-Request-Id', '{{requestId}}'],
    ['header', 'X-Token', '{{$guid}}'],
    ['header', 'X-Token', '{{a}}{{b}}'],
    ['header', 'X-CSRF-Token', '{{csrf}}'],
    ['header', 'Idempotency-Key', RANDOM],
    ['header', 'X-Session-Token', 'short'],
    ['header', 'X-Session-Token', 'a-value-with-only-lowercase'],
    ['header', 'X-Key', `${RANDOM}{{token}}`],
    ['header', 'Proxy-Authorization', 'Basic {{proxy}}'],
    ['header', 'Cookie', 'session={{sid}}'],
    ['header', 'Authorization', 'Bearer {{$randomUUID}}'],
    ['header', 'Authorization', 'short'],
    ['query', 'page', '{{page}}'],
    ['query', 'userId', '{{userId}}'],
    ['query', 'pagination_token', '{{next}}'],
    ['query', 'next_page_token', RANDOM],
    ['query', 'state', JWT],
    ['query', 'q', 'shoes'],
    ['query', 'key', '{{cacheKey}}'],
    ['cookie', 'theme', '{{theme}}'],
    ['cookie', '_ga', 'GA1.2.1234567890.1700000000'],
    ['cookie', 'session', 'x'],
    ['cookie', 'csrftoken', RANDOM],
    ['cookie', 'assessment', RANDOM],
  ])('%s %s: %s is not a credential', (place, field, value) => {
    expect(inferCredential(place, field, value)).toBeNull();
  });

  it('shows variables but never a literal value', () => {
    expect(inferCredential('header', 'Authorization', 'Token {{token}}')!.shown).toBe('Token {{token}}');
    expect(inferCredential('header', 'Authorization', `Bearer ${JWT}`)!.shown).toBe('Bearer <JWT>');
    expect(inferCredential('header', 'X-Auth', RANDOM)!.shown).toBe('<secret>');
  });
});

describe('credential names and values', () => {
  it('splits names into readable scheme names', () => {
    expect(camelName('X-API-Key')).toBe('xApiKey');
    expect(camelName('connect.sid')).toBe('connectSid');
    expect(camelName('accessToken')).toBe('accessToken');
    expect(camelName('__proto__')).toBe('proto');
  });

  it('knows credential and session names', () => {
    for (const n of ['token', 'api_key', 'apiKey', 'X-Auth', 'x-apikey', 'accessToken', 'client_secret', 'jwt', 'sid']) expect(isCredentialName(n), n).toBe(true);
    for (const n of ['keyword', 'author', 'userId', 'page', 'X-CSRF-Token', 'next_token', 'sort_key']) expect(isCredentialName(n), n).toBe(false);
    for (const n of ['session', 'sid', 'connect.sid', 'JSESSIONID', 'PHPSESSID', 'laravel_session', 'ASP.NET_SessionId']) expect(isSessionCookieName(n), n).toBe(true);
    for (const n of ['assessment', 'possession', 'theme', 'said']) expect(isSessionCookieName(n), n).toBe(false);
  });

  it('tells random-looking values and secrets from ordinary ones', () => {
    expect(looksRandom(RANDOM)).toBe(true);
    expect(looksRandom('3fa85f64-5717-4562-b3fc-2c963f66afa6')).toBe(true);
    for (const v of ['2024-01-01T00:00:00Z', 'https://example.test/a1B2c3', 'application-json-value', 'aaaaaaaaaaaaaaaa1', 'short1A']) expect(looksRandom(v), v).toBe(false);
    expect(looksLikeSecret('anything', JWT)).toBe(true);
    expect(looksLikeSecret('key', RANDOM)).toBe(true);
    expect(looksLikeSecret('orderId', RANDOM)).toBe(false);
    expect(looksLikeSecret('key', 'abc')).toBe(false);
  });
});
