// Hostile files: each must be refused with a clear 400-style ImportError or imported safely,
// quickly, without reading a file, opening a connection or overflowing the stack.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../../electron/importer/index';
import { IMPORT_LIMITS } from '../../electron/importer/limits';
import { importError, importJson, importText, openapi } from './import-helpers';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
}

describe('YAML alias bombs', () => {
  // "Billion laughs": 9 levels of 10 aliases each stand for 10^9 strings in a few hundred bytes.
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i += 1) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
  }
  const bomb = `openapi: 3.0.0\ninfo: {title: bomb, version: "1"}\npaths: {}\nx-bomb:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;

  it('refuses an alias bomb quickly, naming the problem', () => {
    const { value: err, ms } = timed(() => importError(() => importText(bomb, 'bomb.yaml')));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/YAML aliases expand this file to more than .* values/);
    expect(err.message).toMatch(/at \/x-bomb\//);
    expect(ms).toBeLessThan(2_000);
  });

  it('refuses a bomb hidden in a schema an operation uses', () => {
    const inSchema = bomb.replace('paths: {}', 'paths:\n  /x:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {type: array, items: *i}');
    // The alias must come after its anchor: put paths last.
    const reordered = inSchema.replace(/paths:[\s\S]*?x-bomb:/, 'x-bomb:') + inSchema.match(/paths:[\s\S]*?(?=x-bomb:)/)![0];
    const err = importError(() => importText(reordered, 'bomb.yaml'));
    expect(err.message).toMatch(/YAML aliases expand/);
  });

  it('refuses an alias that contains itself', () => {
    const err = importError(() => importText('openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-loop: &loop\n  again: *loop\n'));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/alias refers to a node that contains it.*at \/x-loop\/again/);
  });

  it('accepts ordinary alias use', () => {
    const ok = importText(
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\nx-err: &err {description: failed}\npaths:\n  /a: {get: {responses: {"400": *err, "500": *err}}}\n  /b: {get: {responses: {"400": *err}}}\n',
    );
    expect(ok.endpoints).toHaveLength(2);
    expect(ok.endpoints[0]!.responses['500']!.description).toBe('failed');
  });

  it('applies YAML merge keys (<<), which swagger-parser mis-reads', () => {
    const r = importText(
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\nx-base: &base\n  description: from the base\n  content:\n    application/json:\n      schema: {type: object}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          <<: *base\n          description: own text\n        "400":\n          <<: *base\n',
      'merge.yaml',
    );
    expect(r.endpoints[0]!.responses['200']).toEqual({ description: 'own text', content_type: 'application/json', schema: { type: 'object' } });
    expect(r.endpoints[0]!.responses['400']!.description).toBe('from the base');
  });
});

describe('deep nesting', () => {
  const DEPTH = 10_000;

  it('refuses 10,000-deep JSON with the JSON pointer where it gets too deep', () => {
    const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const text = JSON.stringify(openapi({})).replace(/}$/, `,"x-deep":${deep}}`);
    const { value: err, ms } = timed(() => importError(() => importText(text)));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(new RegExp(`nests deeper than ${IMPORT_LIMITS.maxDocumentDepth} levels \\(at /x-deep/a/a/a`));
    expect(ms).toBeLessThan(2_000);
  });

  it('refuses 10,000-deep JSON arrays inside a schema', () => {
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    const text = `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"enum":${deep}}}}}}}}}}`;
    expect(importError(() => importText(text))).toBeInstanceOf(ImportError);
  });

  it('refuses 10,000-deep YAML flow collections with a line and column', () => {
    const text = `openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-deep: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`;
    const err = importError(() => importText(text, 'deep.yaml'));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/nests deeper than \d+ levels \(at line 4, column \d+\)/);
  });

  it('refuses 10,000-deep YAML block mappings', () => {
    const lines = ['openapi: 3.0.0', 'info: {title: t, version: "1"}', 'paths: {}', 'x-deep:'];
    for (let i = 1; i <= 300; i += 1) lines.push(`${' '.repeat(i)}k:`);
    lines.push(`${' '.repeat(301)}end`);
    expect(importError(() => importText(lines.join('\n'), 'deep.yaml'))).toBeInstanceOf(ImportError);
  });

  it('cuts a 10,000-long chain of $refs (shallow file, deep schema) instead of following it', () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < DEPTH; i += 1) schemas[`S${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    schemas[`S${DEPTH}`] = { type: 'string' };
    const doc = openapi(
      { '/x': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } }, responses: { '200': { description: 'ok' } } } } },
      { components: { schemas } },
    );
    const { value: r, ms } = timed(() => importJson(doc));
    expect(r.endpoints).toHaveLength(1);
    expect(JSON.stringify(r.endpoints[0]!.request_body)).toContain('"x-truncated":"depth"');
    expect(ms).toBeLessThan(3_000);
  });

  it('survives a ref graph that doubles at every level (a $ref bomb)', () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 60; i += 1)
      schemas[`B${i}`] = { type: 'object', properties: { l: { $ref: `#/components/schemas/B${i + 1}` }, r: { $ref: `#/components/schemas/B${i + 1}` } } };
    schemas.B60 = { type: 'string' };
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 200; i += 1)
      paths[`/p${i}`] = { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/B0' } } } } } } };
    const { value: r, ms } = timed(() => importJson(openapi(paths, { components: { schemas } })));
    expect(r.endpoints).toHaveLength(200);
    expect(JSON.stringify(r.endpoints).length).toBeLessThan(200 * 60_000);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('references outside the document', () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  let connections = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits += 1;
      res.end('{"type":"string"}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('never reads file:///etc/passwd nor calls a listener on 127.0.0.1; each ref becomes a warning', async () => {
    const url = `http://127.0.0.1:${port}/schema.json`;
    const doc = openapi(
      {
        '/local': { $ref: `http://127.0.0.1:${port}/path-item.json` },
        '/users/{id}': {
          parameters: [{ $ref: `${url}#/parameters/id` }],
          post: {
            parameters: [{ $ref: 'file:///etc/passwd' }, { name: 'q', in: 'query', schema: { $ref: 'file:///etc/passwd#/x' } }],
            requestBody: { $ref: `http://127.0.0.1:${port}/body.json` },
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { $ref: url } } } },
              '404': { $ref: 'file:///etc/passwd' },
              '500': { description: 'e', content: { 'application/json': { schema: { $ref: '../../../../etc/passwd' } } } },
            },
          },
        },
      },
      { components: { securitySchemes: { key: { $ref: `http://127.0.0.1:${port}/scheme.json` } } } },
    );
    const r = importJson(doc);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hits).toBe(0);
    expect(connections).toBe(0);
    const text = JSON.stringify(r);
    expect(text).not.toMatch(/root:.*:0:0:/);
    const post = r.endpoints.find((e) => e.method === 'POST')!;
    expect(post.parameters.find((p) => p.name === 'q')!.schema).toEqual({ 'x-unresolved-ref': 'file:///etc/passwd#/x' });
    expect(post.responses['200']!.schema).toEqual({ 'x-unresolved-ref': url });
    const refsWarned = r.warnings.filter((w) => w.message.startsWith('External $ref')).map((w) => /"([^"]+)"/.exec(w.message)![1]);
    for (const ref of ['file:///etc/passwd', 'file:///etc/passwd#/x', url, `${url}#/parameters/id`, `http://127.0.0.1:${port}/body.json`, '../../../../etc/passwd'])
      expect(refsWarned).toContain(ref);
  });

  it('does not follow a $ref written as a local pointer that escapes with "__proto__" or "constructor"', () => {
    const doc = openapi(
      {
        '/a': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/__proto__/polluted' } } } },
              '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/constructor/prototype' } } } },
            },
          },
        },
      },
      { components: { schemas: JSON.parse('{"__proto__": {"polluted": true}}') } },
    );
    const r = importJson(doc);
    expect(r.endpoints[0]!.responses['200']!.schema).toEqual({ 'x-unresolved-ref': '#/__proto__/polluted' });
    expect(r.endpoints[0]!.responses['201']!.schema).toEqual({ 'x-unresolved-ref': '#/constructor/prototype' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('huge strings', () => {
  const MB = 1024 * 1024;

  it('bounds every stored text, whatever the file holds', () => {
    const big = 'x'.repeat(1.5 * MB);
    const doc = openapi(
      {
        [`/items/{${'n'.repeat(300)}}`]: {
          get: {
            summary: big,
            operationId: big,
            tags: [big, big.slice(1)],
            parameters: [{ name: big, in: 'query', schema: { type: 'string', enum: [big], example: big, description: big } }],
            responses: { '200': { description: big, content: { [`application/${big.slice(0, 1000)}+json`]: { schema: { type: 'string', pattern: big } } } } },
          },
        },
        [`/${'p'.repeat(3000)}`]: { get: { responses: { '200': { description: 'ok' } } } },
      },
      { info: { title: big, version: big } },
    );
    const { value: r, ms } = timed(() => importJson(doc));
    expect(r.name.length).toBeLessThanOrEqual(IMPORT_LIMITS.maxNameLength);
    expect(r.endpoints).toHaveLength(1);
    const e = r.endpoints[0]!;
    expect(e.summary.length).toBeLessThanOrEqual(IMPORT_LIMITS.maxSummaryLength);
    expect(JSON.stringify(e).length).toBeLessThan(40_000);
    // The path longer than the limit is skipped and named.
    expect(r.warnings.some((w) => w.message.startsWith('Skipped GET /ppp') && /longer than 2048/.test(w.message))).toBe(true);
    expect(ms).toBeLessThan(5_000);
  });

  it('reads a 20 MB string in a file just under the size limit', () => {
    const doc = openapi({ '/a': { get: { summary: 'y'.repeat(20 * MB), responses: {} } } });
    const { value: r, ms } = timed(() => importJson(doc));
    expect(r.endpoints[0]!.summary).toHaveLength(IMPORT_LIMITS.maxSummaryLength);
    expect(r.endpoints[0]!.summary.endsWith('…')).toBe(true);
    expect(ms).toBeLessThan(5_000);
  });

  it('keeps its text patterns linear on pathological strings (no ReDoS)', () => {
    const dots = `a@${'.'.repeat(200_000)} x`;
    const braces = `{{${'{{a'.repeat(50_000)}`;
    const collection = {
      info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: Array.from({ length: 20 }, (_, i) => ({
        name: `r${i}`,
        request: {
          method: 'POST',
          url: { raw: `https://x.test/${braces}` },
          body: { mode: 'raw', raw: JSON.stringify({ email: dots, list: [dots, dots] }), options: { raw: { language: 'json' } } },
        },
        response: [{ code: 200, body: JSON.stringify({ v: dots }) }],
      })),
    };
    collection.item.push({
      name: 'ok',
      request: { method: 'POST', url: { raw: 'https://x.test/users' }, body: { mode: 'raw', raw: JSON.stringify({ email: dots }), options: { raw: { language: 'json' } } } },
      response: [{ code: 200, body: JSON.stringify({ v: dots }) }],
    });
    const { value: r, ms } = timed(() => importJson(collection));
    expect(ms).toBeLessThan(5_000);
    expect(r.endpoints.map((e) => e.path)).toEqual(['/users']);
    expect(r.endpoints[0]!.request_body!.schema).toEqual({ type: 'object', properties: { email: { type: 'string' } } });
    const server = openapi({ '/a': { get: { responses: {} } } }, { servers: [{ url: `https://x.test/{${'a'.repeat(1_000_000)}` }] });
    expect(timed(() => importJson(server)).ms).toBeLessThan(5_000);
  });

  it('bounds the warnings a file can cause', () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 5_000; i += 1) paths[`/p${i}`] = { get: `broken ${i}` };
    paths['/ok'] = { get: { responses: {} } };
    const r = importJson(openapi(paths));
    expect(r.endpoints).toHaveLength(1);
    expect(r.warnings.length).toBe(IMPORT_LIMITS.maxWarnings + 1);
    expect(r.warnings.at(-1)!.message).toMatch(/^4800 more warnings were left out\.$/);
  });
});

