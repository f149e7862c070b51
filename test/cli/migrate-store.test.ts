// `portcullis migrate-store` (issue 19): a team server's SQLite data dir, filled through the real core
// and its routes, is copied into a fresh PostgreSQL database of the throwaway cluster; every table's
// rows arrive as they were, a core on PostgreSQL signs the same users in, decrypts the same stored key
// and inserts past the copied ids. Refusals: bad arguments, no database, a locked data dir, a newer
// database, an unreachable or wrong target (never echoing the password), a target holding data, and a
// copy whose counts differ (rolled back).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../electron/cli';
import { manualClock } from '../../electron/clock';
import { createCore } from '../../electron/core';
import { createMemoryLogger } from '../../electron/log';
import { KEY_FILE } from '../../electron/secrets/encrypted';
import { isBookkeepingTable, PG_MAX_PARAMETERS, rowsPerInsert } from '../../electron/store/copy-to-postgres';
import { migrationProvider, openSqlite, openStore, type Db } from '../../electron/store/database';
import { sqliteDialect } from '../../electron/store/dialect';
import type { NewFinding } from '../../electron/store/findings';
import { bundle, ROOT } from '../helpers/bundle';
import { createTestCore, openTransport, signUpAndLogin, tempDir, TEST_SCRYPT, type TestUser, type Transport } from '../helpers/core';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../helpers/postgres';
import { seedApi, seedScan } from '../helpers/seed';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T };
type Row = Record<string, unknown>;

const skip = postgresSkipReason();
const dirs: string[] = [];
function freshDir(): string {
  const d = tempDir('portcullis-migrate-');
  dirs.push(d);
  return d;
}

/** Runs `portcullis <args>` in this process, as bin/portcullis.js does, with its output. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

function finding(scanId: string, apiId: string, name: string, severity: 'high' | 'medium' | 'info', cvss: number): NewFinding {
  return {
    scan_id: scanId,
    api_id: apiId,
    check_id: `check-${name}`,
    vulnerability_name: name,
    severity,
    confidence: 'high',
    owasp: 'API8:2023',
    cwe: 'CWE-89',
    description: `${name} — naïve “quotes” 'single' \\ back\\slash 🚀`,
    recommendation: 'Fix it.',
    cvss_score: cvss,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    method: 'GET',
    path: `/items/${name}`,
    parameter: null,
    evidence: 'Method: GET\nPath: /items\n{"json": [1, 2.5, null]}',
    curl: "curl -H 'X: y' https://api.example.com",
    references: ['https://owasp.org/'],
    fingerprint: `fp-${name}`,
    trend: 'new',
  };
}

/** Every row of a table, each with its keys sorted, as sorted JSON lines: equal lists are equal tables. */
function canonical(rows: Row[]): string[] {
  return rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))).sort();
}

function sqliteTables(file: string): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name).filter((n) => !isBookkeepingTable(n));
  } finally {
    db.close();
  }
}

function sqliteRows(file: string, table: string): Row[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare(`SELECT * FROM "${table}"`).all() as Row[];
  } finally {
    db.close();
  }
}

async function pgRows(db: Db, table: string): Promise<Row[]> {
  return (await sql<Row>`SELECT * FROM ${sql.table(table)}`.execute(db)).rows;
}

/** The tables the fixture fills; the test checks every one holds rows, so each is really copied. */
const FILLED = [
  'users',
  'identities',
  'sessions',
  'password_resets',
  'user_preferences',
  'user_profiles',
  'apis',
  'endpoints',
  'endpoint_flags',
  'scans',
  'findings',
  'finding_triage',
  'schedules',
  'shares',
  'login_events',
  'secrets',
  'recovery_codes',
  'mfa_challenges',
  'throttle_failures',
];
const THROTTLE_ROWS = 2_500;
const SECRET_VALUE = JSON.stringify({ v: 2, identities: [{ role: 'user', key: 'sk_live_copied-scan-key' }] });

interface Fixture {
  dataDir: string;
  dbFile: string;
  owner: TestUser;
  scanIds: string[];
  /** login_events' AUTOINCREMENT high mark: its last row was deleted, the id must never come back. */
  deletedLoginEventId: number;
}

