// The notifier between nodes: in process on SQLite; on PostgreSQL, two notifiers on one database (two
// nodes) each deliver every payload once, in order, to their subscribers; a payload too large for
// NOTIFY is replaced by its stand-in; a LISTEN connection terminated by the server comes back. Scan
// events ride on it, in order, a too-large one as a reference the other node resolves.

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../../test/helpers/postgres';
import { createMemoryLogger } from '../log';
import { ScanEvents, type ScanEvent, type ScanFinishedEvent, type ScanProgressEvent } from '../scanner/events';
import { openStore, type OpenedStore } from './database';
import { createNotifier, createPostgresNotifier, LISTEN_APPLICATION_NAME, NOTIFY_MAX_BYTES, type Notifier, type NotifyOrigin } from './notify';

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

function recorder(notifier: Notifier) {
  const got: { payload: unknown; origin: NotifyOrigin }[] = [];
  const off = notifier.subscribe('scan_events', (payload, origin) => got.push({ payload, origin }));
  return { got, off };
}

describe('the notifier in process (SQLite)', () => {
  it('delivers to every local subscriber once, at once, and never after unsubscribing', async () => {
    const store = await openStore(':memory:');
    try {
      const notifier = await createNotifier({ store, databaseUrl: undefined, nodeId: 'solo', logger: createMemoryLogger() });
      const a = recorder(notifier);
      const b = recorder(notifier);
      notifier.subscribe('scan_events', () => {
        throw new Error('a broken listener');
      });
      const other: unknown[] = [];
      notifier.subscribe('session_ended', (p) => other.push(p));
      notifier.publish('scan_events', { n: 1 });
      expect(a.got).toEqual([{ payload: { n: 1 }, origin: 'local' }]);
      expect(b.got).toEqual([{ payload: { n: 1 }, origin: 'local' }]);
      expect(other).toEqual([]);
      a.off();
      notifier.publish('scan_events', { n: 2 }, { tooLarge: () => ({ never: 'used' }) });
      expect(a.got).toHaveLength(1);
      expect(b.got.map((g) => g.payload)).toEqual([{ n: 1 }, { n: 2 }]);
      await notifier.close();
    } finally {
      await store.close();
    }
  });
});

const skip = postgresSkipReason();

