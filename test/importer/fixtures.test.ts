import { describe, expect, it } from 'vitest';
import { importApiDocument } from '../../electron/importer/index';
import { FIXTURES, listedFixtureFiles, readFixture } from './fixture-files';

describe('shared fixture specs', () => {
  it('has a count for every fixture file in the directory', () => {
    const known = new Set(FIXTURES.map((f) => f.file));
    for (const file of listedFixtureFiles()) expect(known, file).toContain(file);
  });

  it.each(FIXTURES)('$file imports with $operations endpoints as $format', ({ file, format, operations }) => {
    const result = importApiDocument(readFixture(file), { filename: file.split('/').pop() });
    expect(result.format).toBe(format);
    expect(result.endpoints).toHaveLength(operations);
    for (const e of result.endpoints) {
      expect(e.path.startsWith('/')).toBe(true);
      expect(e.flags).toContain('SEC_MISC');
      expect(e.flags).toContain('IIM');
      expect(e.flags).not.toContain('SKIP');
    }
    // What is stored must serialise: no cycles, no undefined-only values.
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('reads name, base URL and operations of the OpenAPI 3.0 petstore', () => {
    const r = importApiDocument(readFixture('oai-petstore-3.0.yaml'));
    expect(r.name).toBe('Swagger Petstore');
    expect(r.base_url).toBe('http://petstore.swagger.io/v1');
    expect(r.spec_version).toBe('3.0.0');
    const byKey = Object.fromEntries(r.endpoints.map((e) => [`${e.method} ${e.path}`, e]));
    expect(Object.keys(byKey).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets']);
    const list = byKey['GET /pets']!;
    expect(list.summary).toBe('List all pets');
    expect(list.operation_id).toBe('listPets');
    expect(list.tags).toEqual(['pets']);
    expect(list.parameters).toEqual([
      expect.objectContaining({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer' }) }),
    ]);
    // $ref to #/components/schemas/Pets is inlined.
    expect(list.responses['200']!.schema).toMatchObject({ type: 'array', items: { type: 'object', required: ['id', 'name'] } });
    expect(list.flags).toContain('URC');
    const one = byKey['GET /pets/{petId}']!;
    expect(one.parameters[0]).toMatchObject({ name: 'petId', in: 'path', required: true });
    expect(one.flags).toContain('BOLA');
    expect(byKey['POST /pets']!.flags).toContain('BOPLA');
  });

  it('builds the Swagger 2.0 base URL from schemes, host and basePath', () => {
    const r = importApiDocument(readFixture('oai-petstore-with-external-docs-swagger-2.0.yaml'));
    expect(r.base_url).toBe('http://petstore.swagger.io/api');
    const post = r.endpoints.find((e) => e.method === 'POST')!;
    expect(post.request_body).toMatchObject({ required: true, content_type: 'application/json' });
    expect(post.request_body!.schema).toMatchObject({ type: 'object' });
  });

  it('imports the multi-file petstore from its entry file, with a warning per external $ref', () => {
    const r = importApiDocument(readFixture('oai-petstore-separate-swagger-2.0/spec/swagger.yaml'));
    expect(r.endpoints).toHaveLength(4);
    const external = r.warnings.filter((w) => w.message.startsWith('External $ref'));
    const refs = new Set(external.map((w) => /"([^"]+)"/.exec(w.message)![1]));
    expect(refs).toEqual(new Set(['parameters.yaml#/tagsParam', 'parameters.yaml#/limitsParam', 'Pet.yaml', 'NewPet.yaml', '../common/Error.yaml']));
    expect(external.every((w) => w.location.startsWith('/paths/'))).toBe(true);
    const post = r.endpoints.find((e) => e.method === 'POST')!;
    expect(post.request_body!.schema).toEqual({ 'x-unresolved-ref': 'NewPet.yaml' });
  });

  it('keeps 3.1 webhooks out of the endpoints and says so', () => {
    const r = importApiDocument(readFixture('oai-webhook-example-3.1.json'));
    expect(r.endpoints).toEqual([]);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/1 webhook operation was not imported/);
    const museum = importApiDocument(readFixture('redocly-museum-3.1.yaml'));
    expect(museum.warnings.find((w) => w.location === '/webhooks')?.message).toMatch(/^1 webhook operation/);
  });

  it('cuts circular schemas where the cycle closes', () => {
    const r = importApiDocument(readFixture('readme-schema-circular-3.0.yaml'));
    const text = JSON.stringify(r.endpoints);
    expect(text).toContain('"x-circular":"#/components/schemas/');
  });

  it('expands YAML aliases into independent copies', () => {
    const r = importApiDocument(readFixture('kin-yaml-anchors-3.0.yaml'));
    expect(r.endpoints[0]!.responses['200']!.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    });
  });

  it('keeps the GitHub spec\'s "$ref" keys inside examples as data and never follows them', () => {
    const r = importApiDocument(readFixture('github-api.github.com.json'));
    expect(r.base_url).toBe('https://api.github.com');
    expect(r.warnings.some((w) => /External \$ref/.test(w.message))).toBe(false);
  });

  it('keeps security schemes and the default requirement for the scanner', () => {
    const stripe = importApiDocument(readFixture('stripe-spec3.json'));
    expect(stripe.security.schemes).toEqual({
      basicAuth: { type: 'http', scheme: 'basic' },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'auth-scheme' },
    });
    expect(stripe.security.default).toEqual([{ basicAuth: [] }, { bearerAuth: [] }]);
    expect(stripe.endpoints.every((e) => e.flags.includes('BKEN_AUTH'))).toBe(true);
    const azure = importApiDocument(readFixture('apisguru-azure-web-WebApps-2019-08-01-swagger-2.0.yaml'));
    expect(azure.security).toEqual({ schemes: { azure_auth: { type: 'oauth2', grants: ['implicit'] } }, default: [{ azure_auth: ['user_impersonation'] }] });
    expect(azure.base_url).toBe('https://management.azure.com');
  });

  it('reads Postman collections: folders as tags, :params as path parameters, auth types without secrets', () => {
    const twitter = importApiDocument(readFixture('twitter-api-v2.postman_collection.json'));
    expect(twitter.name).toBe('Twitter API v2');
    expect(twitter.base_url).toBe('https://api.twitter.com');
    const single = twitter.endpoints[0]!;
    expect(single).toMatchObject({ method: 'GET', path: '/2/tweets/{id}', summary: 'Single Tweet', tags: ['Tweet Lookup'] });
    expect(single.parameters.find((p) => p.in === 'path')).toMatchObject({ name: 'id', required: true });
    expect(twitter.security.schemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(twitter.security.default).toEqual([{ bearerAuth: [] }]);

    const echo = importApiDocument(readFixture('newman-echo-v2.0.postman_collection.json'));
    expect(echo.base_url).toBe('https://postman-echo.com');
    const basic = echo.endpoints.find((e) => e.path === '/basic-auth')!;
    expect(basic.security).toEqual([{ basicAuth: [] }]);
    // The collection holds a password and OAuth secrets; none of them is stored.
    const stored = JSON.stringify(echo);
    expect(stored).not.toContain('D+EdQ-gs$-%@2Nu7');
    expect(stored).not.toMatch(/"password"\s*:\s*"password"/);
  });

  it('keeps what it stores small, whatever the size of the spec', () => {
    for (const file of ['stripe-spec3.json', 'github-api.github.com.json']) {
      const r = importApiDocument(readFixture(file));
      const bytes = JSON.stringify(r.endpoints).length;
      expect(bytes / r.endpoints.length, file).toBeLessThan(40_000);
    }
  });
});
