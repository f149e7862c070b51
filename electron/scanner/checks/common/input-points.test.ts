import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../../shared/contract';
import { Exchange } from '../../http/exchange';
import { prepareRequest } from '../../requests';
import { confirmDelay, injectionPoints, passwdMarker, urlPoints } from './input-points';

function timed(ms: number): Exchange {
  return new Exchange(
    1,
    { method: 'GET', url: 'http://127.0.0.1/x', headers: {}, body: null, auth: { kind: 'none' }, placements: [] },
    { status: 200, headers: {}, body: '{}', bytes: 2, truncated: false },
    null,
    ms,
  );
}

describe('confirmDelay', () => {
  it('accepts a delay that follows the requested time, with a fast control', async () => {
    const proof = await confirmDelay(async (s) => timed(20 + s * 1000), 20);
    expect(proof?.delays).toEqual([1, 2]);
  });

  it('refuses an endpoint that is slow whatever the payload asks', async () => {
    expect(await confirmDelay(async () => timed(1500), 20)).toBeNull();
  });

  it('refuses a one-off slow answer that the second delay does not repeat', async () => {
    let n = 0;
    expect(await confirmDelay(async () => timed(n++ === 0 ? 1200 : 30), 20)).toBeNull();
  });

  it('refuses when the second delay is not longer than the first', async () => {
    expect(await confirmDelay(async (s) => timed(s === 0 ? 20 : 1900), 20)).toBeNull();
  });
});

const endpoint: Endpoint = {
  id: 'e1',
  method: 'PUT',
  path: '/shops/{shopId}/items',
  summary: '',
  flags: [],
  operation_id: null,
  tags: [],
  parameters: [
    { name: 'shopId', in: 'path', required: true, schema: { type: 'integer', example: 7 } },
    { name: 'lang', in: 'query', required: false, schema: { type: 'string', enum: ['en', 'fr'] } },
  ],
  request_body: {
    required: true,
    content_type: 'application/json',
    schema: {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 10 },
        image: { type: 'object', properties: { src: { type: 'string', format: 'uri' } } },
        lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', maximum: 5 } } } },
      },
    },
  },
  responses: {},
  security: null,
};

describe('injectionPoints', () => {
  it('lists query, path and body values (nested objects, first array item) and rewrites one at a time', () => {
    const request = prepareRequest(endpoint, { base: (p) => new URL(`http://127.0.0.1:9/api${p}`), placements: [], pathValues: {} });
    const ctx = { url: (p: string) => new URL(`http://127.0.0.1:9/api${p}`), authSpec: () => ({ placements: [], declaredSecured: false, schemes: [] }) };
    const points = injectionPoints(ctx, endpoint, request);
    expect(points.map((p) => `${p.where}:${p.name}:${p.type}`)).toEqual([
      'query:lang:string',
      'path:shopId:integer',
      'body:title:string',
      'body:image.src:string',
      'body:lines[0].qty:integer',
      'body:lines:array',
    ]);
    const path = points.find((p) => p.name === 'shopId')!.with("7' OR '1");
    expect(path.url.pathname).toBe('/api/shops/7\'%20OR%20\'1/items');
    const nested = points.find((p) => p.name === 'lines[0].qty')!.with(99);
    expect(JSON.parse(nested.body!)).toMatchObject({ lines: [{ qty: 99 }] });
    expect(JSON.parse(request.body!).lines[0].qty).not.toBe(99);
    expect(urlPoints(points).map((p) => [p.name, p.urlKind])).toEqual([['image.src', 'url']]);
  });
});

describe('markers', () => {
  it('recognises /etc/passwd by its lines, not by one word', () => {
    expect(passwdMarker('root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n')).toBe('root:x:0:0:root:/root:/bin/bash');
    expect(passwdMarker('the root:x:0:0 user')).toBeNull();
  });
});
