// What each reader extracts from the sample documents: base URLs, parameters, bodies, responses,
// security, default flags, and what it refuses to keep (secrets).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { importJson, openapi } from './import-helpers';
import { HAR_12, OPENAPI_31, POSTMAN_21, SWAGGER_2 } from './sample-docs';

type Ep = Omit<Endpoint, 'id'>;
const byKey = (endpoints: Ep[]) => Object.fromEntries(endpoints.map((e) => [`${e.method} ${e.path}`, e]));

describe('OpenAPI 3.1 reader', () => {
  const r = importJson(OPENAPI_31);
  const eps = byKey(r.endpoints);

  it('fills server variables into the base URL', () => {
    expect(r.base_url).toBe('https://api.shop.test/v2');
    expect(r.format).toBe('openapi-3.1');
  });

  it('reads operations, including a path item behind a $ref, but not webhooks', () => {
    expect(Object.keys(eps)).toEqual(['GET /orders', 'POST /orders', 'GET /orders/{orderId}', 'DELETE /orders/{orderId}']);
    expect(r.warnings.some((w) => w.location === '/webhooks')).toBe(true);
  });

  it('merges path-level parameters and reads content-based ones with their examples', () => {
    const list = eps['GET /orders']!;
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['header:X-Trace', 'query:limit', 'query:callback_url', 'query:filter']);
    expect(list.parameters.find((p) => p.name === 'limit')).toMatchObject({ example: 10, schema: { type: 'integer', maximum: 100 } });
    expect(list.parameters.find((p) => p.name === 'filter')).toMatchObject({ example: { status: 'open' }, schema: { type: 'object' } });
    expect(eps['GET /orders/{orderId}']!.parameters).toEqual([{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('prefers JSON bodies, inlines local refs and cuts the self-reference', () => {
    const body = eps['POST /orders']!.request_body!;
    expect(body).toMatchObject({ required: true, content_type: 'application/json', example: { id: 'x' } });
    expect(body.schema).toMatchObject({
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        total: { type: ['number', 'null'] },
        parent: { 'x-circular': '#/components/schemas/Order' },
        items: { type: 'array', prefixItems: [{ type: 'string' }], items: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'integer' } }] } },
      },
      allOf: [{ type: 'object', properties: { created: { type: 'string', format: 'date-time' } } }],
    });
  });

  it('reads responses by status, with referenced responses and +json media types', () => {
    const list = eps['GET /orders']!;
    expect(list.responses.default).toEqual({ description: 'error', content_type: 'application/problem+json', schema: { type: 'object', properties: { title: { type: 'string' } } } });
    expect(list.responses['200']!.schema).toMatchObject({ type: 'array', items: { type: 'object' } });
  });

  it('keeps usable security schemes, the default requirement and per-operation overrides', () => {
    expect(r.security.schemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Key' },
      oauth: { type: 'oauth2' },
    });
    expect(r.warnings).toContainEqual({ location: '/components/securitySchemes/mtls', message: 'Security scheme "mtls" was skipped: type "mutualTLS" cannot be used by the scanner.' });
    expect(r.security.default).toEqual([{ bearer: [] }]);
    expect(eps['POST /orders']!.security).toEqual([]);
    expect(eps['GET /orders']!.security).toBeNull();
    expect(eps['DELETE /orders/{orderId}']!.security).toEqual([{ apiKey: [] }]);
  });

  it('derives default flags from the shape of each endpoint', () => {
    expect(eps['GET /orders']!.flags.sort()).toEqual(['BKEN_AUTH', 'BOPLA', 'IIM', 'SEC_MISC', 'SSRF', 'UCAPI', 'URC'].sort());
    // security: [] makes it anonymous; it still takes a body and creates an order.
    expect(eps['POST /orders']!.flags.sort()).toEqual(['BOPLA', 'IIM', 'SEC_MISC', 'UABF'].sort());
    expect(eps['DELETE /orders/{orderId}']!.flags.sort()).toEqual(['BFLA', 'BKEN_AUTH', 'BOLA', 'IIM', 'SEC_MISC'].sort());
  });

  it('keeps a relative or missing server URL, with a warning to edit it', () => {
    const relative = importJson({ ...openapi({ '/a': { get: { responses: {} } } }), servers: [{ url: '/api/v1/' }] });
    expect(relative.base_url).toBe('/api/v1');
    expect(relative.warnings).toContainEqual({ location: '/servers/0/url', message: 'The base URL "/api/v1" is not an absolute http(s) URL; set the base URL (Edit API) before scanning.' });
    const none = importJson({ ...openapi({ '/a': { get: { responses: {} } } }), servers: undefined });
    expect(none.base_url).toBe('');
    expect(none.warnings[0]!.message).toBe('The file gives no server URL; set the base URL (Edit API) before scanning.');
    const unfilled = importJson({ ...openapi({}), servers: [{ url: 'https://{tenant}.example.test' }] });
    expect(unfilled.base_url).toBe('https://{tenant}.example.test');
    expect(unfilled.warnings[0]!.message).toBe('Server variable {tenant} has no default value; it was left in the base URL.');
  });

  it('adds undeclared path parameters and warns', () => {
    const x = importJson(openapi({ '/things/{thingId}/parts/{part}': { get: { parameters: [{ name: 'part', in: 'path', schema: { type: 'integer' } }], responses: {} } } }));
    expect(x.endpoints[0]!.parameters.map((p) => p.name)).toEqual(['part', 'thingId']);
    expect(x.warnings[0]!.message).toBe('Path parameter {thingId} is not declared; it was added as a string.');
  });
});

