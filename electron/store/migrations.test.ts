import fs from 'node:fs';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresSkipReason, stopSharedCluster } from '../../test/helpers/postgres';
import { createApisRepo } from './apis';
import { connectPostgres, migrateToLatest, migrationProvider, openSqlite } from './database';
import { dialectOf, sqliteDialect } from './dialect';
import { migrations } from './migrations/index';
import { usageOf } from './quotas';
import type { Database } from './schema';

const TABLES = [
  'apis',
  'endpoint_flags',
  'endpoints',
  'finding_retests',
  'finding_triage',
  'findings',
  'identities',
  'identity_setups',
  'login_events',
  'mfa_challenges',
  'password_resets',
  'recovery_codes',
  'scans',
  'schedules',
  'secrets',
  'sessions',
  'shares',
  'throttle_failures',
  'user_preferences',
  'user_profiles',
  'users',
];

/** A database to migrate: a fresh, empty one per call. */
interface Target {
  name: string;
  skip: string | null;
  fresh(): Promise<Kysely<Database>>;
}

afterAll(stopSharedCluster);

const TARGETS: Target[] = [
  {
    name: 'SQLite',
    skip: null,
    fresh: async () => new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(':memory:') }) }),
  },
  {
    name: 'PostgreSQL',
    skip: postgresSkipReason(),
    fresh: async () => {
      return connectPostgres(await freshDatabase('migrations'));
    },
  },
];

const now = new Date().toISOString();

async function addUser(db: Kysely<Database>, id: string): Promise<void> {
  await sql`INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES (${id},${`${id}@x.io`},${id},'U','U',${now},${now})`.execute(db);
}

async function addApiAndScan(db: Kysely<Database>): Promise<void> {
  await sql`INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('a','u','A','http://x','manual',${now},${now})`.execute(db);
  await sql`INSERT INTO scans (id,api_id,user_id,profile,status,created_at) VALUES ('s','a','u','owasp','completed',${now})`.execute(db);
}

async function addFinding(db: Kysely<Database>, id: string, severity: string, score: number): Promise<void> {
  await sql`INSERT INTO findings (id,scan_id,api_id,check_id,fingerprint,vulnerability_name,severity,confidence,owasp,description,recommendation,cvss_vector,cvss_score,method,path,evidence,created_at)
    VALUES (${id},'s','a','c',${`fp-${id}`},'n',${severity},'high','API1','d','r','v',${score},'GET','/x','Method: GET',${now})`.execute(db);
}

async function count(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return rows[0]!.n;
}

describe('migrations', () => {
  it('are numbered, and each has an up step', () => {
    expect(Object.keys(migrations)).toEqual([...Object.keys(migrations)].sort());
    for (const [name, m] of Object.entries(migrations)) {
      expect(name).toMatch(/^\d{3}-[a-z0-9-]+$/);
      expect(typeof m.up).toBe('function');
    }
  });

  it('run 001-009 on SQLite exactly as before PostgreSQL: the same statements, the same schema', async () => {
    // The snapshot was recorded from the migrations as they landed, before their dialect spots were
    // routed through dialect.ts; landed migrations must keep producing it byte for byte.
    const snapshot = JSON.parse(fs.readFileSync(new URL('./migrations/sqlite-001-009.snapshot.json', import.meta.url), 'utf8')) as { statements: string[]; schema: unknown[] };
    const sqlite = openSqlite(':memory:');
    const statements: string[] = [];
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: sqlite }),
      // Kysely's own bookkeeping (its tables, its look at sqlite_master) is not part of the migrations.
      log: (event) => {
        if (!/kysely_migration|sqlite_master/.test(event.query.sql)) statements.push(event.query.sql);
      },
    });
    expect(dialectOf(db)).toBe(sqliteDialect);
    const { error } = await new Migrator({ db, provider: migrationProvider(sqliteDialect) }).migrateTo('009-finding-triage');
    expect(error).toBeUndefined();
    expect(statements).toEqual(snapshot.statements);
    expect(sqlite.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'kysely%' ORDER BY type, name").all()).toEqual(snapshot.schema);
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    await db.destroy();
  });
});

