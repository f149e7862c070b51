// A small pet API on 127.0.0.1 for engine and check tests, with switchable flaws and a hardened
// default, and a log of every request it received. (The full vulnerable target of test/targets is
// the reference for the check suite; this one is small enough to reason about request counts.)

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiSecurity, Endpoint } from '../../shared/contract';
import type { NewApi, NewEndpoint } from '../../electron/store/apis';

export interface MiniApiFlaws {
  /** Pet reads and the list answer without credentials (as alice). */
  noAuth: boolean;
  /** Any bearer token is taken as alice's (presence checked, not validity). */
  anyToken: boolean;
  /** CORS echoes any Origin; with credentials when corsCredentials. */
  corsReflect: boolean;
  corsCredentials: boolean;
  /** No nosniff / no-store, and a Server header with a version. */
  weakHeaders: boolean;
  /** Every answer waits this long (a slow API, for long-running scans). */
  delayMs: number;
}

export interface LoggedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface MiniApi {
  url: string;
  users: { alice: { token: string; id: number }; bob: { token: string; id: number } };
  requests: LoggedRequest[];
  /** Owner of every pet the API created during the test (id -> user id). */
  createdBy: Map<number, number>;
  /** Turns flaws on or off between scans. */
  setFlaws(change: Partial<MiniApiFlaws>): void;
  /** Revokes a user's token (the key stops working mid-scan). */
  revoke(token: string): void;
  /** Extra handler consulted first; return true when it answered. */
  extra: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null;
  /**
   * While set, requests wait for it before they are answered (as usual): a test holds a scan mid-task and
   * looks at it, instead of hoping a timer catches it there. `onHeld` hears of each request held.
   */
  gate: Promise<void> | null;
  onHeld: (() => void) | null;
  close(): Promise<void>;
}

interface Pet {
  id: number;
  name: string;
  tag: string;
  owner: number;
}

