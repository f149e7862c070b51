// Import from a URL (issue 31, item 7), over both transports: POST /api/import/url fetches an API
// description from a real HTTP server on 127.0.0.1 (the API's own /openapi.json), resolves its relative
// server URL against that address, and refuses with a message a user can act on: what is not an API
// description (a web page, an image, a 404, JSON of another kind), what is too large, a host that does not
// answer or answers too slowly, and, on a team server without local scans, a loopback address (which it
// never contacts). Bad input and anonymous calls are refused before any fetch.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS_MESSAGES, SPEC_URL_MESSAGES } from '../../shared/api-messages';
import { IMPORT_MAX_BYTES } from '../../shared/constants';
import type { Endpoint, ImportData } from '../../shared/contract';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T; errors?: { field: string; message: string }[] };

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Served Pets', version: '1.0.0' },
  // Relative, as many frameworks serve it: the API is under /api/v1 of the address the file came from.
  servers: [{ url: '/api/v1' }],
  paths: {
    '/pets': { get: { summary: 'List pets', responses: { '200': { description: 'ok' } } } },
    '/pets/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } },
      delete: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '204': { description: 'gone' } } },
    },
  },
};

const SWAGGER_YAML = `swagger: "2.0"
info: { title: Yaml Shop, version: "1" }
host: shop.example.com
schemes: [https]
basePath: /v2
paths:
  /orders:
    get: { responses: { "200": { description: ok } } }
`;

