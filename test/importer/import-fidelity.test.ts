// Import fidelity (issue 18, item 9): servers below the top level, the https server preferred,
// callbacks named, disabled Postman query parameters left out, and a path's `#` kept.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HttpEngine } from '../../electron/scanner/http/engine';
import { prepareRequest } from '../../electron/scanner/requests';
import type { Endpoint } from '../../shared/contract';
import { importJson, openapi } from './import-helpers';

const ok = { responses: { '200': { description: 'ok' } } };
const keys = (r: ReturnType<typeof importJson>) => r.endpoints.map((e) => `${e.method} ${e.path}`);

/** An OpenAPI 3 document whose path item and operations name their own servers. */
const SERVERS_BELOW_TOP = openapi({
  '/pets': { get: ok },
  '/files': {
    servers: [{ url: 'https://files.example.test' }],
    get: ok,
    post: ok,
    put: { ...ok, servers: [{ url: 'https://api.example.test/v1/' }] },
  },
  '/upload': { post: { ...ok, servers: [{ url: 'https://api.example.test/v1/{area}', variables: { area: { default: 'media' } } }] } },
  '/report': { get: { ...ok, servers: [{ url: 'https://reports.example.test/v1' }] } },
});

describe('servers of path items and operations', () => {
  const r = importJson(SERVERS_BELOW_TOP);

  it('keeps an operation server that only adds a path prefix to the base URL in the endpoint path', () => {
    expect(r.base_url).toBe('https://api.example.test/v1');
    expect(keys(r)).toContain('POST /media/upload');
    // The operation's own server is the base URL: nothing to say about it.
    expect(keys(r)).toContain('PUT /files');
    expect(r.warnings.some((w) => w.location.startsWith('/paths/~1upload') || w.location.startsWith('/paths/~1files/put'))).toBe(false);
  });

  it('names the operations that would be scanned at the wrong base', () => {
    expect(r.warnings).toContainEqual({
      location: '/paths/~1files/servers',
      message:
        'Operations GET /files, POST /files have their own server "https://files.example.test" but will be scanned at the API\'s base URL ' +
        '"https://api.example.test/v1"; import them as a separate API with that base URL to scan the right server.',
    });
    expect(r.warnings).toContainEqual({
      location: '/paths/~1report/get/servers',
      message:
        'Operation GET /report has its own server "https://reports.example.test/v1" but will be scanned at the API\'s base URL ' +
        '"https://api.example.test/v1"; import it as a separate API with that base URL to scan the right server.',
    });
    expect(r.warnings.filter((w) => /own server/.test(w.message))).toHaveLength(2);
  });
});

describe('choice of the server', () => {
  it('prefers a later https:// server to a first http:// one, and says so', () => {
    const r = importJson(openapi({ '/a': { get: ok } }, { servers: [{ url: 'http://api.example.test/v1' }, { url: 'https://api.example.test/v1' }] }));
    expect(r.base_url).toBe('https://api.example.test/v1');
    expect(r.warnings).toContainEqual({
      location: '/servers/1',
      message: 'Server 2 ("https://api.example.test/v1") was chosen over the first one ("http://api.example.test/v1") because it uses https.',
    });
  });

  it('keeps the first server when it is https:// or the only one', () => {
    const first = importJson(openapi({ '/a': { get: ok } }, { servers: [{ url: 'https://a.example.test' }, { url: 'http://b.example.test' }] }));
    expect(first.base_url).toBe('https://a.example.test');
    const only = importJson(openapi({ '/a': { get: ok } }, { servers: [{ url: 'http://a.example.test' }] }));
    expect(only.base_url).toBe('http://a.example.test');
    expect([...first.warnings, ...only.warnings].some((w) => /was chosen/.test(w.message))).toBe(false);
  });
});

describe('callbacks', () => {
  it('are not endpoints, and a warning names them', () => {
    const callback = { '{$request.body#/url}': { post: ok } };
    const r = importJson(openapi({ '/subscribe': { post: { ...ok, callbacks: { onEvent: callback, onError: callback } } } }));
    expect(keys(r)).toEqual(['POST /subscribe']);
    expect(r.warnings).toContainEqual({
      location: '/paths/~1subscribe/post/callbacks',
      message: 'Callbacks "onEvent", "onError" of POST /subscribe were not imported as endpoints: callbacks are requests the API sends, not endpoints it serves.',
    });
  });
});

describe('Postman query parameters', () => {
  it('leaves out the disabled ones, as it does disabled headers', () => {
    const r = importJson({
      info: { name: 'P', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        {
          name: 'search',
          request: {
            method: 'GET',
            header: [{ key: 'X-Off', value: '1', disabled: true }],
            url: {
              raw: 'https://api.example.test/search?q=cats&debug=true',
              protocol: 'https',
              host: ['api', 'example', 'test'],
              path: ['search'],
              query: [
                { key: 'q', value: 'cats' },
                { key: 'debug', value: 'true', disabled: true },
              ],
            },
          },
        },
      ],
    });
    expect(r.endpoints).toHaveLength(1);
    expect(r.endpoints[0]!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:q']);
  });
});

describe('a path that carries a fragment', () => {
  it('is stored as written and requested with the fragment in the path', async () => {
    const r = importJson(openapi({ '/#Action=ListUsers': { get: ok }, '/#Action=DeleteUser': { post: ok } }));
    expect(keys(r)).toEqual(['GET /#Action=ListUsers', 'POST /#Action=DeleteUser']);

    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    const engine = new HttpEngine({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      concurrency: 1,
      rps: 0,
      timeoutMs: 5000,
      retries: 0,
      maxBodyBytes: 1024 * 1024,
      maxRequests: 10,
      allowLocal: true,
      keys: {},
      signal: new AbortController().signal,
    });
    try {
      const stored = r.endpoints[0]!;
      const endpoint: Endpoint = { ...stored, id: 'e1', parameters: [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' }, example: 5 }] };
      const p = prepareRequest(endpoint, { base: (path) => engine.resolve(path), placements: [], pathValues: {} });
      const ex = await engine.send({ method: p.method, url: p.url, headers: p.headers, body: p.body, auth: { kind: 'none' } });
      expect(ex.status).toBe(200);
      expect(seen).toEqual(['/v1/%23Action=ListUsers?limit=5']);
    } finally {
      await engine.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    }
  });
});