describe('text encoding', () => {
  const valid = JSON.stringify(openapi({ '/a': { get: { responses: {} } } }), null, 1);

  it.each([
    ['a lone 0xFF byte', [0xff]],
    ['a truncated 3-byte sequence', [0xe2, 0x82]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses invalid UTF-8 (%s) with the line and column of the bad byte', (_name, bad) => {
    const text = new TextEncoder().encode(valid);
    const at = valid.indexOf('"T"') + 1;
    const bytes = new Uint8Array([...text.slice(0, at), ...bad, ...text.slice(at)]);
    const err = importError(() => importText(bytes));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(new RegExp(`not valid UTF-8 text: invalid byte 0x${bad[0]!.toString(16).toUpperCase()} at offset ${at}.*\\(at line 4, column \\d+\\)`));
  });

  it('reads UTF-8 with a byte order mark and UTF-16 with one', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(valid)]);
    expect(importText(bom).endpoints).toHaveLength(1);
    const utf16 = new Uint8Array(2 + valid.length * 2);
    utf16[0] = 0xff;
    utf16[1] = 0xfe;
    for (let i = 0; i < valid.length; i += 1) {
      utf16[2 + i * 2] = valid.charCodeAt(i) & 0xff;
      utf16[3 + i * 2] = valid.charCodeAt(i) >> 8;
    }
    expect(importText(utf16).endpoints).toHaveLength(1);
  });
});