describe('Swagger 2.0 reader', () => {
  const r = importJson(SWAGGER_2);
  const eps = byKey(r.endpoints);

  it('prefers https among the schemes and keeps the port and basePath', () => {
    expect(r.base_url).toBe('https://files.test:8443/api');
  });

  it('turns formData parameters into a multipart body and a body parameter into a JSON body', () => {
    expect(eps['POST /files']!.request_body).toEqual({
      required: true,
      content_type: 'multipart/form-data',
      schema: { type: 'object', properties: { upload: { type: 'string', format: 'binary' }, note: { type: 'string' } }, required: ['upload'] },
    });
    expect(eps['POST /files']!.flags).toContain('URC');
    const put = eps['PUT /files/{id}']!;
    expect(put.request_body).toMatchObject({ required: true, content_type: 'application/json', schema: { type: 'object' } });
    expect(put.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }]);
  });

  it('reads global parameters, responses and security definitions', () => {
    expect(eps['GET /files']!.parameters).toEqual([{ name: 'page', in: 'query', required: false, schema: { type: 'integer', default: 1 } }]);
    expect(eps['PUT /files/{id}']!.responses['404']).toEqual({ description: 'missing', content_type: 'application/json', schema: { type: 'object', properties: { message: { type: 'string' } } } });
    expect(r.security).toEqual({ schemes: { basic: { type: 'http', scheme: 'basic' }, key: { type: 'apiKey', in: 'query', name: 'key' } }, default: [{ basic: [] }] });
  });

  it('cuts mutual recursion between definitions', () => {
    const file = eps['PUT /files/{id}']!.request_body!.schema!;
    expect(JSON.stringify(file)).toContain('"x-circular":"#/definitions/File"');
  });
});

describe('Postman reader', () => {
  const r = importJson(POSTMAN_21);
  const eps = byKey(r.endpoints);

  it('takes the base URL from the baseUrl variable and makes paths relative to it', () => {
    expect(r.base_url).toBe('https://blog.test/api');
    expect(Object.keys(eps)).toEqual(['GET /posts', 'POST /posts/{postId}/comments', 'PUT /admin/files/{fileId}', 'DELETE /admin/cache', 'POST /login']);
  });

  it('skips a request to another host, naming it', () => {
    expect(r.warnings).toContainEqual({
      location: '/item/2',
      message: 'Skipped "Elsewhere": it targets https://other.test, not the API\'s base URL https://blog.test/api.',
    });
  });

  it('keeps {{variables}} in paths as parameters, even when the collection gives them a value', () => {
    const r = importJson({
      info: { name: 'v', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [
        { key: 'host', value: 'https://api.v.test/v2/' },
        { key: 'postId', value: '7' },
      ],
      item: [{ name: 'one', request: { method: 'GET', url: '{{host}}/posts/{{postId}}?full=1' } }],
    });
    expect(r.base_url).toBe('https://api.v.test/v2');
    expect(r.endpoints[0]).toMatchObject({ path: '/posts/{postId}', parameters: [{ name: 'postId', in: 'path', example: '7' }, { name: 'full', in: 'query', example: '1' }] });
  });

  it('uses folders as tags and items as summaries', () => {
    expect(eps['PUT /admin/files/{fileId}']).toMatchObject({ summary: 'Upload', tags: ['Posts', 'Admin'] });
  });

  it('reads queries, headers, path variables and bodies', () => {
    expect(eps['GET /posts']!.parameters).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'string' }, example: '1' },
      { name: 'search', in: 'query', required: false, schema: { type: 'string' }, example: 'x' },
    ]);
    expect(eps['GET /posts']!.responses['200']).toEqual({
      description: 'OK',
      content_type: 'application/json',
      schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } },
    });
    const comment = eps['POST /posts/{postId}/comments']!;
    expect(comment.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:postId', 'header:X-Request-Id']);
    expect(comment.request_body).toMatchObject({ content_type: 'application/json', example: { text: 'hi', password: '[redacted]' } });
    expect(comment.flags).toContain('SSRF');
    expect(eps['PUT /admin/files/{fileId}']!.request_body).toMatchObject({
      content_type: 'multipart/form-data',
      schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string' } } },
    });
    expect(eps['POST /login']!.request_body).toMatchObject({ content_type: 'application/x-www-form-urlencoded', example: { user: 'u', password: '[redacted]' } });
  });

  it('inherits auth through folders: collection bearer, a noauth folder, a request api key', () => {
    expect(r.security.default).toEqual([{ bearerAuth: [] }]);
    expect(eps['GET /posts']!.security).toBeNull();
    expect(eps['DELETE /admin/cache']!.security).toEqual([]);
    expect(eps['PUT /admin/files/{fileId}']!.security).toEqual([{ 'apiKey:header:X-Admin-Key': [] }]);
    expect(r.security.schemes['apiKey:header:X-Admin-Key']).toEqual({ type: 'apiKey', in: 'header', name: 'X-Admin-Key' });
    expect(eps['POST /login']!.flags).toContain('BKEN_AUTH');
  });

  it('never stores token, password or key values', () => {
    const stored = JSON.stringify(r);
    for (const secret of ['secret-token-value', 'real-secret', 'hunter2', 'k-123']) expect(stored).not.toContain(secret);
  });
});