describe.each(TARGETS)('migrations on $name', ({ skip, fresh }) => {
  describe.skipIf(skip !== null)(skip ?? 'from an empty database', () => {
    it('run in order on an empty database and create every table', async () => {
      const db = await fresh();
      const applied = await migrateToLatest(db as Kysely<unknown>);
      expect(applied).toEqual(Object.keys(migrations));
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      for (const t of TABLES) expect(tables).toContain(t);
      // A second start applies nothing.
      expect(await migrateToLatest(db as Kysely<unknown>)).toEqual([]);
      await db.destroy();
    });

    it('cascade an API delete to everything under it', async () => {
      const db = await fresh();
      await migrateToLatest(db as Kysely<unknown>);
      await addUser(db, 'u');
      await addUser(db, 'v');
      await addApiAndScan(db);
      await sql`INSERT INTO endpoints (id,api_id,position,method,path,created_at) VALUES ('e','a',0,'GET','/x',${now})`.execute(db);
      await sql`INSERT INTO endpoint_flags (endpoint_id,flag) VALUES ('e','BOLA')`.execute(db);
      await addFinding(db, 'f', 'high', 7.5);
      await sql`INSERT INTO schedules (id,api_id,user_id,frequency,is_enabled,created_at,updated_at) VALUES ('sc','a','u','daily',1,${now},${now})`.execute(db);
      await sql`INSERT INTO shares (api_id,user_id,permission,created_at,updated_at) VALUES ('a','v','read',${now},${now})`.execute(db);
      await sql`INSERT INTO finding_triage (api_id,fingerprint,state,set_by,set_at) VALUES ('a','fp-f','false_positive','u',${now})`.execute(db);
      await sql`INSERT INTO finding_retests (id,finding_id,api_id,fingerprint,user_id,outcome,started_at) VALUES ('r','f','a','fp-f','u','reproduced',${now})`.execute(db);
      await sql`INSERT INTO identity_setups (id,api_id,user_id,fingerprint,summary,secret_ref,created_at,worked_at) VALUES ('is','a','u','fp','{}','scan:setup:is',${now},${now})`.execute(db);
      await sql`DELETE FROM apis WHERE id = 'a'`.execute(db);
      for (const t of ['endpoints', 'endpoint_flags', 'scans', 'findings', 'schedules', 'shares', 'finding_triage', 'finding_retests', 'identity_setups']) expect(await count(db, t)).toBe(0);
      expect(await count(db, 'users')).toBe(2);
      await db.destroy();
    });

    it('keep each scan’s vulnerability counts through inserts, updates and deletes, leaving out informational and suppressed findings (002, 004, 009)', async () => {
      const db = await fresh();
      await migrateToLatest(db as Kysely<unknown>);
      await addUser(db, 'u');
      await addApiAndScan(db);
      const counts = async (): Promise<unknown> => (await sql`SELECT findings_count AS f, critical_count AS c FROM scans WHERE id = 's'`.execute(db)).rows[0];
      await addFinding(db, 'f1', 'high', 9.8);
      await addFinding(db, 'f2', 'medium', 5.0);
      await addFinding(db, 'f3', 'info', 0);
      expect(await counts()).toEqual({ f: 2, c: 1 });
      await sql`UPDATE findings SET severity = 'info', cvss_score = 0 WHERE id = 'f1'`.execute(db);
      expect(await counts()).toEqual({ f: 1, c: 0 });
      await sql`UPDATE findings SET severity = 'high', cvss_score = 9.1 WHERE id = 'f3'`.execute(db);
      expect(await counts()).toEqual({ f: 2, c: 1 });
      await sql`UPDATE findings SET suppressed = 1 WHERE id = 'f3'`.execute(db);
      expect(await counts()).toEqual({ f: 1, c: 0 });
      await sql`DELETE FROM findings WHERE id = 'f3'`.execute(db);
      expect(await counts()).toEqual({ f: 1, c: 0 });
      await sql`DELETE FROM findings WHERE id = 'f2'`.execute(db);
      expect(await counts()).toEqual({ f: 0, c: 0 });
      await db.destroy();
    });

    it('give throttle times the range of epoch milliseconds, CVSS scores double precision, and generated ids', async () => {
      const db = await fresh();
      await migrateToLatest(db as Kysely<unknown>);
      const at = Date.UTC(2030, 0, 1); // far past int4
      await db.insertInto('throttle_failures').values({ key: 'login:a', at }).execute();
      await db.insertInto('throttle_failures').values({ key: 'login:a', at: at + 1 }).execute();
      const rows = await db.selectFrom('throttle_failures').select(['id', 'at']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 1, at },
        { id: 2, at: at + 1 },
      ]);
      await addUser(db, 'u');
      await addApiAndScan(db);
      await addFinding(db, 'f', 'high', 8.123456789012); // more digits than a 4-byte float keeps
      expect(await db.selectFrom('findings').select('cvss_score').executeTakeFirst()).toEqual({ cvss_score: 8.123456789012 });
      await db.insertInto('login_events').values({ user_id: 'u', created_at: now, method: 'password', client: null, ip: null }).execute();
      expect(await db.selectFrom('login_events').select('id').execute()).toEqual([{ id: 1 }]);
      await db.destroy();
    });

    it('number existing scans in insertion order and later ones after them (010)', async () => {
      const db = await fresh();
      const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
      expect((await migrator.migrateTo('009-finding-triage')).error).toBeUndefined();
      await addUser(db, 'u');
      await sql`INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('a','u','A','http://x','manual',${now},${now})`.execute(db);
      const addScan = (id: string) => sql`INSERT INTO scans (id,api_id,user_id,profile,status,created_at) VALUES (${id},'a','u','owasp','created',${now})`.execute(db);
      // Ids sort against insertion order, so only the insertion order gives c, b, a.
      for (const id of ['c', 'b', 'a']) await addScan(id);
      expect(await migrateToLatest(db as Kysely<unknown>)).toContain('010-scan-sequence');
      await addScan('0');
      const rows = (await sql<{ id: string; seq: number }>`SELECT id, seq FROM scans ORDER BY seq`.execute(db)).rows;
      expect(rows.map((r) => r.id)).toEqual(['c', 'b', 'a', '0']);
      expect(new Set(rows.map((r) => r.seq)).size).toBe(4);
      await db.destroy();
    });

    it('measure existing APIs’ stored bytes as the store measures new ones (008, per-user quotas)', async () => {
      const db = await fresh();
      const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
      expect((await migrator.migrateTo('007-login-throttle')).error).toBeUndefined();
      await addUser(db, 'u');
      const security = { schemes: {}, default: [] };
      const endpoint = { method: 'GET', path: '/zürich/{id}', summary: 'Ünïcode 東京', operation_id: null, tags: ['a'], parameters: [], request_body: null, responses: { 200: { description: 'ok', content_type: null, schema: null } }, security: null };
      await sql`INSERT INTO apis (id,owner_id,name,base_url,source_format,source_filename,spec_version,security_schemes,created_at,updated_at)
        VALUES ('old','u','Café','https://x.io','openapi-3.0','s.json','3.0.3',${JSON.stringify(security)},${now},${now})`.execute(db);
      await sql`INSERT INTO endpoints (id,api_id,position,method,path,summary,operation_id,tags,parameters,request_body,responses,security,created_at)
        VALUES ('e','old',0,${endpoint.method},${endpoint.path},${endpoint.summary},${null},${JSON.stringify(endpoint.tags)},'[]','null',${JSON.stringify(endpoint.responses)},'null',${now})`.execute(db);
      await sql`INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('empty','u','E','https://e.io','manual',${now},${now})`.execute(db);

      expect(await migrateToLatest(db as Kysely<unknown>)).toContain('008-api-stored-bytes');
      const bytesOf = async (id: string): Promise<number> => (await db.selectFrom('apis').select('stored_bytes').where('id', '=', id).executeTakeFirstOrThrow()).stored_bytes;
      const created = await createApisRepo(db).createWithEndpoints(
        { ownerId: 'u', name: 'Café', baseUrl: 'https://x.io', sourceFormat: 'openapi-3.0', sourceFilename: 's.json', specVersion: '3.0.3', security, endpoints: [{ ...endpoint, flags: ['BOLA'] }] },
        new Date(),
      );
      expect(await bytesOf('old')).toBe(await bytesOf(created));
      expect(await bytesOf('old')).toBeGreaterThan(Buffer.byteLength(endpoint.summary));
      expect(await bytesOf('empty')).toBe(Buffer.byteLength('E' + 'https://e.io' + '{}'));
      expect(await usageOf(db, 'u')).toEqual({ apis: 3, endpoints: 2, bytes: 2 * (await bytesOf(created)) + (await bytesOf('empty')) });
      await db.destroy();
    });
  });
});