/** A team server's data dir with a row in every table, made through the core's routes where there is one. */
async function buildFixture(): Promise<Fixture> {
  const dataDir = freshDir();
  const tc = await createTestCore({ dataDir, clock: manualClock(new Date('2026-03-02T10:00:00.000Z')) });
  const t: Transport = await openTransport('http', tc.core);
  const db = tc.core.store.db;
  const now = tc.clock.now().toISOString();
  try {
    const owner = await signUpAndLogin(t, 'owner');
    const reader = await signUpAndLogin(t, 'reader');
    await signUpAndLogin(t, 'other');
    expect((await t.call('POST', '/api/auth/login', { body: { username: owner.username, password: 'wrong-password-1' } })).status).toBe(401);
    expect((await t.call('POST', '/api/auth/forgot-password', { body: { email: reader.email } })).status).toBe(200);
    expect((await t.call('PUT', '/api/user/preferences', { token: owner.token, body: { preferences: { security: { sessionTimeout: '120' } } } })).status).toBe(200);
    expect((await t.call('PUT', '/api/user/extended-profile', { token: owner.token, body: { company: 'Acmé 🚀', bio: 'Line one\nline "two"' } })).status).toBe(200);

    const manual = await t.call<Json<{ api: { id: string } }>>('POST', '/api/apis/manual', {
      token: owner.token,
      body: { name: 'Shop API', base_url: 'https://api.example.com', endpoints: Array.from({ length: 12 }, (_, i) => ({ method: i % 2 ? 'POST' : 'GET', path: `/items/${i}` })) },
    });
    expect(manual.status, manual.text).toBe(201);
    const apiId = manual.json.data.api.id;
    expect((await t.call('POST', '/api/endpoints/flags/bulk', { token: owner.token, body: { api_id: apiId, flags: 'SKIP', on: true } })).status).toBe(200);
    expect((await t.call('POST', '/api/apis/share', { token: owner.token, body: { api_id: apiId, email: reader.email, permission: 'read' } })).status).toBe(201);
    const schedule = await t.call('POST', '/api/scans/schedule', { token: owner.token, body: { api_id: apiId, frequency: 'daily', is_enabled: true } });
    expect(schedule.status, schedule.text).toBe(200);

    const scanIds: string[] = [];
    for (const minutes of [1, 2]) {
      const at = new Date(tc.clock.now().getTime() - (10 - minutes) * 60_000).toISOString();
      const scanId = await seedScan(db, apiId, owner.id, { status: 'completed', created_at: at, completed_at: at, score: 61 });
      for (const [name, severity, cvss] of [
        ['sqli', 'high', 9.8],
        ['idor', 'high', 8.1],
        ['headers', 'medium', 5.3],
        ['banner', 'info', 0],
        ['float', 'medium', 0.1 + 0.2],
      ] as const) {
        await tc.core.services.repos.findings.insert(finding(scanId, apiId, name, severity, cvss), tc.clock.now());
      }
      scanIds.push(scanId);
    }
    const details = await t.call<Json<{ results: { results: { id: string; fingerprint: string }[] } }>>('POST', '/api/scan/details', { token: owner.token, body: { scan_id: scanIds[1] } });
    const idor = details.json.data.results.results.find((f) => f.fingerprint === 'fp-idor')!;
    const triage = await t.call('POST', '/api/findings/triage', { token: owner.token, body: { finding_id: idor.id, state: 'false_positive', reason: 'Checked by hand' } });
    expect(triage.status, triage.text).toBe(200);
    await tc.core.services.secrets.set(`scan:${scanIds[1]}`, SECRET_VALUE);
    await db.updateTable('scans').set({ secret_ref: `scan:${scanIds[1]}` }).where('id', '=', scanIds[1]!).execute();

    // Tables without a route a test can reach (identity-provider sign-in, 2FA), written as their repositories would.
    await db.insertInto('identities').values({ user_id: owner.id, issuer: 'https://accounts.google.com', subject: '1234567890', created_at: now }).execute();
    await db.insertInto('recovery_codes').values({ user_id: owner.id, code_hash: 'scrypt$abc', used_at: null, created_at: now }).execute();
    await db
      .insertInto('mfa_challenges')
      .values({ id: 'challenge-1', user_id: owner.id, token_hash: 'hash', method: 'password', client: null, ip: '127.0.0.1', created_at: now, expires_at: now })
      .execute();
    // Enough rows for several insert batches; epoch milliseconds past int4.
    const base = Date.parse(now);
    for (let i = 0; i < THROTTLE_ROWS; i += 500) {
      await db
        .insertInto('throttle_failures')
        .values(Array.from({ length: 500 }, (_, j) => ({ key: `client:10.0.${(i + j) % 256}.1`, at: base - (i + j) * 1000 })))
        .execute();
    }
    // A deleted last row leaves SQLite's AUTOINCREMENT mark past max(id): PostgreSQL must not hand that id out again.
    const extra = await db.insertInto('login_events').values({ user_id: owner.id, created_at: now, client: 'web', ip: '10.0.0.9', method: 'password' }).returning('id').executeTakeFirstOrThrow();
    await db.deleteFrom('login_events').where('id', '=', extra.id).execute();
    return { dataDir, dbFile: path.join(dataDir, 'portcullis.db'), owner, scanIds, deletedLoginEventId: extra.id };
  } finally {
    await t.close();
    await tc.core.close();
  }
}