interface SpecServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** The API's own server: its description at /openapi.json, and the answers an import must refuse. */
async function startSpecServer(): Promise<SpecServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    switch (req.url) {
      case '/openapi.json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(OPENAPI));
        return;
      case '/docs/shop.yaml':
        // Served as text/plain, as many static servers do with YAML: the content decides.
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(SWAGGER_YAML);
        return;
      case '/moved':
        res.writeHead(302, { location: '/openapi.json' }).end();
        return;
      case '/docs':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><div id="swagger-ui"></div></body></html>');
        return;
      case '/logo.png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
        return;
      case '/health':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
        return;
      case '/huge.json': {
        // Past the upload limit, streamed: the import stops reading at the limit.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent <= IMPORT_MAX_BYTES) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.write('{"openapi":"3.0.0",');
        more();
        res.on('error', () => undefined);
        return;
      }
      case '/slow.json':
        // Never answers: the scan's request timeout ends the import.
        return;
      default:
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  server.on('clientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe.each(['http', 'ipc'] as const)('import from a URL over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let spec: SpecServer;

  const importUrl = (body: unknown, u: TestUser | null = owner) => t.call<Json<ImportData>>('POST', '/api/import/url', { token: u?.token, body });
  const endpointsOf = async (apiId: string) => (await t.call<Json<{ endpoints: Endpoint[] }>>('POST', '/api/endpoints', { token: owner.token, body: { api_id: apiId } })).json.data.endpoints;

  beforeAll(async () => {
    spec = await startSpecServer();
    // The request timeout short enough for the test of a host that never answers.
    tc = await createTestCore({ scan: { timeoutMs: 1_000 } });
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await spec?.close();
  });

  it("imports the API's own /openapi.json, its relative server URL resolved against that address", async () => {
    const res = await importUrl({ url: `${spec.url}/openapi.json`, user_id: owner.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json.message).toBe(APIS_MESSAGES.specUrlImported('Served Pets', 3));
    expect(res.json.data).toMatchObject({ format: 'openapi-3.0', endpoint_count: 3 });
    expect(res.json.data.api).toMatchObject({ name: 'Served Pets', base_url: `${spec.url}/api/v1` });
    expect(res.json.data.warnings).toEqual([{ location: '/servers', message: SPEC_URL_MESSAGES.baseUrlFromAddress(`${spec.url}/api/v1`) }]);
    const endpoints = await endpointsOf(res.json.data.api.id);
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(['DELETE /pets/{id}', 'GET /pets', 'GET /pets/{id}']);
  });

  it('reads YAML served as text/plain, keeps an absolute server URL, and follows a redirect on the same host', async () => {
    const yaml = await importUrl({ url: `${spec.url}/docs/shop.yaml` });
    expect(yaml.status, yaml.text).toBe(201);
    expect(yaml.json.data).toMatchObject({ format: 'swagger-2.0', endpoint_count: 1, api: { name: 'Yaml Shop', base_url: 'https://shop.example.com/v2' } });
    const moved = await importUrl({ url: `${spec.url}/moved` });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.json.data.api.name).toBe('Served Pets');
  });

  it('refuses what is not an API description, saying what came back', async () => {
    const page = await importUrl({ url: `${spec.url}/docs` });
    expect(page.status).toBe(400);
    expect(page.json.message).toBe(SPEC_URL_MESSAGES.webPage);
    expect(page.json.errors).toEqual([{ field: 'url', message: SPEC_URL_MESSAGES.webPage }]);

    const image = await importUrl({ url: `${spec.url}/logo.png` });
    expect(image.status).toBe(400);
    expect(image.json.message).toBe(SPEC_URL_MESSAGES.binary('image/png'));

    const missing = await importUrl({ url: `${spec.url}/v3/api-docs` });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe(SPEC_URL_MESSAGES.status(404));

    const other = await importUrl({ url: `${spec.url}/health` });
    expect(other.status).toBe(400);
    expect(other.json.message).toMatch(/^The file is not an API description this app can read/);
  });

  it('refuses a description past the upload limit (413) and a host that does not answer', async () => {
    const huge = await importUrl({ url: `${spec.url}/huge.json` });
    expect(huge.status).toBe(413);
    expect(huge.json.message).toBe(SPEC_URL_MESSAGES.tooLarge(IMPORT_MAX_BYTES / (1024 * 1024)));

    const port = await closedPort();
    const refused = await importUrl({ url: `http://127.0.0.1:${port}/openapi.json` });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(SPEC_URL_MESSAGES.unreachable(`http://127.0.0.1:${port}`, 'connection refused'));

    const slow = await importUrl({ url: `${spec.url}/slow.json` });
    expect(slow.status).toBe(400);
    expect(slow.json.message).toBe(SPEC_URL_MESSAGES.unreachable(spec.url, 'no answer within 1 s'));
  });

  it('validates the URL and needs a session, before fetching anything', async () => {
    const before = spec.hits.length;
    const missing = await importUrl({});
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([{ field: 'url', message: APIS_MESSAGES.specUrlRequired }]);
    const ftp = await importUrl({ url: 'ftp://127.0.0.1/openapi.json' });
    expect(ftp.json.errors).toEqual([{ field: 'url', message: APIS_MESSAGES.specUrlInvalid }]);
    const long = await importUrl({ url: `${spec.url}/${'a'.repeat(5000)}` });
    expect(long.json.errors).toEqual([{ field: 'url', message: APIS_MESSAGES.specUrlTooLong }]);
    const anonymous = await importUrl({ url: `${spec.url}/openapi.json` }, null);
    expect(anonymous.status).toBe(401);
    const someoneElse = await importUrl({ url: `${spec.url}/openapi.json`, user_id: '00000000-0000-4000-8000-000000000000' });
    expect(someoneElse.status).toBe(403);
    expect(spec.hits.length).toBe(before);
  });
});

describe('import from a URL on a team server without local scans', () => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let spec: SpecServer;

  beforeAll(async () => {
    spec = await startSpecServer();
    tc = await createTestCore({ shell: 'server', allowLocalScans: false });
    t = await openTransport('http', tc.core);
    owner = await signUpAndLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await spec?.close();
  });

  it('refuses loopback addresses through the scan guard, says how to allow them, and never contacts them', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const url = `${spec.url.replace('127.0.0.1', host)}/openapi.json`;
      const res = await t.call<Json>('POST', '/api/import/url', { token: owner.token, body: { url } });
      expect(res.status, `${url}: ${res.text}`).toBe(403);
      expect(res.json.message).toBe(SPEC_URL_MESSAGES.local(new URL(url).hostname));
      expect(res.json.message).toContain('PORTCULLIS_ALLOW_LOCAL_SCANS=1');
    }
    expect(spec.hits).toEqual([]);
  });
});
