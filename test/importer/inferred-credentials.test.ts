// Credentials inferred from what Postman requests and recorded HAR traffic send by themselves: the
// scheme named after its place, applied to the requests (and the API default when most share it),
// announced in one warning, and never the value itself.

import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { importApiDocument } from '../../electron/importer/index';
import { readFixture } from './fixture-files';
import { importJson } from './import-helpers';

type Ep = Omit<Endpoint, 'id'>;
const byKey = (endpoints: Ep[]) => Object.fromEntries(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
const inferredWarnings = (r: { warnings: { message: string }[] }) => r.warnings.filter((w) => w.message.startsWith('Credentials inferred'));

const JWT = 'eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAiNDIiLCAibmFtZSI6ICJBZGEifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

function postman(items: unknown[], extra: Record<string, unknown> = {}) {
  return {
    info: { name: 'P', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [
      { key: 'baseUrl', value: 'https://api.p.test' },
      { key: 'token', value: 'collection-token-value-123' },
    ],
    item: items,
    ...extra,
  };
}

const request = (name: string, method: string, url: string, header: unknown[] = []) => ({ name, request: { method, url: `{{baseUrl}}${url}`, header } });

describe('Postman: credentials a request sends in its own header, query or cookie', () => {
  const tokenHeader = { key: 'X-Api-Token', value: '{{token}}' };
  const r = importJson(
    postman([
      request('List', 'GET', '/things', [tokenHeader, { key: 'Accept', value: 'application/json' }]),
      request('Create', 'POST', '/things', [tokenHeader, { key: 'Content-Type', value: 'application/json' }, { key: 'X-Trace', value: 't-1' }]),
      request('One', 'GET', '/things/{{thingId}}', [tokenHeader]),
      request('Health', 'GET', '/health'),
    ]),
  );
  const eps = byKey(r.endpoints);

  it('infers an apiKey header scheme named after the header, for those requests and as the default', () => {
    expect(r.security).toEqual({ schemes: { xApiToken: { type: 'apiKey', in: 'header', name: 'X-Api-Token' } }, default: [{ xApiToken: [] }] });
    for (const key of ['GET /things', 'POST /things', 'GET /things/{thingId}']) expect(eps[key]!.security).toEqual([{ xApiToken: [] }]);
    // Postman sends it without credentials; with no auth declared anywhere, the default applies.
    expect(eps['GET /health']!.security).toBeNull();
  });

  it('says so in one warning', () => {
    expect(inferredWarnings(r)).toEqual([
      {
        location: '/item/0/request',
        message: "Credentials inferred: 3 of 4 requests send a credential in the X-Api-Token header ({{token}}); the scanner will place the scan's credential there.",
      },
    ]);
  });

  it('keeps the header out of the parameters, and neither the variable nor its value anywhere', () => {
    expect(eps['POST /things']!.parameters).toEqual([{ name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' }, example: 't-1' }]);
    expect(eps['GET /things/{thingId}']!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:thingId']);
    expect(JSON.stringify(r.endpoints)).not.toContain('{{token}}');
    expect(JSON.stringify(r)).not.toContain('collection-token-value-123');
  });

  it('writes a fixed word before the credential as a template', () => {
    const t = importJson(postman([request('a', 'GET', '/a', [{ key: 'Authorization', value: 'Token {{token}}' }])]));
    expect(t.security).toEqual({ schemes: { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', template: 'Token {token}' } }, default: [{ tokenAuth: [] }] });
    expect(t.endpoints[0]!.security).toEqual([{ tokenAuth: [] }]);
    expect(inferredWarnings(t)[0]!.message).toBe(
      "Credentials inferred: 1 of 1 request sends a credential in the Authorization header (Token {{token}}); the scanner will place the scan's credential there.",
    );
  });

  it('reads Authorization: Bearer {{jwt}} as a bearer scheme', () => {
    const b = importJson(postman([request('a', 'GET', '/a', [{ key: 'Authorization', value: 'Bearer {{jwt}}' }])]));
    expect(b.security).toEqual({ schemes: { bearerAuth: { type: 'http', scheme: 'bearer' } }, default: [{ bearerAuth: [] }] });
  });

  it('infers a query parameter and a cookie, in that order of preference after headers', () => {
    const q = importJson(
      postman([
        { name: 'q', request: { method: 'GET', url: { raw: '{{baseUrl}}/search?api_key={{key}}&q=x', query: [{ key: 'api_key', value: '{{key}}' }, { key: 'q', value: 'x' }] } } },
        request('c', 'GET', '/me', [{ key: 'Cookie', value: 'theme=dark; session={{sid}}' }]),
      ]),
    );
    expect(q.security.schemes).toEqual({
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
    });
    const eps = byKey(q.endpoints);
    expect(eps['GET /search']!.security).toEqual([{ apiKeyQuery: [] }]);
    expect(eps['GET /search']!.parameters).toEqual([{ name: 'q', in: 'query', required: false, schema: { type: 'string' }, example: 'x' }]);
    expect(eps['GET /me']!.security).toEqual([{ sessionCookie: [] }]);
    // One of two each: no default.
    expect(q.security.default).toEqual([]);
    expect(inferredWarnings(q).map((w) => w.message)).toEqual([
      "Credentials inferred: 1 of 2 requests sends a credential in the api_key query parameter ({{key}}); the scanner will place the scan's credential there.",
      "Credentials inferred: 1 of 2 requests sends a credential in the session cookie ({{sid}}); the scanner will place the scan's credential there.",
    ]);
  });

  it('offers every credential a request sends as alternatives, Authorization first', () => {
    const m = importJson(postman([request('a', 'GET', '/a', [{ key: 'Cookie', value: 'sid={{sid}}' }, tokenHeader, { key: 'Authorization', value: 'Bearer {{jwt}}' }])]));
    expect(m.endpoints[0]!.security).toEqual([{ bearerAuth: [] }, { xApiToken: [] }, { sidCookie: [] }]);
    expect(m.security.default).toEqual([{ bearerAuth: [] }]);
  });

  it('infers nothing from ids, pagination, content negotiation, generated values or anti-CSRF tokens', () => {
    const n = importJson(
      postman([
        {
          name: 'n',
          request: {
            method: 'GET',
            url: { raw: '{{baseUrl}}/users/{{userId}}?page={{page}}&pagination_token={{next}}', query: [{ key: 'page', value: '{{page}}' }, { key: 'pagination_token', value: '{{next}}' }] },
            header: [
              { key: 'Content-Type', value: 'application/json' },
              { key: 'Accept', value: '{{accept}}' },
              { key: 'User-Agent', value: 'PostmanRuntime/7.36.0' },
              { key: 'X-Request-Id', value: '{{$guid}}' },
              { key: 'Idempotency-Key', value: '{{$randomUUID}}' },
              { key: 'X-CSRF-Token', value: '{{csrfToken}}' },
              { key: 'X-Tenant', value: '{{tenant}}' },
              { key: 'X-Api-Key', value: '{{apiKey}}', disabled: true },
            ],
          },
        },
      ]),
    );
    expect(n.security).toEqual({ schemes: {}, default: [] });
    expect(n.endpoints[0]!.security).toBeNull();
    expect(inferredWarnings(n)).toEqual([]);
  });

  it('infers nothing where auth is declared: the collection, a folder, or an explicit noauth', () => {
    const header = [{ key: 'X-Api-Token', value: '{{token}}' }];
    const withBearer = importJson(postman([request('a', 'GET', '/a', header)], { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] } }));
    expect(withBearer.security).toEqual({ schemes: { bearerAuth: { type: 'http', scheme: 'bearer' } }, default: [{ bearerAuth: [] }] });
    expect(withBearer.endpoints[0]!.parameters.map((p) => p.name)).toEqual(['X-Api-Token']);
    expect(withBearer.endpoints[0]!.parameters[0]!.example).toBeUndefined();
    const noauth = importJson(postman([{ name: 'f', auth: { type: 'noauth' }, item: [request('a', 'GET', '/a', header)] }]));
    expect(noauth.security).toEqual({ schemes: {}, default: [] });
    expect(noauth.endpoints[0]!.security).toEqual([]);
    const inherit = importJson(postman([{ name: 'a', request: { method: 'GET', url: '{{baseUrl}}/a', header, auth: { type: 'inherit' } } }]));
    expect(inherit.endpoints[0]!.security).toEqual([{ xApiToken: [] }]);
  });

  it('reads a request given as a bare URL string', () => {
    const s = importJson(postman([{ name: 's', request: '{{baseUrl}}/s?apikey={{apiKey}}' }]));
    expect(s.security.schemes).toEqual({ apikeyQuery: { type: 'apiKey', in: 'query', name: 'apikey' } });
    expect(s.endpoints[0]!).toMatchObject({ parameters: [], security: [{ apikeyQuery: [] }] });
  });

  it('infers a pasted literal credential but stores neither it nor a look-alike', () => {
    const literal = 'a8Kd93mQz0Lp4Rt7Wv2Xy6Bn1Cs5Df8G';
    const l = importJson(
      postman([
        request('a', 'GET', '/a', [
          { key: 'X-Auth', value: literal },
          { key: 'X-Id-Token', value: JWT, disabled: true },
        ]),
      ]),
    );
    expect(l.security.schemes).toEqual({ xAuth: { type: 'apiKey', in: 'header', name: 'X-Auth' } });
    expect(inferredWarnings(l)[0]!.message).toBe(
      "Credentials inferred: 1 of 1 request sends a credential in the X-Auth header (<secret>); the scanner will place the scan's credential there.",
    );
    const stored = JSON.stringify(l);
    expect(stored).not.toContain(literal);
    expect(stored).not.toContain(JWT);
  });

  it('leaves the shared Postman fixtures as they were', () => {
    const twitter = importApiDocument(readFixture('twitter-api-v2.postman_collection.json'));
    expect(twitter.security).toEqual({ schemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, oauth1Auth: { type: 'http', scheme: 'oauth' } }, default: [{ bearerAuth: [] }] });
    expect(inferredWarnings(twitter)).toEqual([]);
    const echo = importApiDocument(readFixture('newman-echo-v2.0.postman_collection.json'));
    // Only the request that pastes a bearer token without declaring auth.
    expect(inferredWarnings(echo)).toEqual([
      {
        location: '/item/6/item/1/request',
        message: "Credentials inferred: 1 of 22 requests sends a credential in the Authorization header (Bearer <secret>); the scanner will place the scan's credential there.",
      },
    ]);
    expect(echo.endpoints.find((e) => e.summary === 'OAuth2.0 Get Resource')!.security).toEqual([{ bearerAuth: [] }]);
    expect(echo.security.default).toEqual([]);
    expect(JSON.stringify(echo)).not.toContain('vp7jxTwqgczoFHs0uIdOvv4VdBWmvCkbVbNBCuaTQ3JZplPS40BaNV47HD1zt7MztQPILJvqYsOs6PfJpFYBgwbaE3CVEKOj');
  });
});

describe('HAR: credentials in recorded headers, query strings and cookies', () => {
  const API_KEY = 'k_live_9f8e7d6c5b4a3f2e1d0c9b8a';
  const SESSION = 's%3AJ8x2LmQ9vT4rW7yZ1bN5cK3.abcDEF123ghiJKL456';
  const SID = '4f1c2a9e7b3d8f6a0c5e2b9d7a1f3c8e';
  const ACCESS = 'Zq7Xw3Vr9Ts5Pn1Lm8Kj4Hg6Fd2Sa0Qw';
  const entry = (method: string, url: string, headers: unknown[], cookies: unknown[] = []) => ({
    _resourceType: 'xhr',
    request: { method, url, headers, cookies, queryString: [] },
    response: { status: 200, content: { mimeType: 'application/json', text: '{"ok": true}' } },
  });
  const har = {
    log: {
      version: '1.2',
      creator: { name: 't', version: '1' },
      entries: [
        entry(
          'GET',
          'https://shop.test/api/orders?limit=5',
          [
            { name: 'Authorization', value: `Bearer ${JWT}` },
            { name: 'Accept', value: 'application/json' },
            { name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' },
            { name: 'Cookie', value: `_ga=GA1.2.1234567890.1700000000; connect.sid=${SESSION}` },
          ],
          [
            { name: '_ga', value: 'GA1.2.1234567890.1700000000' },
            { name: 'connect.sid', value: SESSION },
          ],
        ),
        entry('GET', 'https://shop.test/api/orders?limit=9', [{ name: 'X-API-Key', value: API_KEY }]),
        entry('GET', 'https://shop.test/api/profile', [{ name: 'Authorization', value: `Bearer ${JWT}` }]),
        entry('POST', 'https://shop.test/api/cart', [{ name: 'Cookie', value: `theme=dark; PHPSESSID=${SID}` }]),
        entry('GET', `https://shop.test/api/search?q=shoes&access_token=${ACCESS}&t=${JWT}`, []),
        entry('GET', `https://shop.test/api/verify/${JWT}`, []),
      ],
    },
  };
  const r = importJson(har);
  const eps = byKey(r.endpoints);

  it('infers the JWT bearer, the API key header, session cookies and credential query parameters', () => {
    expect(r.security.schemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      connectSidCookie: { type: 'apiKey', in: 'cookie', name: 'connect.sid' },
      xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      phpsessidCookie: { type: 'apiKey', in: 'cookie', name: 'PHPSESSID' },
      accessTokenQuery: { type: 'apiKey', in: 'query', name: 'access_token' },
      tQuery: { type: 'apiKey', in: 'query', name: 't' },
    });
    expect(eps['GET /api/orders']!.security).toEqual([{ bearerAuth: [] }, { connectSidCookie: [] }, { xApiKey: [] }]);
    expect(eps['GET /api/profile']!.security).toEqual([{ bearerAuth: [] }]);
    expect(eps['POST /api/cart']!.security).toEqual([{ phpsessidCookie: [] }]);
    expect(eps['GET /api/search']!.security).toEqual([{ accessTokenQuery: [] }, { tQuery: [] }]);
    expect(eps['GET /api/verify/{verifyId}']!.security).toEqual([]);
    // Two of six requests: not most of them.
    expect(r.security.default).toEqual([]);
  });

  it('warns once per inferred scheme without showing the value', () => {
    expect(inferredWarnings(r)).toContainEqual({
      location: '/log/entries/0/request',
      message: "Credentials inferred: 2 of 6 requests send a credential in the Authorization header (Bearer <JWT>); the scanner will place the scan's credential there.",
    });
    expect(inferredWarnings(r)).toContainEqual({
      location: '/log/entries/3/request',
      message: "Credentials inferred: 1 of 6 requests sends a credential in the PHPSESSID cookie (<secret>); the scanner will place the scan's credential there.",
    });
    expect(inferredWarnings(r)).toHaveLength(6);
  });

  it('keeps credential query parameters out of the parameters and no credential value anywhere', () => {
    expect(eps['GET /api/search']!.parameters).toEqual([{ name: 'q', in: 'query', required: true, schema: { type: 'string' }, example: 'shoes' }]);
    expect(eps['GET /api/verify/{verifyId}']!.parameters).toEqual([{ name: 'verifyId', in: 'path', required: true, schema: { type: 'string' } }]);
    const stored = JSON.stringify(r);
    for (const secret of [JWT, API_KEY, SESSION, SID, ACCESS, 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c']) expect(stored).not.toContain(secret);
  });

  it('makes the scheme most requests send the default', () => {
    const most = importJson({ log: { ...har.log, entries: [har.log.entries[0], har.log.entries[2], har.log.entries[3]] } });
    expect(most.security.default).toEqual([{ bearerAuth: [] }]);
  });

  it('infers a bounded number of schemes', () => {
    const headers = Array.from({ length: 25 }, (_, i) => ({ name: `X-H${i}`, value: JWT }));
    const many = importJson({ log: { version: '1.2', entries: [entry('GET', 'https://shop.test/api/x', headers)] } });
    expect(Object.keys(many.security.schemes)).toHaveLength(20);
    expect(many.endpoints[0]!.security).toHaveLength(5);
    expect(many.warnings).toContainEqual({ location: '', message: '5 more credential placements were not inferred: an import infers at most 20 schemes.' });
  });

  it('redacts credential-looking values of ordinary query parameters and bodies', () => {
    const post = importJson({
      log: {
        version: '1.2',
        entries: [{ ...entry('POST', 'https://shop.test/api/y', []), request: { method: 'POST', url: 'https://shop.test/api/y', headers: [], postData: { mimeType: 'application/json', text: JSON.stringify({ assertion: JWT, n: 1 }) } } }],
      },
    });
    expect(post.endpoints[0]!.request_body!.example).toEqual({ assertion: '[redacted]', n: 1 });

    const q = importJson({ log: { version: '1.2', entries: [entry('GET', `https://shop.test/api/x?state=${JWT}&key_hint=abc`, [])] } });
    expect(q.security.schemes).toEqual({});
    expect(q.endpoints[0]!.parameters).toEqual([
      { name: 'state', in: 'query', required: true, schema: { type: 'string' }, example: '[redacted]' },
      { name: 'key_hint', in: 'query', required: true, schema: { type: 'string' }, example: 'abc' },
    ]);
  });
});