let pg: TestPostgres;
let fixture: Fixture;
let databases = 0;
const freshDatabase = () => pg.createDatabase(`migrate_${++databases}`);

beforeAll(async () => {
  if (skip) return;
  pg = await startPostgres();
  fixture = await buildFixture();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe.skipIf(skip)('portcullis migrate-store', () => {
  it('copies every table of the data dir exactly, and a core on PostgreSQL carries on with it', async () => {
    const url = await freshDatabase();
    const tables = sqliteTables(fixture.dbFile);
    for (const table of FILLED) expect(tables, table).toContain(table);
    const before = Object.fromEntries(tables.map((t) => [t, canonical(sqliteRows(fixture.dbFile, t))]));
    for (const table of FILLED) expect(before[table]!.length, `${table} has rows in the fixture`).toBeGreaterThan(0);

    const res = await cli('migrate-store', '--from', fixture.dataDir, '--to', url);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    // A line per table with both counts, progress of the big one, the total, the key's reminder.
    for (const table of tables) expect(res.stdout).toMatch(new RegExp(`^  ${table} +${before[table]!.length} → ${before[table]!.length}$`, 'm'));
    expect(res.stdout).toMatch(/^ {2}users +3 → 3$/m);
    const throttleRows = before.throttle_failures!.length;
    expect(throttleRows).toBeGreaterThan(THROTTLE_ROWS);
    expect(res.stdout).toContain(`  throttle_failures: ${throttleRows} rows\n  throttle_failures: 1000/${throttleRows}\n  throttle_failures: 2000/${throttleRows}\n`);
    expect(res.stdout).toContain('  users: 3 rows\n');
    expect(res.stdout).toContain('  secrets: 1 row\n');
    expect(res.stdout).toContain('Row counts (SQLite → PostgreSQL):\n');
    const total = Object.values(before).reduce((n, rows) => n + rows.length, 0);
    expect(res.stdout).toContain(`Copied ${total} rows into PostgreSQL; counts verified.`);
    expect(res.stdout).toContain(path.join(fixture.dataDir, KEY_FILE));
    expect(res.stdout).not.toContain(new URL(url).password);
    // The source is left as it was, unlocked.
    expect(Object.fromEntries(tables.map((t) => [t, canonical(sqliteRows(fixture.dbFile, t))]))).toEqual(before);
    expect(fs.existsSync(path.join(fixture.dataDir, 'portcullis.lock'))).toBe(false);

    const target = await openStore(url);
    try {
      // Every row of every table, value for value (text ids, ISO times, JSON text, 0/1, epoch ms, floats).
      for (const table of tables) expect(canonical(await pgRows(target.db, table)), table).toEqual(before[table]);
      const { rows: pgTables } = await sql<{ t: string }>`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema()`.execute(target.db);
      expect(pgTables.map((r) => r.t).filter((t) => !isBookkeepingTable(t)).sort()).toEqual([...tables].sort());
      // Kysely's migration table is the target's own, not a copy.
      const { rows: applied } = await sql<{ n: number }>`SELECT count(*) AS n FROM kysely_migration`.execute(target.db);
      expect(applied[0]!.n).toBeGreaterThan(0);
      // The counts the triggers keep are the source's: the copy did not count the findings again.
      const { rows: counts } = await sql<{ id: string; findings_count: number; critical_count: number }>`
        SELECT id, findings_count, critical_count FROM scans ORDER BY id`.execute(target.db);
      // (sqli, headers, float: info and the triaged idor are left out; copied with the triggers on, 6 and 2.)
      for (const scanId of fixture.scanIds) expect(counts.find((c) => c.id === scanId)).toMatchObject({ findings_count: 3, critical_count: 1 });
      // ...and the triggers are on again.
      const { rows: triggers } = await sql<{ n: number }>`
        SELECT count(*) AS n FROM pg_trigger WHERE tgrelid = 'findings'::regclass AND NOT tgisinternal AND tgenabled = 'O'`.execute(target.db);
      expect(triggers[0]!.n).toBe(3);
    } finally {
      await target.close();
    }

    // A team server node on the copy: same users, same key, ids and sequence numbers past the copied ones.
    const nodeDir = freshDir();
    const key = fs.readFileSync(path.join(fixture.dataDir, KEY_FILE), 'utf8').trim();
    const core = await createCore({ shell: 'server', dataDir: nodeDir, databaseUrl: url, secretKey: key, scryptCost: TEST_SCRYPT, runScheduler: false, logger: createMemoryLogger('debug') });
    try {
      const login = await core.fetch(
        new Request('http://x/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: fixture.owner.username, password: fixture.owner.password }) }),
      );
      expect(login.status, await login.clone().text()).toBe(200);
      expect(await core.services.secrets.get(`scan:${fixture.scanIds[1]}`)).toBe(SECRET_VALUE);
      const maxLoginEvent = await core.store.db.selectFrom('login_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      expect(Number(maxLoginEvent.id)).toBeGreaterThan(fixture.deletedLoginEventId);
      const throttle = await core.store.db.insertInto('throttle_failures').values({ key: 'login:new', at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      // Past every id the SQLite database handed out (the sign-in above may have taken some already).
      const handedOut = (sqliteRows(fixture.dbFile, 'sqlite_sequence') as { name: string; seq: number }[]).find((r) => r.name === 'throttle_failures')!.seq;
      expect(handedOut).toBeGreaterThanOrEqual(THROTTLE_ROWS);
      expect(Number(throttle.id)).toBeGreaterThan(handedOut);
      const apiId = await seedApi(core.store.db, fixture.owner.id, 'New API');
      const scanId = await seedScan(core.store.db, apiId, fixture.owner.id, { status: 'completed', created_at: new Date().toISOString() });
      const seqs = await core.store.db.selectFrom('scans').select(['id', 'seq']).execute();
      expect(Number(seqs.find((s) => s.id === scanId)!.seq)).toBe(seqs.length);
    } finally {
      await core.close();
    }
  }, 60_000);

  it('refuses a target that already holds data, and writes nothing to it', async () => {
    const url = await freshDatabase();
    expect((await cli('migrate-store', '--from', fixture.dataDir, '--to', url)).code).toBe(0);
    const again = await cli('migrate-store', '--from', fixture.dataDir, '--to', url);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^Error: The PostgreSQL database already holds data \(.*\busers 3, .*\): migrate-store copies into an empty database only\.\n$/);
    expect(again.stderr).not.toContain(new URL(url).password);
    const target = await openStore(url);
    try {
      expect((await pgRows(target.db, 'users')).length).toBe(3);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('rolls the copy back when a count differs', async () => {
    const url = await freshDatabase();
    const target = await openStore(url);
    // A rule (not a trigger, so left on) that swallows inserted sessions.
    await sql`CREATE RULE swallow AS ON INSERT TO sessions DO INSTEAD NOTHING`.execute(target.db);
    try {
      const res = await cli('migrate-store', '--from', fixture.dataDir, '--to', url);
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/^ {2}sessions +\d+ → 0 {2}DIFFERS$/m);
      expect(res.stdout).not.toContain('counts verified');
      expect(res.stderr).toMatch(/^Error: The copy does not match the SQLite database \(sessions \d+ → 0\); nothing was written\.\n$/);
      expect((await pgRows(target.db, 'users')).length).toBe(0);
      expect(fs.existsSync(path.join(fixture.dataDir, 'portcullis.lock'))).toBe(false);
    } finally {
      await target.close();
    }
  }, 30_000);

  it("refuses a role that does not own the tables, naming what it needs, and writes nothing", async () => {
    const url = await freshDatabase();
    const owned = await openStore(url);
    const database = new URL(url).pathname.slice(1);
    try {
      await sql.raw(`DROP ROLE IF EXISTS copier`).execute(owned.db);
      await sql.raw(`CREATE ROLE copier LOGIN PASSWORD 'copier-pass-123'`).execute(owned.db);
      await sql.raw(`GRANT ALL ON ALL TABLES IN SCHEMA public TO copier; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO copier`).execute(owned.db);
      await sql.raw(`GRANT CONNECT, CREATE ON DATABASE ${database} TO copier`).execute(owned.db);
      const asCopier = `postgres://copier:copier-pass-123@${pg.host}:${pg.port}/${database}`;
      const res = await cli('migrate-store', '--from', fixture.dataDir, '--to', asCopier);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^Error: The PostgreSQL role cannot switch off the triggers of \w+ while copying: connect as the tables' owner \(must be owner of table \w+\)\.\n$/);
      expect(res.stderr).not.toContain('copier-pass-123');
      expect((await pgRows(owned.db, 'users')).length).toBe(0);
    } finally {
      await owned.close();
    }
  }, 30_000);

  it('refuses a data dir a running server holds, before touching either database', async () => {
    const url = await freshDatabase();
    const running = await createTestCore({ dataDir: freshDir() });
    try {
      const res = await cli('migrate-store', '--from', running.dataDir, '--to', url);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^Error: The data directory .* is in use by another Portcullis \(server, pid \d+ /);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      const target = await openStore(url);
      try {
        expect((await pgRows(target.db, 'users')).length).toBe(0);
      } finally {
        await target.close();
      }
    } finally {
      await running.core.close();
    }
  }, 30_000);

  it('refuses a data dir without portcullis.db, and does not create one', async () => {
    const empty = freshDir();
    const res = await cli('migrate-store', '--from', empty, '--to', await freshDatabase());
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`Error: No Portcullis data in ${empty} (portcullis.db not found).\n`);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('refuses bad arguments without echoing the URL', async () => {
    expect((await cli('migrate-store', '--to', pg.urlFor('x'))).stderr).toBe('Error: --from <data-dir> is required: the data dir of the server to copy.\n');
    const noTo = await cli('migrate-store', '--from', fixture.dataDir);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain('--to <database-url> is required');
    const mysql = await cli('migrate-store', '--from', fixture.dataDir, '--to', 'mysql://admin:Hunter2Secret@db.example/portcullis');
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toBe('Error: --to must be a postgres:// URL (postgres://user:password@host:5432/database).\n');
    const unknown = await cli('migrate-store', '--from', fixture.dataDir, '--to', pg.urlFor('x'), '--force');
    expect(unknown.code).toBe(2);
    const help = await cli('migrate-store', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: portcullis migrate-store --from <data-dir> --to <database-url>/);
    expect((await cli('--help')).stdout).toMatch(/^ {2}migrate-store +copy a team server's SQLite data into PostgreSQL$/m);
  });

  it('refuses an unreachable target or a wrong password without showing the password', async () => {
    const password = 'Pa55-word_unreachable';
    const closed = await cli('migrate-store', '--from', fixture.dataDir, '--to', `postgres://portcullis:${password}@127.0.0.1:1/portcullis`);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toMatch(/^Error: Cannot reach the PostgreSQL database at 127\.0\.0\.1:1: .*ECONNREFUSED.*\n$/);
    expect(closed.stderr + closed.stdout).not.toContain(password);
    await freshDatabase();
    const wrong = pg.urlFor(`migrate_${databases}`).replace(/:[^:@/]+@/, `:${password}@`);
    const refused = await cli('migrate-store', '--from', fixture.dataDir, '--to', wrong);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^Error: Cannot reach the PostgreSQL database at 127\.0\.0\.1:\d+: password authentication failed/);
    expect(refused.stderr + refused.stdout).not.toContain(password);
    // The data dir was locked meanwhile, and is not any more.
    expect(fs.existsSync(path.join(fixture.dataDir, 'portcullis.lock'))).toBe(false);
  }, 30_000);

  it('brings an older SQLite database up to date first, and refuses one a newer version migrated', async () => {
    // A data dir of a version before migration 010 (no scans.seq): two scans and a finding.
    const oldDir = freshDir();
    const oldFile = path.join(oldDir, 'portcullis.db');
    const all = await migrationProvider(sqliteDialect).getMigrations();
    const upTo009 = Object.fromEntries(Object.entries(all).filter(([name]) => name < '010'));
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: openSqlite(oldFile) }) });
    expect((await new Migrator({ db: old, provider: { getMigrations: async () => upTo009 } }).migrateToLatest()).error).toBeUndefined();
    const oldDb = old as unknown as Db;
    const t = '2026-01-01T00:00:00.000Z';
    await oldDb
      .insertInto('users')
      .values({ id: 'u1', email: 'a@example.com', username: 'alice', first_name: 'A', last_name: 'L', password_hash: null, profile_picture: null, created_at: t, updated_at: t })
      .execute();
    const apiId = await seedApi(oldDb, 'u1', 'Old API');
    // Kysely's typed insert would name scans.seq, which this database has not got yet.
    for (const id of ['s-b', 's-a']) {
      await sql`INSERT INTO scans (id, api_id, user_id, profile, status, created_at, progress_done, progress_total, requests_sent, config, notes)
                VALUES (${id}, ${apiId}, 'u1', 'OWASP_API_10', 'completed', ${t}, 0, 0, 0, '{}', '{}')`.execute(old);
    }
    await old.destroy();

    const migrated = () => {
      const db = new SQLite(oldFile, { readonly: true });
      const names = (db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name);
      db.close();
      return names;
    };
    // An unreachable target leaves it as it was: the target is opened first.
    expect((await cli('migrate-store', '--from', oldDir, '--to', 'postgres://portcullis@127.0.0.1:1/portcullis')).code).toBe(2);
    expect(migrated()).toEqual(Object.keys(upTo009));

    const url = await freshDatabase();
    const res = await cli('migrate-store', '--from', oldDir, '--to', url);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^ {2}scans +2 → 2$/m);
    const target = await openStore(url);
    try {
      // seq numbers the old scans in insertion order, as migration 010 did on SQLite, and goes on from there.
      const seq = (await target.db.selectFrom('scans').select(['id', 'seq']).orderBy('seq').execute()).map((r) => [r.id, Number(r.seq)]);
      expect(seq).toEqual([
        ['s-b', 1],
        ['s-a', 2],
      ]);
      await sql`INSERT INTO scans (id, api_id, user_id, profile, status, created_at, progress_done, progress_total, requests_sent, config, notes)
                VALUES ('s-c', ${apiId}, 'u1', 'OWASP_API_10', 'queued', ${t}, 0, 0, 0, '{}', '{}')`.execute(target.db);
      expect(Number((await target.db.selectFrom('scans').select('seq').where('id', '=', 's-c').executeTakeFirstOrThrow()).seq)).toBe(3);
    } finally {
      await target.close();
    }

    const newer = new SQLite(oldFile);
    newer.prepare(`INSERT INTO kysely_migration (name, timestamp) VALUES ('999-from-the-future', ?)`).run(new Date().toISOString());
    newer.close();
    const refused = await cli('migrate-store', '--from', oldDir, '--to', await freshDatabase());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('Error: The database was migrated by a newer Portcullis (999-from-the-future): upgrade this node\n');
  }, 30_000);

  it('runs as the bundled command: --help, and a refusal with a one-line message', async () => {
    const entry = await bundle('electron/cli-entry.ts', 'migrate-store-cli');
    const help = spawnSync(process.execPath, [entry, 'migrate-store', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: portcullis migrate-store');
    const password = 'Pr0cess-secret';
    const run = spawnSync(process.execPath, [entry, 'migrate-store', '--from', fixture.dataDir], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PORTCULLIS_DATABASE_URL: `postgres://portcullis:${password}@127.0.0.1:1/portcullis` },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^Error: Cannot reach the PostgreSQL database at 127\.0\.0\.1:1: [^\n]+\n$/);
    expect(run.stderr + run.stdout).not.toContain(password);
  }, 60_000);

  it('cuts inserts to the bound-parameter limit', () => {
    expect(PG_MAX_PARAMETERS).toBe(65_535);
    expect(rowsPerInsert(3)).toBe(1_000);
    expect(rowsPerInsert(100)).toBe(655);
    expect(rowsPerInsert(70_000)).toBe(1);
    for (const columns of [1, 13, 24, 65, 66, 1_000, 65_535]) expect(rowsPerInsert(columns) * columns).toBeLessThanOrEqual(PG_MAX_PARAMETERS);
  });
});
