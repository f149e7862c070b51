// A create that answers only {"status": "created"}: the resource pool finds the new object in the
// caller's listing by the unique title it sent, so the create-then-steal check can hand its id to the
// other user. Silent where the object reads refuse other users.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { bolaCreateSteal } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { endpoint, scanServer } from './check-harness';

const KEYS = { 1: 'memo-key-ann-5b1f', 2: 'memo-key-ben-9c2e' };
const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function memos(checksOwner: boolean): Promise<{ url: string; gets: () => number }> {
  const all: { id: number; owner: string; title: string; body: string }[] = [];
  let listGets = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const who = Object.values(KEYS).find((k) => req.headers.authorization === `Bearer ${k}`);
      if (!who) return res.writeHead(401).end('{"error":"unauthorized"}');
      if (req.method === 'POST' && req.url === '/memos') {
        const b = JSON.parse(raw || '{}') as { title?: string; body?: string };
        all.push({ id: all.length + 1, owner: who, title: String(b.title ?? ''), body: String(b.body ?? '') });
        return res.writeHead(201).end('{"status":"created"}');
      }
      if (req.method === 'GET' && req.url === '/memos') {
        listGets += 1;
        return res.end(JSON.stringify({ items: all.filter((m) => m.owner === who).map(({ id, title }) => ({ id, title })) }));
      }
      const m = /^\/memos\/(\d+)$/.exec(req.url ?? '');
      const memo = m ? all.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === 'GET' && memo && (!checksOwner || memo.owner === who)) return res.end(JSON.stringify({ id: memo.id, title: memo.title, body: memo.body, author: memo.owner === KEYS[1] ? 'ann@memo.example' : 'ben@memo.example', folder: 'inbox-2291' }));
      res.writeHead(404).end('{"error":"not found"}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gets: () => listGets };
}

const schema = { type: 'object', required: ['title', 'body'], properties: { title: { type: 'string' }, body: { type: 'string' } } };
const eps = [
  endpoint('POST', '/memos', { request_body: { content_type: 'application/json', required: true, schema }, responses: { '201': { description: 'created', content_type: 'application/json', schema: null } } }),
  endpoint('GET', '/memos'),
  endpoint('GET', '/memos/{memoId}'),
];

describe('the id of a created object from the listing', () => {
  it('reads the new memo\'s id from the caller\'s listing, and the other user reads the memo', async () => {
    const api = await memos(false);
    const { findings } = await scanServer(api.url, eps, [bolaCreateSteal], KEYS);
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path}`)).toEqual(['api1-bola-create-steal GET /memos/{memoId}']);
    expect(api.gets()).toBeGreaterThanOrEqual(2);
  });

  it('is silent where a memo is read only by its owner', async () => {
    const api = await memos(true);
    const { findings } = await scanServer(api.url, eps, [bolaCreateSteal], KEYS);
    expect(findings).toEqual([]);
    expect(api.gets()).toBeGreaterThanOrEqual(2);
  });
});
