// The singular or plural twin of a documented collection (GET /users beside a documented POST /user and
// GET /user/{id}) is probed by route discovery, kept only when it answers unlike not-found, and scanned:
// a listing of every user's personal data handed to an ordinary user is reported, one without personal
// data is not, and a twin the server does not have is not kept.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { userDirectory } from '../../electron/scanner/checks/api5-function-authorization/user-directory';
import { undocumentedEndpoints } from '../../electron/scanner/checks/api9-inventory/discovery';
import { siblingCollections } from '../../electron/scanner/route-discovery/sibling-names';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, hardened, scanServer, targetWith } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const USERS = [
  { id: 1, username: 'root-admin', name: 'Ada Admin', address: '1 Main Street, Springfield', mobile: '+15555550101' },
  { id: 2, username: 'jdoe', name: 'John Doe', address: '7 Elm Road, Shelbyville', mobile: '+15555550102' },
];

async function server(listing: 'personal' | 'names' | 'none'): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const s = http.createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const authed = /^Bearer tok-/.test(req.headers.authorization ?? '');
    if (req.url === '/api/users' && listing !== 'none') {
      if (!authed) return send(403, { success: 'false', cause: 'authHeaderNotSet' });
      return send(200, listing === 'personal' ? USERS : USERS.map(({ id, username }) => ({ id, username })));
    }
    const m = /^\/api\/user\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) return authed ? send(200, USERS[0]) : send(403, { success: 'false' });
    if (req.method === 'POST' && req.url === '/api/user') return send(201, { id: 3 });
    // Like the API this was learnt from, every unknown route is a 500 with an empty object.
    return send(500, {});
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => s.close(resolve)) });
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, paths };
}

const ENDPOINTS = [endpoint('POST', '/api/user'), endpoint('GET', '/api/user/{id}')];
const KEYS = { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' };

describe('singular and plural twins of documented collections', () => {
  it('names the other number of collections (a segment before an id, or a create\'s last), and not of actions', () => {
    expect(siblingCollections([{ method: 'POST', path: '/user' }, { method: 'GET', path: '/user/{id}' }, { method: 'POST', path: '/user/login' }, { method: 'GET', path: '/orders/{id}/items' }], '/v1', 10)).toEqual([
      { path: '/v1/users', of: 'POST /user' },
      { path: '/v1/order', of: 'GET /orders/{id}/items' },
    ]);
  });

  it('finds GET /users beside POST /user and reports the listing of every user\'s personal data to an ordinary user', async () => {
    const { url } = await server('personal');
    const { findings, outcome } = await scanServer(url, ENDPOINTS, [undocumentedEndpoints, userDirectory], KEYS);
    const discovered = outcome.coverage.operations.filter((o) => o.discovered).map((o) => `${o.method} ${o.path} <- ${o.discovered}`);
    expect(discovered).toEqual(['GET /api/users <- the singular or plural twin of POST /api/user']);
    const found = findings.filter((f) => f.check_id === userDirectory.id);
    expect(found.map((f) => [f.method, f.path, f.owasp])).toEqual([['GET', '/api/users', 'API5:2023']]);
    expect(found[0]!.description).toMatch(/lists 2 user accounts/);
  });

  it('reports no listing without personal data, and keeps no twin the server does not have', async () => {
    const names = await server('names');
    const a = await scanServer(names.url, ENDPOINTS, [undocumentedEndpoints, userDirectory], KEYS);
    expect(a.outcome.coverage.operations.filter((o) => o.discovered).map((o) => o.path)).toEqual(['/api/users']);
    expect(a.findings.filter((f) => f.check_id === userDirectory.id)).toEqual([]);
    const none = await server('none');
    const b = await scanServer(none.url, ENDPOINTS, [undocumentedEndpoints, userDirectory], KEYS);
    expect(b.outcome.coverage.operations.filter((o) => o.discovered)).toEqual([]);
    expect(none.paths).toContain('GET /api/users');
  });

  it('reports the member directory of the test target that lists every account\'s e-mail and phone, and not the hardened one of names only', async () => {
    for (const [make, expected] of [
      [() => targetWith('user-directory'), [['GET', '/members']]],
      [() => hardened(), []],
    ] as const) {
      const t: Target = await make();
      open.push(t);
      const s = await scanChecks(t, [userDirectory], { only: ['GET /members', 'GET /me'], key2: false });
      expect(s.of(userDirectory).map((f) => [f.method, f.path])).toEqual(expected);
    }
  }, 60_000);
});
