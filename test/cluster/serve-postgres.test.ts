// `portcullis serve` on PostgreSQL as an administrator meets it (issue 19): it refuses to start, with one
// clear line and never the password, when the database is unreachable, migrated by a newer version, or
// no shared secret key is given; two nodes on one database answer /api/health, share sign-ins, and a
// scan started on one node streams its events to a browser connected to the other.

import fs from 'node:fs';
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/store/database';
import { newTestDatabase, TEST_SHARED_SECRET_KEY, tempDir } from '../helpers/core';
import { openEventStream } from '../helpers/event-stream';
import { startMiniApi, type MiniApi } from '../helpers/mini-api';
import { postgresSkipReason } from '../helpers/postgres';
import { callServe, startServe, type ServeProcess } from '../helpers/serve-process';

const call = callServe;

/** What a serve that refuses to start printed (startServe rejects with its output). */
async function refusal(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const node = await startServe(args, env);
    await node.stop();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('serve started');
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'serve on PostgreSQL', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = tempDir('portcullis-serve-pg-');
    dirs.push(d);
    return d;
  };
  let databaseUrl: string;
  let target: MiniApi;
  const nodes: ServeProcess[] = [];
  const env = () => ({ PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY, PORTCULLIS_ALLOW_LOCAL_SCANS: '1', PORTCULLIS_DATABASE_URL: databaseUrl });

  beforeAll(async () => {
    databaseUrl = await newTestDatabase();
    target = await startMiniApi({ anyToken: true, delayMs: 20 });
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await target?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('refuses an unreachable database in one line, naming host and port but not the password', async () => {
    const port = await freePort();
    const password = 'hunter2-do-not-print';
    const out = await refusal(['--port', '0', '--data-dir', dir()], { PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY, PORTCULLIS_DATABASE_URL: `postgres://portcullis:${password}@127.0.0.1:${port}/portcullis` });
    expect(out).toContain(`Cannot reach the PostgreSQL database at 127.0.0.1:${port}`);
    expect(out).not.toContain(password);
    expect(out).not.toContain(encodeURIComponent(password));
  });

  it('refuses to start without a secret key every node shares', async () => {
    const out = await refusal(['--port', '0', '--data-dir', dir(), '--database-url', databaseUrl], { PORTCULLIS_SECRET_KEY: '', PORTCULLIS_SECRET_KEY_FILE: '' });
    expect(out).toContain('A team server on PostgreSQL needs its secret key given from outside');
    expect(out).toContain('PORTCULLIS_SECRET_KEY');
  });

  it('refuses a --database-url that is not a PostgreSQL URL', async () => {
    const out = await refusal(['--port', '0', '--data-dir', dir(), '--database-url', 'mysql://db/portcullis'], { PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY });
    expect(out).toContain('--database-url must be a postgres:// or postgresql:// URL.');
  });

  it('runs two nodes as one server: health, sign-in on either, a scan started on one watched on the other', async () => {
    nodes.push(await startServe(['--port', '0', '--data-dir', dir()], env()));
    nodes.push(await startServe(['--port', '0', '--data-dir', dir()], env()));
    const [a, b] = nodes as [ServeProcess, ServeProcess];
    expect(a.stdout()).toMatch(/Database: PostgreSQL at 127\.0\.0\.1:\d+ \(node /);
    expect(a.stdout() + a.stderr()).not.toContain(new URL(databaseUrl).password);
    for (const node of [a, b]) expect(await call(node, 'GET', '/api/health')).toEqual({ status: 200, json: { success: true, message: 'The database is reachable.', data: { database: 'reachable', store: 'postgres' } } });

    // Signed up on A, signed in on B; the session works on both.
    const user = { firstName: 'Two', lastName: 'Nodes', email: 'two@example.com', username: 'two_nodes', password: 'Passw0rd!long' };
    expect((await call(a, 'POST', '/api/auth/signup', undefined, user)).status).toBe(201);
    const login = await call<{ token: string }>(b, 'POST', '/api/auth/login', undefined, { username: user.username, password: user.password });
    expect(login.status).toBe(200);
    const token = login.json.data.token;
    const made = await call<{ api: { id: string } }>(a, 'POST', '/api/apis/manual', token, {
      name: 'Pets',
      base_url: target.url,
      endpoints: [
        { method: 'GET', path: '/pets' },
        { method: 'GET', path: '/pets/{petId}' },
      ],
    });
    expect(made.status, made.json.message).toBe(201);
    expect((await call<{ apis: unknown[] }>(b, 'GET', '/api/apis', token)).json.data.apis).toHaveLength(1);

    // The browser's stream is on B; the scan is created and started on A, its key stored by A.
    const stream = await openEventStream(b.url, token);
    await expect.poll(() => stream.events.some((e) => e.event === 'ready'), { timeout: 10_000 }).toBe(true);
    const created = await call<{ scan_id: string }>(a, 'POST', '/api/scan/create', token, { api_id: made.json.data.api.id, scan_profile: 'owasp', api_key_1: target.users.alice.token });
    expect(created.status, created.json.message).toBe(201);
    const started = await call<{ scan_id: string }>(a, 'POST', '/api/scan/start', token, { api_id: made.json.data.api.id, scan_id: created.json.data.scan_id });
    expect(started.status, started.json.message).toBe(200);
    const scanId = started.json.data.scan_id;
    await expect.poll(() => stream.events.some((e) => e.event === 'scan:finished' && (e.data as { scanId: string }).scanId === scanId), { timeout: 60_000, interval: 100 }).toBe(true);
    expect(stream.events.some((e) => e.event === 'scan:progress' && (e.data as { scanId: string }).scanId === scanId)).toBe(true);
    expect(stream.events.find((e) => e.event === 'scan:finished')!.data).toMatchObject({ scanId, status: 'completed' });
    expect(JSON.stringify(stream.events)).not.toContain(target.users.alice.token);
    // B reads what A wrote.
    expect((await call<{ status: string }>(b, 'POST', '/api/scan/details', token, { scan_id: scanId })).json.data.status).toBe('completed');

    // A retry on B decrypts the key A stored (one secret key on every node).
    const store = await openStore(databaseUrl);
    try {
      await sql`UPDATE scans SET status = 'failed', failure_reason = 'test' WHERE id = ${scanId}`.execute(store.db);
    } finally {
      await store.close();
    }
    const retried = await call<{ scan_id: string }>(b, 'POST', '/api/scan/retry', token, { scan_id: scanId });
    expect(retried.status, retried.json.message).toBe(200);
    await expect.poll(async () => (await call<{ status: string }>(a, 'POST', '/api/scan/details', token, { scan_id: retried.json.data.scan_id })).json.data.status, { timeout: 60_000, interval: 200 }).toBe('completed');
    stream.close();

    // A newer version migrated the database: a node of this version refuses to start.
    const admin = await openStore(databaseUrl);
    try {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('999-from-the-future', ${new Date().toISOString()})`.execute(admin.db);
    } finally {
      await admin.close();
    }
    const out = await refusal(['--port', '0', '--data-dir', dir()], env());
    expect(out).toContain('The database was migrated by a newer Portcullis (999-from-the-future): upgrade this node');
  }, 120_000);
});
