import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../log';
import { createDatabaseHealth, databaseTroubleOf, markDatabaseError, troubleOf } from './health';

/** A real refused connection: pg to a port nothing listens on. */
async function refusedConnection(): Promise<unknown> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((r) => probe.close(r));
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
  return client.connect().then(
    () => new Error('connected'),
    (err: unknown) => err,
  );
}

describe('database trouble', () => {
  it('tells an unreachable database and a full pool from other errors', async () => {
    expect(troubleOf(await refusedConnection())).toBe('unavailable');
    expect(troubleOf(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(troubleOf(new Error('Client has encountered a connection error and is not queryable'))).toBe('unavailable');
    expect(troubleOf(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('unavailable');
    expect(troubleOf(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe('unavailable');
    expect(troubleOf(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe('unavailable');
    expect(troubleOf(new Error('timeout exceeded when trying to connect'))).toBe('busy');
    expect(troubleOf(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe('busy');
    expect(troubleOf(new Error('wrapped', { cause: new Error('Connection terminated due to connection timeout') }))).toBe('unavailable');
    // Not the database's: a constraint, a syntax error, a plain bug.
    expect(troubleOf(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBeNull();
    expect(troubleOf(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeNull();
    expect(troubleOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
  });

  it("counts for a request only when the store's pool handed the error on", async () => {
    const refused = await refusedConnection();
    // The mail server refusing a connection is not the database's trouble.
    expect(databaseTroubleOf(refused)).toBeNull();
    expect(databaseTroubleOf(markDatabaseError(refused))).toBe('unavailable');
    expect(databaseTroubleOf(new Error('while saving', { cause: refused }))).toBe('unavailable');
    expect(databaseTroubleOf(markDatabaseError(Object.assign(new Error('duplicate key value'), { code: '23505' })))).toBeNull();
  });

  it('logs an outage once when it starts and once when it ends, never the password', () => {
    const logger = createMemoryLogger('debug');
    const health = createDatabaseHealth(logger, 'db.internal:5432', (t) => t.replaceAll('s3cret', '***'));
    health.answered();
    expect(health.failed(new Error('timeout exceeded when trying to connect'))).toBe('busy');
    expect(health.down).toBe(false);
    for (let i = 0; i < 50; i += 1) expect(health.failed(new Error('Connection terminated unexpectedly (s3cret)'))).toBe('unavailable');
    expect(health.down).toBe(true);
    health.answered();
    health.answered();
    expect(health.down).toBe(false);
    health.failed(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    health.answered();
    expect(logger.lines.filter((l) => l.includes('The database is unreachable'))).toHaveLength(2);
    expect(logger.lines.filter((l) => l.includes('The database is reachable again'))).toHaveLength(2);
    expect(logger.lines.join('\n')).not.toContain('s3cret');
    expect(logger.lines[0]).toContain('server=db.internal:5432');
  });
});