describe.skipIf(skip !== null)('the notifier on PostgreSQL (two nodes)', () => {
  let cluster: TestPostgres | null = null;
  const opened: { store: OpenedStore; notifier: Notifier }[] = [];
  afterAll(async () => {
    for (const { store, notifier } of opened) {
      await notifier.close();
      await store.close();
    }
    await cluster?.stop();
  });

  async function twoNodes(name: string) {
    cluster ??= await startPostgres();
    const url = await cluster.createDatabase(name);
    const nodes = [];
    for (const nodeId of ['node-a', 'node-b']) {
      const logger = createMemoryLogger();
      const store = await openStore(url, logger);
      const notifier = await createPostgresNotifier({ url, db: store.db, nodeId, logger, backoff: { firstMs: 20, maxMs: 200 } });
      opened.push({ store, notifier });
      nodes.push({ store, notifier, logger });
    }
    return { url, a: nodes[0]!, b: nodes[1]! };
  }

  it('delivers each payload once on both nodes, in the order published', async () => {
    const { a, b } = await twoNodes('notify_order');
    const onA = recorder(a.notifier);
    const onB = recorder(b.notifier);
    const sessions: NotifyOrigin[] = [];
    b.notifier.subscribe('session_ended', (_p, origin) => sessions.push(origin));
    for (let i = 0; i < 50; i++) a.notifier.publish('scan_events', { i });
    // Local delivery does not wait for the database.
    expect(onA.got).toHaveLength(50);
    a.notifier.publish('session_ended', {});
    await until(() => onB.got.length === 50 && sessions.length === 1, 'node b to hear all');
    await settle();
    expect(onA.got).toEqual(Array.from({ length: 50 }, (_, i) => ({ payload: { i }, origin: 'local' })));
    expect(onB.got).toEqual(Array.from({ length: 50 }, (_, i) => ({ payload: { i }, origin: 'remote' })));
    expect(sessions).toEqual(['remote']);
    // And the other way round.
    b.notifier.publish('scan_events', { from: 'b' });
    await until(() => onA.got.length === 51, 'node a to hear b');
    await settle();
    expect(onA.got.at(-1)).toEqual({ payload: { from: 'b' }, origin: 'remote' });
    expect(onB.got).toHaveLength(51);
  });

  it('sends the stand-in of a payload too large for NOTIFY, or nothing', async () => {
    const { a, b } = await twoNodes('notify_large');
    const onA = recorder(a.notifier);
    const onB = recorder(b.notifier);
    const big = { text: 'x'.repeat(NOTIFY_MAX_BYTES) };
    a.notifier.publish('scan_events', big, { tooLarge: () => ({ ref: 'big-1' }) });
    a.notifier.publish('scan_events', big);
    a.notifier.publish('scan_events', { after: true });
    await until(() => onB.got.length === 2, 'node b to hear the stand-in and the next one');
    await settle();
    expect(onB.got.map((g) => g.payload)).toEqual([{ ref: 'big-1' }, { after: true }]);
    expect(onA.got.map((g) => g.payload)).toEqual([big, big, { after: true }]);
    expect(a.logger.lines.some((l) => l.includes('too large for the other nodes'))).toBe(true);
  });

  it('comes back after its LISTEN connection is terminated, and says so without the password', async () => {
    const { url, a, b } = await twoNodes('notify_reconnect');
    const password = decodeURIComponent(new URL(url).password);
    const onA = recorder(a.notifier);
    const onB = recorder(b.notifier);
    const back: string[] = [];
    a.notifier.onReconnect(() => back.push('a'));
    b.notifier.onReconnect(() => back.push('b'));
    const { rows } = await sql<{ pid: number }>`SELECT pg_terminate_backend(pid) AS ok, pid FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${LISTEN_APPLICATION_NAME}`.execute(a.store.db);
    expect(rows).toHaveLength(2);
    await until(() => back.length === 2, 'both listeners to reconnect');
    expect(back.sort()).toEqual(['a', 'b']);
    a.notifier.publish('scan_events', { after: 'reconnect' });
    b.notifier.publish('scan_events', { after: 'reconnect', from: 'b' });
    await until(() => onB.got.length === 2 && onA.got.length === 2, 'both to hear both');
    await settle();
    expect(onB.got).toEqual([
      { payload: { after: 'reconnect', from: 'b' }, origin: 'local' },
      { payload: { after: 'reconnect' }, origin: 'remote' },
    ]);
    expect(onA.got).toHaveLength(2);
    const lines = [...a.logger.lines, ...b.logger.lines];
    expect(lines.some((l) => l.includes('notifications connection to PostgreSQL dropped'))).toBe(true);
    expect(lines.some((l) => l.includes('notifications connection to PostgreSQL is back'))).toBe(true);
    expect(lines.join('\n')).not.toContain(password);
  });

  it('carries scan events to the other node in order, a too-large one as a reference', async () => {
    const { a, b } = await twoNodes('notify_scan_events');
    const longReason = `The scan stopped: ${'r'.repeat(NOTIFY_MAX_BYTES)}`;
    const onA = new ScanEvents({ notifier: a.notifier });
    const onB = new ScanEvents({ notifier: b.notifier, failureReasonOf: async (id) => (id === 'scan-1' ? longReason : null) });
    const gotA: ScanEvent[] = [];
    const gotB: ScanEvent[] = [];
    onA.subscribe((e) => gotA.push(e));
    onB.subscribe((e) => gotB.push(e));
    const ids = { scanId: 'scan-1', apiId: 'api-1', userId: 'user-1' };
    const progress = (done: number): ScanProgressEvent => ({ type: 'scan:progress', ...ids, done, total: 10, requestsSent: done * 3, findings: 0, current: { check: 'BOLA', endpoint: done === 5 ? `GET /${'p'.repeat(NOTIFY_MAX_BYTES)}` : 'GET /pets' } });
    const finished: ScanFinishedEvent = { type: 'scan:finished', ...ids, status: 'failed', failureReason: longReason, findings: 2, score: null };
    for (let done = 1; done <= 10; done++) onA.emit(progress(done));
    onA.emit(finished);
    // Something not a scan event on the channel is dropped.
    a.notifier.publish('scan_events', { type: 'scan:finished', scanId: 1 });
    await until(() => gotB.length === 11, 'node b to get every event');
    await settle();
    expect(gotA.slice(0, 11)).toEqual([...Array.from({ length: 10 }, (_, i) => progress(i + 1)), finished]);
    expect(gotB).toEqual([...Array.from({ length: 10 }, (_, i) => (i + 1 === 5 ? { ...progress(5), current: null } : progress(i + 1))), finished]);
  });
});
