// Test harness: a real core on a real SQLite file in a temp dir, reachable over real HTTP or through
// the IPC bridge, with a controllable clock and an in-memory log to assert on.
// PORTCULLIS_TEST_STORE switches a team server's store: `postgres` (a fresh database of a throwaway
// cluster per core) or `two-nodes` (two cores on one such database; transports alternate requests
// between them). The contract suite runs under all three (scripts/test-all.mjs).

import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import os from 'node:os';
import path from 'node:path';
import { TEST_SCRYPT_COST } from '../../electron/accounts/passwords';
import { manualClock } from '../../electron/clock';
import { createCore, type Core, type CoreOptions } from '../../electron/core';
import { createBridgeHandler, type IpcInvokeEventLike } from '../../electron/ipc-bridge';
import { createMemoryLogger } from '../../electron/log';
import { startServer, type RunningServer } from '../../electron/server';
import { freshDatabase } from './postgres';

/** Real scrypt with a test-sized cost; the OWASP cost is the default everywhere else. */
export const TEST_SCRYPT = TEST_SCRYPT_COST;

export const APP_ORIGIN = 'app://portcullis';

export function tempDir(prefix = 'portcullis-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export type TestStore = 'sqlite' | 'postgres' | 'two-nodes';

const TEST_STORES: readonly TestStore[] = ['sqlite', 'postgres', 'two-nodes'];

/** The store team-server cores of this run use (PORTCULLIS_TEST_STORE, default sqlite). */
export function testStore(): TestStore {
  const chosen = process.env.PORTCULLIS_TEST_STORE ?? 'sqlite';
  if (!(TEST_STORES as readonly string[]).includes(chosen)) throw new Error(`PORTCULLIS_TEST_STORE must be one of ${TEST_STORES.join(', ')}; got "${chosen}".`);
  return chosen as TestStore;
}

/** Every node of a shared database holds the same key (32 bytes, base64, as random as a hash); tests only. */
export const TEST_SHARED_SECRET_KEY = crypto.createHash('sha256').update('portcullis test shared secret key').digest('base64');

/** A new, empty database on this process's throwaway cluster (started on first use, stopped at exit). */
export const newTestDatabase = (): Promise<string> => freshDatabase('portcullis');

/** The database of a data dir, so a core started again on the same dir (a restart) finds its data. */
const databaseOfDir = new Map<string, string>();

/** A core's twin on the same database, when the run has two nodes. */
const twins = new WeakMap<Core, Core>();

export interface TestCore {
  core: Core;
  /** Every node of this server: [core] on one store, [core, twin] with two nodes. */
  nodes: Core[];
  clock: ReturnType<typeof manualClock>;
  log: ReturnType<typeof createMemoryLogger>;
  dataDir: string;
  close(): Promise<void>;
}

export async function createTestCore(
  overrides: Partial<CoreOptions> & { clock?: ReturnType<typeof manualClock> } = {},
): Promise<TestCore> {
  const dataDir = overrides.dataDir ?? tempDir();
  const clock = overrides.clock ?? manualClock(new Date('2026-03-02T10:00:00.000Z'));
  const log = createMemoryLogger('debug');
  const store = testStore();
  const shared = store !== 'sqlite' && (overrides.shell ?? 'server') === 'server' && overrides.databaseUrl === undefined;
  const options: CoreOptions = {
    shell: 'server',
    scryptCost: TEST_SCRYPT,
    // Every test user signs up from 127.0.0.1; the sign-up throttle's own test sets the real limit.
    signupThrottle: { maxFailures: 10_000, windowMs: 10 * 60 * 1000 },
    allowLocalScans: true,
    publicUrl: 'http://portcullis.test',
    // A worker thread per test core would cost every test file its start; the first import starts one.
    warmImportWorker: false,
    ...(shared ? { databaseUrl: databaseOfDir.get(dataDir) ?? (await newTestDatabase()) } : {}),
    ...(shared && overrides.secretKey === undefined && overrides.secretKeyFile === undefined ? { secretKey: TEST_SHARED_SECRET_KEY } : {}),
    ...overrides,
    dataDir,
    logger: log,
    clock,
  };
  if (options.databaseUrl && shared) databaseOfDir.set(dataDir, options.databaseUrl);
  const core = await createCore(options);
  const nodes = [core];
  const dirs = [dataDir];
  if (shared && store === 'two-nodes') {
    const twinDir = tempDir();
    const twin = await createCore({ ...options, dataDir: twinDir });
    twins.set(core, twin);
    nodes.push(twin);
    dirs.push(twinDir);
  }
  return {
    core,
    nodes,
    clock,
    log,
    dataDir,
    async close() {
      for (const node of nodes) await node.close();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Everything the store holds, as text: the SQLite file with its WAL checkpointed into it, or every
 * row of every table of the PostgreSQL database. For "no secret is stored in clear" checks.
 */
export async function storedText(core: Core): Promise<string> {
  const { sqlite } = core.store;
  if (sqlite) {
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return fs.readFileSync(core.config.dbFile).toString('latin1');
  }
  const { rows: tables } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`.execute(core.store.db);
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ text: string | null }>`SELECT string_agg(t::text, E'\n') AS text FROM ${sql.table(name)} t`.execute(core.store.db);
    parts.push(rows[0]?.text ?? '');
  }
  return parts.join('\n');
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw body (e.g. FormData); sent as is. */
  raw?: BodyInit;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
  /** The raw body (PDFs and other binary downloads). */
  body: Uint8Array;
}

/** One way to reach the core; the contract suite runs over each. */
export interface Transport {
  name: 'http' | 'ipc';
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  close(): Promise<void>;
}

async function toRequestParts(options: CallOptions): Promise<{ headers: Headers; body: BodyInit | undefined }> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  let body: BodyInit | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  return { headers, body };
}

async function result<T>(status: number, headers: Headers, body: Uint8Array): Promise<CallResult<T>> {
  const text = new TextDecoder().decode(body);
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, json: json as T, text, body };
}

/** One transport over a core and its twin: requests alternate between the two nodes, first the twin's. */
function alternating<T extends Transport>(first: T, second: T): T {
  let turn = 0;
  return {
    ...first,
    call(method, p, options) {
      turn += 1;
      return (turn % 2 ? second : first).call(method, p, options);
    },
    async close() {
      await first.close();
      await second.close();
    },
  };
}

export async function httpTransport(core: Core): Promise<Transport & { server: RunningServer }> {
  const twin = twins.get(core);
  // With two nodes, streams and raw sockets opened on `server` reach the core's node, while calls alternate.
  if (twin) return alternating(await httpTransportOf(core), await httpTransportOf(twin));
  return httpTransportOf(core);
}

async function httpTransportOf(core: Core): Promise<Transport & { server: RunningServer }> {
  const server = await startServer({ core, host: '127.0.0.1', port: 0, staticDir: null });
  return {
    name: 'http',
    server,
    async call(method, p, options = {}) {
      const { headers, body } = await toRequestParts(options);
      const res = await fetch(`${server.url}${p}`, { method, headers, body });
      return result(res.status, res.headers, new Uint8Array(await res.arrayBuffer()));
    },
    close: () => server.close(),
  };
}

export const TRUSTED_FRAME: IpcInvokeEventLike = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };

export function ipcTransport(core: Core): Transport {
  const twin = twins.get(core);
  return twin ? alternating(ipcTransportOf(core), ipcTransportOf(twin)) : ipcTransportOf(core);
}

function ipcTransportOf(core: Core): Transport {
  const handler = createBridgeHandler({ fetch: (req, info) => core.fetch(req, info), appOrigin: APP_ORIGIN });
  return {
    name: 'ipc',
    async call(method, p, options = {}) {
      const { headers, body } = await toRequestParts(options);
      // What the renderer's request() does: serialise the body to a string or bytes.
      const encoded = body === undefined ? undefined : new Request('http://x/', { method: 'POST', headers, body });
      if (encoded?.headers.get('content-type')) headers.set('content-type', encoded.headers.get('content-type')!);
      const bytes = encoded ? new Uint8Array(await encoded.arrayBuffer()) : null;
      const plain: Record<string, string> = {};
      headers.forEach((v, k) => {
        plain[k] = v;
      });
      const res = await handler(TRUSTED_FRAME, { method, path: p, headers: plain, body: bytes });
      return result(res.status, new Headers(res.headers), res.body);
    },
    close: async () => undefined,
  };
}

export async function openTransport(kind: 'http' | 'ipc', core: Core): Promise<Transport> {
  return kind === 'http' ? httpTransport(core) : ipcTransport(core);
}

let counter = 0;
export interface TestUser {
  id: string;
  token: string;
  email: string;
  username: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Signs a new user up and logs them in through the transport. */
export async function signUpAndLogin(t: Transport, name = 'user'): Promise<TestUser> {
  counter += 1;
  const suffix = `${name}${counter}${Math.random().toString(36).slice(2, 7)}`;
  const user = {
    firstName: 'Test',
    lastName: name.charAt(0).toUpperCase() + name.slice(1),
    email: `${suffix}@example.com`,
    username: suffix,
    password: 'Passw0rd!long',
  };
  const signup = await t.call('POST', '/api/auth/signup', { body: user });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  const login = await t.call<{ data: { token: string; user: { id: string } } }>('POST', '/api/auth/login', {
    body: { username: user.username, password: user.password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { ...user, id: login.json.data.user.id, token: login.json.data.token };
}
