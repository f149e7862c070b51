import { describe, expect, it } from 'vitest';
import { synthesize } from './schema-values';
import { encodeBody, fillPath, hasBlankExampleFields, mutate, prepareRequest } from './requests';
import type { Endpoint } from '../../shared/contract';

describe('values from schemas', () => {
  it('prefers examples, then enums and defaults, then formats, then type defaults', () => {
    expect(synthesize({ type: 'string', example: 'doggie', enum: ['a'] })).toBe('doggie');
    expect(synthesize({ type: 'string', examples: ['first', 'second'] })).toBe('first');
    expect(synthesize({ type: 'string', enum: ['available', 'sold'] })).toBe('available');
    expect(synthesize({ type: 'integer', default: 7 })).toBe(7);
    expect(synthesize({ type: 'string', format: 'uuid' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(synthesize({ type: 'string', format: 'email' })).toBe('portcullis@example.com');
    expect(synthesize({ type: 'string', format: 'date-time' })).toBe('2026-01-01T00:00:00Z');
    expect(synthesize({ type: 'integer', minimum: 5, maximum: 9 })).toBe(5);
    expect(synthesize({ type: 'number', exclusiveMinimum: 0 })).toBe(0.5);
    expect(synthesize({ type: 'string', minLength: 12 })).toHaveLength(12);
    expect(synthesize({ type: 'string', maxLength: 3 })).toHaveLength(3);
    expect(synthesize({ type: 'boolean' })).toBe(true);
    expect(synthesize({ type: 'array', items: { type: 'integer' }, minItems: 2 })).toEqual([1, 1]);
  });

  it('builds objects from properties and allOf, leaves readOnly out of requests, stops at cycles', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } }, required: ['name'] },
        { properties: { email: { type: 'string' }, parent: { 'x-circular': '#/components/schemas/Node' } } },
      ],
    };
    expect(synthesize(schema, { forRequest: true })).toEqual({ name: 'portcullis', email: 'portcullis@example.com', parent: null });
    expect(synthesize(schema)).toMatchObject({ id: 1 });
  });

  it('makes identifying strings unique for creates', () => {
    const s = { type: 'object', properties: { username: { type: 'string' }, email: { type: 'string', format: 'email' }, note: { type: 'string' } } };
    expect(synthesize(s, { unique: 'abc1' })).toEqual({ username: 'portcullis-abc1', email: 'portcullis.abc1@example.com', note: 'portcullis' });
  });
});

describe('requests for endpoints', () => {
  const endpoint: Endpoint = {
    id: 'e1',
    method: 'POST',
    path: '/orgs/{org}/items',
    summary: '',
    flags: [],
    operation_id: null,
    tags: [],
    parameters: [
      { name: 'org', in: 'path', required: true, schema: { type: 'string', enum: ['acme'] } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', default: 10 } },
      { name: 'verbose', in: 'query', required: false, schema: { type: 'boolean' } },
      { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', example: 't-1' } },
      { name: 'X-Api-Key', in: 'header', required: true, schema: { type: 'string' } },
    ],
    request_body: { required: true, content_type: 'application/x-www-form-urlencoded', schema: { type: 'object', properties: { a: { type: 'string', example: 'x y' } } } },
    responses: {},
    security: null,
  };

  it('fills path, query, headers and body, and never fills the credential header', () => {
    const r = prepareRequest(endpoint, {
      base: (p) => new URL(`http://127.0.0.1:9/api${p}`),
      placements: [{ in: 'header', name: 'X-Api-Key', format: 'raw' }],
      pathValues: {},
    });
    expect(r.url.href).toBe('http://127.0.0.1:9/api/orgs/acme/items?limit=10');
    expect(r.headers['x-trace']).toBe('t-1');
    expect(r.headers['x-api-key']).toBeUndefined();
    expect(r.body).toBe('a=x+y');
    const changed = mutate(r, { query: { limit: '1000' }, headers: { 'x-trace': null } });
    expect(changed.url.searchParams.get('limit')).toBe('1000');
    expect(changed.headers['x-trace']).toBeUndefined();
    expect(r.url.searchParams.get('limit')).toBe('10');
  });

  it('encodes path values and JSON bodies', () => {
    expect(fillPath('/a/{id}/b', { id: 'x/y z' })).toBe('/a/x%2Fy%20z/b');
    expect(encodeBody({ a: 1 }, 'application/vnd.api+json')).toEqual({ body: '{"a":1}', contentType: 'application/vnd.api+json' });
    expect(encodeBody({ a: 1 }, 'application/xml')).toBeNull();
  });

  it('fills the empty strings of an example body, uniquely for a create, as fields without an example are', () => {
    const create: Endpoint = {
      ...endpoint,
      id: 'e2',
      path: '/users',
      parameters: [],
      request_body: {
        required: true,
        content_type: 'application/json',
        schema: { type: 'object', properties: { username: { type: 'string', example: '' }, course: { type: 'string' }, password: { type: 'string' } } },
        example: { username: '', course: '', password: '', team: 'blue', profile: { nick: '' } },
      },
    };
    const prepare = (unique?: string) =>
      prepareRequest(create, { base: (p) => new URL(`http://127.0.0.1:9${p}`), placements: [], pathValues: {}, ...(unique ? { unique } : {}) }).bodyValue as Record<string, unknown>;
    const first = prepare('u1');
    const second = prepare('u2');
    // Each blank names its field, so two blanks of one record never read back alike.
    expect(first).toMatchObject({ username: 'portcullis-username-u1', course: 'portcullis-course-u1', team: 'blue', profile: { nick: 'portcullis-nick-u1' } });
    expect(second.username).toBe('portcullis-username-u2');
    expect(first.password).not.toBe('');
    expect(prepare().username).toBe('portcullis-username');
    expect(hasBlankExampleFields(create)).toBe(true);
    expect(hasBlankExampleFields(endpoint)).toBe(false);
  });
});
