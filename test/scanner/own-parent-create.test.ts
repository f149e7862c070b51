// A create into a parent object (an item into a basket) whose description's example names someone else's
// basket: the out-of-range check puts the item into the caller's own basket, as its login answer told
// (`bid`), and finds the negative quantity the server stores. Silent where the server refuses it.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../electron/log';
import { outOfRangeValues } from '../../electron/scanner/checks/api6-business-flows/out-of-range-values';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan } from '../../electron/scanner/run';
import { scanConfigSchema } from '../../shared/identities';
import { endpoint } from './check-harness';

const USERS = [
  { email: 'ann@shop.example', password: 'Ann-pw-123', bearer: 'tok-ann-1f2e3d4c5b6a79881726354a', basket: 6 },
  { email: 'ben@shop.example', password: 'Ben-pw-456', bearer: 'tok-ben-9e8d7c6b5a4f30211203f4e5', basket: 7 },
];

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function shop(validates: boolean): Promise<string> {
  const items = new Map<number, { id: number; BasketId: number; ProductId: number; quantity: number }>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const b = JSON.parse(body || '{}') as Record<string, unknown>;
      if (req.method === 'POST' && req.url === '/login') {
        const u = USERS.find((x) => x.email === b.email && x.password === b.password);
        return res.writeHead(u ? 200 : 401).end(JSON.stringify(u ? { authentication: { token: u.bearer, bid: u.basket } } : { error: 'Invalid email or password.' }));
      }
      const me = USERS.find((u) => `Bearer ${u.bearer}` === req.headers.authorization);
      if (!me) return res.writeHead(401).end('{"error":"unauthorized"}');
      if (req.method === 'GET' && req.url === '/basket') return res.end(JSON.stringify({ data: { id: me.basket, items: [...items.values()].filter((i) => i.BasketId === me.basket) } }));
      if (req.method === 'POST' && req.url === '/basket-items') {
        if (b.BasketId !== me.basket) return res.writeHead(401).end('{"error":"Invalid BasketId"}');
        if (validates && (typeof b.quantity !== 'number' || b.quantity < 1)) return res.writeHead(400).end('{"error":"quantity must be at least 1"}');
        const item = { id: items.size + 1, BasketId: me.basket, ProductId: Number(b.ProductId), quantity: Number(b.quantity) };
        items.set(item.id, item);
        return res.writeHead(200).end(JSON.stringify({ status: 'success', data: item }));
      }
      const m = /^\/basket-items\/(\d+)$/.exec(req.url ?? '');
      const item = m ? items.get(Number(m[1])) : undefined;
      if (req.method === 'GET' && item && item.BasketId === me.basket) return res.end(JSON.stringify({ status: 'success', data: item }));
      res.writeHead(404).end('{"error":"not found"}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function scan(baseUrl: string): Promise<BuiltFinding[]> {
  const findings: BuiltFinding[] = [];
  const login = (u: (typeof USERS)[number]) => ({
    name: u.email.split('@')[0]!,
    login: { request: { method: 'POST', path: '/login', json: { email: u.email, password: u.password } }, token: { from: 'body' as const, pointer: '/authentication/token' } },
  });
  const itemIn = { type: 'object', required: ['ProductId', 'BasketId', 'quantity'], properties: { ProductId: { type: 'integer', example: 1 }, BasketId: { type: 'integer', example: 1 }, quantity: { type: 'integer', minimum: 1, example: 1 } } };
  await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'custom', name: 'Custom', baseUrl, security: { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] } },
      endpoints: [
        endpoint('GET', '/basket', { flags: ['SEC_MISC'] }),
        endpoint('POST', '/basket-items', { flags: ['UABF', 'BOPLA'], request_body: { content_type: 'application/json', required: true, schema: itemIn } }),
        endpoint('GET', '/basket-items/{id}', { flags: ['BOLA'] }),
      ].map((e, i) => ({ ...e, id: `c${i}` })),
      identities: { identities: scanConfigSchema.parse({ identities: [login(USERS[0]!), login(USERS[1]!)] }).identities, signup: 'off' },
      engine: { concurrency: 4, rps: 0, timeoutMs: 5_000, retries: 0, maxBodyBytes: 1024 * 1024, maxRequestsPerScan: 5_000, maxRequestsPerEndpoint: 200, tlsVerify: true, allowLocal: true },
      options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
      checks: [outOfRangeValues],
      signal: new AbortController().signal,
    },
    { logger: createMemoryLogger('warn'), progress: () => {}, finding: async (f) => (findings.push(f), true) },
  );
  return findings;
}

describe('a create into the caller\'s own parent object', () => {
  it('puts the item into the basket the login answer named, and finds the stored negative quantity', async () => {
    const findings = await scan(await shop(false));
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path} ${f.parameter}`)).toEqual(['api6-out-of-range-values POST /basket-items quantity']);
    expect(findings[0]!.evidence).toContain('"BasketId":6');
  });

  it('is silent where the server refuses the value', async () => {
    expect(await scan(await shop(true))).toEqual([]);
  });
});
