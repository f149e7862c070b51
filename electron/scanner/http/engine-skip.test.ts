// SKIP operations never leave the engine, whichever check asks (discovery guesses too); an operation
// that is scanned and matches the same URL (a literal route next to a skipped template) still does.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HttpEngine, NOT_SENT_SKIP } from './engine';

let server: http.Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function engine(): HttpEngine {
  return new HttpEngine({
    baseUrl: base,
    concurrency: 2,
    rps: 0,
    timeoutMs: 2000,
    retries: 0,
    maxBodyBytes: 10_000,
    maxRequests: 100,
    allowLocal: true,
    signal: new AbortController().signal,
    skipped: [
      { method: 'get', path: '/pets/{petId}' },
      { method: 'GET', path: '/health' },
    ],
    scanned: [{ method: 'GET', path: '/pets/search' }],
  });
}

it('does not send a SKIP operation, answers like a transport failure, and counts nothing', async () => {
  const e = engine();
  seen.length = 0;
  const skipped = await e.send({ method: 'GET', url: `${base}/pets/12` });
  expect(skipped.error).toBe(NOT_SENT_SKIP);
  expect(skipped.response).toBeNull();
  expect((await e.send({ method: 'GET', url: `${base}/health/` })).error).toBe(NOT_SENT_SKIP);
  expect(e.requestsSent).toBe(0);
  expect(seen).toEqual([]);
  // Another method on the same route, the collection, the origin's own /health and the scanned literal route go out.
  for (const [method, path] of [['DELETE', '/api/v2/pets/12'], ['GET', '/api/v2/pets'], ['GET', '/health'], ['GET', '/api/v2/pets/search']]) {
    const ex = await e.send({ method: method!, url: `${new URL(base).origin}${path}` });
    expect(ex.status, `${method} ${path}`).toBe(200);
  }
  expect(seen).toEqual(['DELETE /api/v2/pets/12', 'GET /api/v2/pets', 'GET /health', 'GET /api/v2/pets/search']);
  // An identity's own login is the user's configuration: it goes out even where it matches a SKIP operation.
  expect((await e.send({ method: 'GET', url: `${base}/health`, login: true })).status).toBe(200);
  await e.close();
});