describe('malformed files are refused with where the problem is', () => {
  it.each([
    ['{"openapi": "3.0.0",\n  "info": {,}}', /not valid JSON: .*\(at line 2, column 12\)/],
    ['{"openapi": "3.0.0",\n "paths": {"/a": 1,}\n}', /not valid JSON: .*\(at line 2, column 20\)/],
    ['{"openapi": "3.0.0"', /not valid JSON: .*\(at line 1, column 20\)/],
    ['[1, 2', /not valid JSON/],
    ['{"a": tru}', /not valid JSON: .*\(at line 1, column 7\)/],
    ['{"a": "x\ny"}', /not valid JSON: Bad control character.*\(at line 1, column 9\)/],
    ['openapi: 3.0.0\ninfo:\n  title: t\n   version: 1\n', /not valid YAML: .*\(at line 4, column \d+\)/],
    ['openapi: 3.0.0\nopenapi: 3.1.0\n', /not valid YAML: duplicated mapping key \(at line 2, column 1\)/],
    ['a: !!js/function "x"', /not valid YAML: unknown tag/],
    ['', /The file is empty\./],
    ['   \n\t', /The file is empty\./],
    ['null', /must hold an object at its top level, not null/],
    ['[]', /must hold an object at its top level, not a list/],
    ['"just text"', /must hold an object/],
    ['42', /must hold an object/],
    ['just some words', /must hold an object at its top level, not a string/],
    ['{"hello": "world"}', /not an API description this app can read/],
    ['{"openapi": "4.0.0"}', /^Unsupported OpenAPI version "4\.0\.0": this app reads OpenAPI 3\.0, 3\.1 and later 3\.x versions \(at \/openapi\)\.$/],
    ['{"openapi": 3}', /Unsupported OpenAPI version/],
    ['{"swagger": "1.2"}', /Unsupported Swagger version "1\.2"/],
    ['{"info": {"schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}}', /Postman Collection version v1\.0/],
    ['{"id": "x", "name": "c", "order": [], "requests": []}', /Postman Collection v1 is not supported/],
  ])('%j', (text, expected) => {
    const err = importError(() => importText(text));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(expected);
  });

  it('tolerates later OpenAPI 3.x versions, saying how it read them', () => {
    const r = importJson({ ...openapi({ '/a': { get: { responses: {} }, query: { responses: {} } } }), openapi: '3.2.0' });
    expect(r.format).toBe('openapi-3.2');
    expect(r.endpoints.map((e) => e.method)).toEqual(['GET', 'QUERY']);
    expect(r.warnings[0]!.message).toMatch(/OpenAPI 3\.2\.0 is newer than this importer knows; it was read as 3\.1/);
  });
});

describe('partial import', () => {
  it('skips a broken operation with a warning naming it and imports the rest', () => {
    const r = importJson(
      openapi({
        '/ok': { get: { responses: {} } },
        '/broken': { get: 'not an operation', post: { responses: {} } },
        '/also-ok': { delete: { responses: {} } },
      }),
    );
    expect(r.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /ok', 'POST /broken', 'DELETE /also-ok']);
    expect(r.warnings).toContainEqual({ location: '/paths/~1broken/get', message: 'Skipped GET /broken: the operation is not an object.' });
  });

  it('refuses the file when every operation is broken', () => {
    const err = importError(() => importJson(openapi({ '/a': { get: 1 }, '/b': { put: [] } })));
    expect(err.message).toMatch(/^None of the 2 operations could be imported; the first: Skipped GET \/a: the operation is not an object \(at \/paths\/~1a\/get\)\.$/);
  });
});
