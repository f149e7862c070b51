// Test harness: a real core on a real SQLite file in a temp dir, reachable over real HTTP or through
// the IPC bridge, with a controllable clock and an in-memory log to assert on.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../../electron/clock';
import { createCore, type Core, type CoreOptions } from '../../electron/core';
import { createBridgeHandler, type IpcInvokeEventLike } from '../../electron/ipc-bridge';
import { createMemoryLogger } from '../../electron/log';
import { startServer, type RunningServer } from '../../electron/server';

/** Real scrypt with a test-sized cost; the OWASP cost is the default everywhere else. */
export const TEST_SCRYPT = { N: 2 ** 12, r: 8, p: 1 };

export const APP_ORIGIN = 'app://portcullis';

export function tempDir(prefix = 'portcullis-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestCore {
  core: Core;
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
  const core = await createCore({
    shell: 'server',
    scryptCost: TEST_SCRYPT,
    // Every test user signs up from 127.0.0.1; the sign-up throttle's own test sets the real limit.
    signupThrottle: { maxFailures: 10_000, windowMs: 10 * 60 * 1000 },
    allowLocalScans: true,
    publicUrl: 'http://portcullis.test',
    ...overrides,
    dataDir,
    logger: log,
    clock,
  });
  return {
    core,
    clock,
    log,
    dataDir,
    async close() {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

export async function httpTransport(core: Core): Promise<Transport & { server: RunningServer }> {
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
