// Issue 30 item 4: a `portcullis serve` node on PostgreSQL lives through database outages. The cluster
// is stopped under the node (fast shutdown, then an immediate one, as a crash) while requests keep
// coming: the process stays up, answers 503 with Retry-After and a short JSON message (never 500 with a
// stack), logs each outage once and its end once, and answers 200 again once the database is back.
// Before, a connection lost under a query in flight emitted an 'error' no one listened to and the
// process ended ("Unhandled 'error' event … Connection terminated unexpectedly"), and requests that
// did get an answer got 500 with a stack in the log.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SHARED_SECRET_KEY, tempDir } from '../helpers/core';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../helpers/postgres';
import { startServe, type ServeProcess } from '../helpers/serve-process';

const OUTAGE_LINE = 'The database is unreachable';
const BACK_LINE = 'The database is reachable again';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
  /** When the request was sent and when its answer came (ms, performance.now()). */
  sent?: number;
  came?: number;
}

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(skip ?? 'serve through PostgreSQL outages', () => {
  let cluster: TestPostgres;
  let node: ServeProcess;
  let dataDir: string;
  let token: string;

  const call = async (method: string, path: string, body?: unknown, auth = true): Promise<Answer> => {
    const res = await fetch(`${node.url}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(auth ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };

  /** Requests of every kind, over and over, until `stop` is called: what a busy node sees. */
  function traffic(): { answers: Answer[]; stop: () => Promise<void> } {
    const answers: Answer[] = [];
    let running = true;
    const calls = [
      () => call('GET', '/api/apis'),
      () => call('GET', '/api/user/profile'),
      () => call('POST', '/api/auth/login', { username: 'outage', password: 'wrong password' }, false),
      () => call('POST', '/api/auth/login', { username: 'outage', password: 'Outage2026!' }, false),
    ];
    const loops = calls.map(async (once) => {
      while (running) {
        const sent = performance.now();
        const answer = await once().catch((err: Error): Answer => ({ status: 0, retryAfter: null, body: String(err.cause ?? err) }));
        answers.push({ ...answer, sent, came: performance.now() });
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    return {
      answers,
      stop: async () => {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  const count = (text: string, line: string) => text.split('\n').filter((l) => l.includes(line)).length;

  beforeAll(async () => {
    cluster = await startPostgres();
    const databaseUrl = await cluster.createDatabase('outage');
    dataDir = tempDir('portcullis-outage-');
    // A short lease: the scan sweep runs every second, so the outage meets timers as well as requests.
    node = await startServe(['--port', '0', '--data-dir', dataDir], { PORTCULLIS_DATABASE_URL: databaseUrl, PORTCULLIS_SECRET_KEY: TEST_SHARED_SECRET_KEY, PORTCULLIS_SCAN_LEASE_MS: '2000' });
    const user = { firstName: 'Out', lastName: 'Age', email: 'outage@example.com', username: 'outage', password: 'Outage2026!' };
    expect((await call('POST', '/api/auth/signup', user, false)).status).toBe(201);
    const login = await call('POST', '/api/auth/login', { username: user.username, password: user.password }, false);
    token = (JSON.parse(login.body) as { data: { token: string } }).data.token;
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await cluster?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['fast', 'immediate'] as const)('stays up through a %s shutdown of the database, answers 503 meanwhile, and serves again once it is back', async (mode) => {
    const logBefore = node.stderr().length;
    let stream: EventStream | null = await openEventStream(node.url, token);
    const load = traffic();
    await new Promise((r) => setTimeout(r, 300));
    await cluster.halt(mode);
    const haltedAt = performance.now();
    // Long enough for requests, the pool, the notification connection and the sweeps to all meet it.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(node.child.exitCode, node.stderr().slice(logBefore)).toBeNull();
    const resumedAt = performance.now();
    // Sent after the database went down and answered before it came back (sign-ins sent before it
    // went down may still be hashing, and end as they would have).
    const during = load.answers.filter((a) => a.sent! > haltedAt && a.came! < resumedAt);
    await cluster.resume();
    await expect.poll(async () => (await call('GET', '/api/apis')).status, { timeout: 20_000, interval: 250 }).toBe(200);
    await load.stop();
    stream.close();
    stream = null;

    expect(node.child.exitCode, node.stderr().slice(logBefore)).toBeNull();
    expect(during.length).toBeGreaterThan(20);
    for (const a of during) {
      expect(a.status, a.body).toBe(503);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
      const json = JSON.parse(a.body) as { success: boolean; message: string };
      expect(json.success).toBe(false);
      expect(json.message).toMatch(/database/i);
      expect(a.body).not.toMatch(/\bat .*\.(js|ts):\d+/);
    }
    // Not one of those answers was a 500, before, during or after.
    expect(load.answers.filter((a) => a.status === 500 || a.status === 0)).toEqual([]);

    const log = node.stderr().slice(logBefore);
    expect(count(log, OUTAGE_LINE), log).toBe(1);
    expect(count(log, BACK_LINE), log).toBe(1);
    expect(log).not.toContain('Unhandled');
    expect(log).not.toMatch(/\n\s+at /);
    // Quiet: a line or two per component at most, not a line per request or per tick.
    expect(log.split('\n').filter((l) => / (WARN|ERROR) /.test(l)).length, log).toBeLessThanOrEqual(6);

    // Service resumed: sign-ins, sessions and writes work again.
    expect((await call('POST', '/api/auth/login', { username: 'outage', password: 'Outage2026!' }, false)).status).toBe(200);
    expect((await call('GET', '/api/user/profile')).status).toBe(200);
    const again = await openEventStream(node.url, token);
    again.close();
  }, 90_000);
});
