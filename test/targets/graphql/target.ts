// startGraphqlTarget(): the City Library GraphQL API, vulnerable or hardened, on 127.0.0.1.

import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { introspectionFromSchema, type IntrospectionQuery, printSchema } from 'graphql';
import { UnsafeSql } from '../db';
import { FetchAllowlist, OutboundLog, UrlFetcher } from '../fetcher';
import { listenLocal, RequestLog } from '../http';
import { type GraphqlFlawId, type GraphqlTargetMode, resolveGraphqlFlaws } from './flaws';
import { type AttemptLimit, GraphqlHandler, type HttpReply } from './handler';
import { buildLibrarySchema, type LibraryServices, type ResetMessage } from './resolvers';
import { LibraryStore, newToken, seedLibrary } from './store';

export interface GraphqlTargetOptions {
  mode: GraphqlTargetMode;
  /** Per-flaw overrides on top of the mode: vulnerable = all on, hardened = all off. */
  flaws?: Partial<Record<GraphqlFlawId, boolean>>;
  /** Default 0 (ephemeral). The target always binds 127.0.0.1. */
  port?: number;
  /** Origins the hardened importBookCover may fetch: "http://127.0.0.1:4567", or "http://127.0.0.1:*" (any port but the target's own). */
  fetchAllowlist?: string[];
  /** Login and reset-code attempts per client. Default 10 per 60 s. */
  attemptLimit?: AttemptLimit;
}

export interface GraphqlTargetUser {
  id: number;
  username: string;
  password: string;
  /** Bearer token (Authorization: Bearer <key>), valid while the target runs. */
  key: string;
}

export interface GraphqlTarget {
  /** Origin, e.g. http://127.0.0.1:43121. */
  url: string;
  /** url + "/graphql". */
  endpoint: string;
  mode: GraphqlTargetMode;
  flaws: ReadonlySet<GraphqlFlawId>;
  has(id: GraphqlFlawId): boolean;
  /** The schema as SDL (printSchema). */
  sdl: string;
  /** The introspection result ({ __schema }) as introspectionFromSchema gives it. */
  introspection: IntrospectionQuery;
  users: { alice: GraphqlTargetUser; bob: GraphqlTargetUser; admin: GraphqlTargetUser };
  /** Every HTTP request received. */
  requests: RequestLog;
  /** Every URL importBookCover fetched or refused (SSRF evidence). */
  outbound: OutboundLog;
  /** Reset codes the library "sent". */
  outbox: readonly ResetMessage[];
  /** SQL statements run so far: how much work the queries caused. */
  sqlQueries(): number;
  allowFetchOrigin(origin: string): void;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
const LOOSE_BODY_LIMIT = 10 * 1024 * 1024;

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startGraphqlTarget(options: GraphqlTargetOptions): Promise<GraphqlTarget> {
  const flaws = resolveGraphqlFlaws(options.mode, options.flaws);
  const has = (id: GraphqlFlawId) => flaws.has(id);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'library-graphql-'));
  const dbFile = path.join(dir, 'library.db');
  const seeded = seedLibrary(dbFile);
  const store = new LibraryStore(dbFile);
  const outbound = new OutboundLog();
  const allowlist = new FetchAllowlist();
  for (const o of options.fetchAllowlist ?? []) allowlist.add(o);
  // The shop fetcher's own flaws stay off: importBookCover always passes its policy explicitly.
  const fetcher = new UrlFetcher(() => false, allowlist, outbound);
  const services: LibraryServices = {
    has,
    store,
    unsafe: new UnsafeSql(dbFile),
    fetcher,
    allowlist,
    sessions: new Map(),
    resetCodes: new Map(),
    outbox: [],
    notices: [],
  };
  const schema = buildLibrarySchema(services);
  const handler = new GraphqlHandler(schema, has, store, services.sessions, options.attemptLimit ?? { limit: 10, windowMs: 60_000 });
  const requests = new RequestLog();

  async function respond(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://127.0.0.1');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const record = requests.add({ method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.search.slice(1), headers, time: started });
    const body = await readBody(req, has('batching-limit') ? LOOSE_BODY_LIMIT : BODY_LIMIT);
    let out: HttpReply;
    if (body === undefined) out = { status: 413, body: { errors: [{ message: 'The request body is too large.' }] } };
    else {
      if (body.length) record.body = body.subarray(0, 4096).toString('utf8');
      out = await handler.handle(req, url, body);
    }
    const payload = Buffer.from(out.html ?? JSON.stringify(out.body));
    record.status = out.status;
    record.durationMs = Date.now() - started;
    res.writeHead(out.status, {
      'content-type': out.html === undefined ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
      'content-length': String(payload.length),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...out.headers,
    });
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  const server = http.createServer((req, res) => {
    respond(req, res).catch((e: unknown) => {
      // Nothing should get here; a bug in the target itself answers a bare 500.
      process.stderr.write(`graphql target: ${(e as Error).stack ?? String(e)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"errors":[{"message":"Internal server error"}]}');
    });
  });
  const cleanup = async () => {
    await services.unsafe.close();
    await fetcher.close();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let stopServer: () => Promise<void>;
  try {
    stopServer = await listenLocal(server, options.port);
  } catch (e) {
    await cleanup();
    throw e;
  }
  const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  allowlist.self = origin;

  // The default-password flaw: an administrator account left with the password it was installed with.
  if (has('default-password')) store.setRole(store.addMember('administrator', 'admin123', 'it@citylibrary.test').id, 'ADMIN');

  const users = {} as GraphqlTarget['users'];
  for (const m of seeded) {
    const key = newToken();
    services.sessions.set(key, m.id);
    users[m.username as keyof GraphqlTarget['users']] = { id: m.id, username: m.username, password: m.password, key };
  }

  let closed = false;
  return {
    url: origin,
    endpoint: `${origin}/graphql`,
    mode: options.mode,
    flaws,
    has,
    sdl: printSchema(schema),
    introspection: introspectionFromSchema(schema),
    users,
    requests,
    outbound,
    outbox: services.outbox,
    sqlQueries: () => store.queries,
    allowFetchOrigin: (o) => allowlist.add(o),
    async close() {
      if (closed) return;
      closed = true;
      await stopServer();
      await cleanup();
    },
  };
}