export async function startMiniApi(flaws: Partial<MiniApiFlaws> = {}): Promise<MiniApi> {
  const f: MiniApiFlaws = { noAuth: false, anyToken: false, corsReflect: false, corsCredentials: false, weakHeaders: false, delayMs: 0, ...flaws };
  const users = {
    alice: { token: 'alice-8f2b9c1d4e5f6a7b8c9d0e1f2a3b4c5d', id: 1 },
    bob: { token: 'bob-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d', id: 2 },
  };
  const profiles: Record<number, { id: number; username: string; email: string }> = {
    1: { id: 1, username: 'alice', email: 'alice@example.com' },
    2: { id: 2, username: 'bob', email: 'bob@example.com' },
  };
  const revoked = new Set<string>();
  const pets = new Map<number, Pet>([
    [1, { id: 1, name: 'Rex', tag: 'dog', owner: 1 }],
    [2, { id: 2, name: 'Tom', tag: 'cat', owner: 2 }],
  ]);
  let nextId = 100;
  const createdBy = new Map<number, number>();
  const requests: LoggedRequest[] = [];

  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now() });
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (api.gate) {
        api.onHeld?.();
        void api.gate.then(() => answer(req, res, raw));
      } else answer(req, res, raw);
    });
  });
  function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    if (api.extra?.(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!f.weakHeaders) {
      headers['x-content-type-options'] = 'nosniff';
      headers['cache-control'] = 'no-store';
    } else headers.server = 'Werkzeug/2.0.1 Python/3.9.7';
    const origin = req.headers.origin;
    if (f.corsReflect && origin) {
      headers['access-control-allow-origin'] = origin;
      if (f.corsCredentials) headers['access-control-allow-credentials'] = 'true';
      headers.vary = 'Origin';
    }
    const send = (status: number, body?: unknown, extra: Record<string, string> = {}) => {
      const answer = () => {
        res.writeHead(status, { ...headers, ...extra });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (f.delayMs > 0) setTimeout(answer, f.delayMs);
      else answer();
    };
    if (req.method === 'OPTIONS') {
      if (f.corsReflect && origin) return send(204, undefined, { 'access-control-allow-methods': 'GET,POST,PUT,DELETE' });
      return send(204);
    }
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(auth)?.[1];
    let userId: number | null = null;
    if (token && !revoked.has(token)) {
      if (token === users.alice.token) userId = 1;
      else if (token === users.bob.token) userId = 2;
      else if (f.anyToken) userId = 1;
    }
    const path = url.pathname;
    if (path === '/health' && req.method === 'GET') return send(200, { status: 'ok' });
    const publicRead = f.noAuth && req.method === 'GET' && path.startsWith('/pets');
    if (userId === null && publicRead) userId = 1;
    if (userId === null) return send(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
    if (path === '/me' && req.method === 'GET') return send(200, profiles[userId]);
    if (path === '/pets' && req.method === 'GET') return send(200, { items: [...pets.values()].filter((p) => p.owner === userId) });
    if (path === '/pets' && req.method === 'POST') {
      let body: Partial<Pet> = {};
      try {
        body = JSON.parse(raw || '{}') as Partial<Pet>;
      } catch {
        return send(400, { error: 'bad json' });
      }
      const pet: Pet = { id: nextId++, name: String(body.name ?? 'x'), tag: String(body.tag ?? ''), owner: userId };
      pets.set(pet.id, pet);
      createdBy.set(pet.id, userId);
      return send(201, pet, { location: `/pets/${pet.id}` });
    }
    const m = /^\/pets\/(\d+)$/.exec(path);
    if (m) {
      const pet = pets.get(Number(m[1]));
      if (!pet || pet.owner !== userId) return send(404, { error: 'not found' });
      if (req.method === 'GET') return send(200, pet);
      if (req.method === 'PUT') {
        let body: Partial<Pet> = {};
        try {
          body = JSON.parse(raw || '{}') as Partial<Pet>;
        } catch {
          return send(400, { error: 'bad json' });
        }
        pet.name = String(body.name ?? pet.name);
        return send(200, pet);
      }
      if (req.method === 'DELETE') {
        pets.delete(pet.id);
        return send(204);
      }
    }
    return send(404, { error: 'not found' });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api: MiniApi = {
    url: `http://127.0.0.1:${port}`,
    users,
    requests,
    createdBy,
    setFlaws: (change) => Object.assign(f, change),
    revoke: (t) => revoked.add(t),
    extra: null,
    gate: null,
    onHeld: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return api;
}

export const BEARER_SECURITY: ApiSecurity = { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] };

const petSchema = {
  type: 'object',
  properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', example: 'Rex' }, tag: { type: 'string' } },
  required: ['name'],
};

function ep(method: string, path: string, over: Partial<NewEndpoint> = {}): NewEndpoint {
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1]!, in: 'path' as const, required: true, schema: { type: 'integer' } }));
  return {
    method,
    path,
    summary: `${method} ${path}`,
    flags: ['BKEN_AUTH', 'SEC_MISC', 'IIM'],
    operation_id: null,
    tags: [],
    parameters: params,
    request_body: method === 'POST' || method === 'PUT' ? { required: true, content_type: 'application/json', schema: petSchema } : null,
    // What the API answers: 201 for a create, 204 for a delete, 200 otherwise.
    responses: { [method === 'POST' ? '201' : method === 'DELETE' ? '204' : '200']: { description: 'ok', content_type: method === 'DELETE' ? null : 'application/json', schema: method === 'DELETE' ? null : petSchema } },
    security: null,
    ...over,
  };
}

/** The mini API's endpoints as the importer would store them. */
export function miniApiEndpoints(): NewEndpoint[] {
  return [
    ep('GET', '/health', { security: [] }),
    ep('GET', '/me'),
    ep('GET', '/pets'),
    ep('POST', '/pets'),
    ep('GET', '/pets/{petId}'),
    ep('PUT', '/pets/{petId}'),
    ep('DELETE', '/pets/{petId}'),
  ];
}

export function miniApiInput(ownerId: string, baseUrl: string, endpoints: NewEndpoint[] = miniApiEndpoints()): NewApi {
  return {
    ownerId,
    name: 'Mini pets',
    baseUrl,
    sourceFormat: 'openapi-3.0',
    sourceFilename: 'mini.yaml',
    specVersion: '3.0.3',
    security: BEARER_SECURITY,
    endpoints,
  };
}

export type { Endpoint };