describe('HAR reader', () => {
  const r = importJson(HAR_12);
  const eps = byKey(r.endpoints);

  it('keeps API calls to the main origin and groups them by templated path', () => {
    expect(r.format).toBe('har-1.2');
    expect(r.name).toBe('Shop admin');
    expect(r.base_url).toBe('https://shop.test');
    expect(Object.keys(eps)).toEqual(['GET /api/users/{userId}/orders', 'POST /api/users/{userId}/orders', 'DELETE /api/orders/{orderId}']);
    expect(eps['GET /api/users/{userId}/orders']!.summary).toBe('GET /api/users/{userId}/orders (seen 2 times)');
    expect(r.warnings.map((w) => w.message)).toEqual([
      '2 requests for pages, static files and CORS preflights were left out.',
      '1 requests to other hosts were left out (https://cdn.analytics.test); the API is https://shop.test.',
      "Credentials inferred: 1 of 4 requests sends a credential in the Authorization header (Bearer <secret>); the scanner will place the scan's credential there.",
      "Credentials inferred: 1 of 4 requests sends a credential in the X-API-Key header (<secret>); the scanner will place the scan's credential there.",
    ]);
  });

  it('refuses a recording without API calls', () => {
    const pagesOnly = { log: { version: '1.2', entries: [HAR_12.log.entries[3], HAR_12.log.entries[4]] } };
    expect(() => importJson(pagesOnly)).toThrow(/^The recording holds no API calls to import: .* \(at \/log\/entries\)\.$/);
    expect(() => importJson({ log: { version: '1.2', entries: [] } })).toThrow(/no API calls/);
  });

  it('reads parameters with the values seen, and never keeps secrets', () => {
    const list = eps['GET /api/users/{userId}/orders']!;
    expect(list.parameters).toEqual([
      { name: 'userId', in: 'path', required: true, schema: { type: 'integer' }, example: 42 },
      { name: 'limit', in: 'query', required: true, schema: { type: 'integer' }, example: 5 },
      { name: 'session_token', in: 'query', required: false, schema: { type: 'string' }, example: '[redacted]' },
    ]);
    expect(list.security).toEqual([{ bearerAuth: [] }]);
    expect(list.responses['200']!.schema).toEqual({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, total: { type: 'number' } } } });
    expect(list.flags).toEqual(expect.arrayContaining(['BOLA', 'BKEN_AUTH', 'URC']));
    const create = eps['POST /api/users/{userId}/orders']!;
    expect(create.request_body).toMatchObject({ content_type: 'application/json', example: { item: 'a', password: '[redacted]' } });
    expect(create.security).toEqual([{ xApiKey: [] }]);
    expect(r.security).toEqual({
      schemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      default: [],
    });
    expect(create.flags).toEqual(expect.arrayContaining(['SSRF', 'UABF', 'UCAPI']));
    expect(eps['DELETE /api/orders/{orderId}']!.parameters[0]).toMatchObject({ name: 'orderId', example: '5f2b7c9e8d1a4b3c2d1e0f9a' });
    const stored = JSON.stringify(r);
    for (const secret of ['real-token', '"abc"', '"p"']) expect(stored).not.toContain(secret);
  });
});

describe('Postman reader: a host variable with no value', () => {
  const r = importJson(JSON.parse(readFileSync(new URL('../fixtures/postman/host-variable.postman_collection.json', import.meta.url), 'utf8')) as Record<string, unknown>);

  it('reads requests written with and without a scheme before the variable as requests to the same API', () => {
    expect(r.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /svc/accounts', 'GET /svc/accounts/{accountId}', 'POST /svc/notes', 'GET /svc/fetch']);
    expect(r.warnings).toContainEqual({ location: '/variable', message: 'The collection variable {{host}} has no value; set the base URL (Edit API) before scanning.' });
    expect(r.warnings.map((w) => w.message).filter((m) => m.startsWith('Skipped'))).toEqual([
      'Skipped "Elsewhere": it targets https://other.test, not the API\'s base URL {{host}}.',
    ]);
  });
});
