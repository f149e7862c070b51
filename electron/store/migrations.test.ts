import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createApisRepo } from './apis';
import { migrateToLatest, openSqlite } from './database';
import { migrations } from './migrations/index';
import { usageOf } from './quotas';
import type { Database } from './schema';

const TABLES = [
  'apis',
  'endpoint_flags',
  'endpoints',
  'findings',
  'identities',
  'login_events',
  'password_resets',
  'scans',
  'schedules',
  'sessions',
  'shares',
  'user_preferences',
  'user_profiles',
  'users',
];

describe('migrations', () => {
  it('run in order on an empty database and create every table', async () => {
    const sqlite = openSqlite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const applied = await migrateToLatest(db);
    expect(applied).toEqual(Object.keys(migrations));
    expect(Object.keys(migrations)).toEqual([...Object.keys(migrations)].sort());
    const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'kysely%' AND name NOT LIKE 'sqlite%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    for (const t of TABLES) expect(tables).toContain(t);
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    // A second start applies nothing.
    expect(await migrateToLatest(db)).toEqual([]);
    await db.destroy();
  });

  it('are numbered, and each has an up step', () => {
    for (const [name, m] of Object.entries(migrations)) {
      expect(name).toMatch(/^\d{3}-[a-z0-9-]+$/);
      expect(typeof m.up).toBe('function');
    }
  });

  it('cascade an API delete to everything under it', async () => {
    const sqlite = openSqlite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db);
    const now = new Date().toISOString();
    sqlite.prepare("INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES ('u','u@x.io','u','U','U',?,?)").run(now, now);
    sqlite.prepare("INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES ('v','v@x.io','v','V','V',?,?)").run(now, now);
    sqlite.prepare("INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('a','u','A','http://x','manual',?,?)").run(now, now);
    sqlite.prepare("INSERT INTO endpoints (id,api_id,position,method,path,created_at) VALUES ('e','a',0,'GET','/x',?)").run(now);
    sqlite.prepare("INSERT INTO endpoint_flags (endpoint_id,flag) VALUES ('e','BOLA')").run();
    sqlite.prepare("INSERT INTO scans (id,api_id,user_id,profile,status,created_at) VALUES ('s','a','u','owasp','completed',?)").run(now);
    sqlite
      .prepare(
        "INSERT INTO findings (id,scan_id,api_id,check_id,fingerprint,vulnerability_name,severity,confidence,owasp,description,recommendation,cvss_vector,cvss_score,method,path,evidence,created_at) VALUES ('f','s','a','c','fp','n','high','high','API1','d','r','v',7.5,'GET','/x','Method: GET',?)",
      )
      .run(now);
    sqlite.prepare("INSERT INTO schedules (id,api_id,user_id,frequency,is_enabled,created_at,updated_at) VALUES ('sc','a','u','daily',1,?,?)").run(now, now);
    sqlite.prepare("INSERT INTO shares (api_id,user_id,permission,created_at,updated_at) VALUES ('a','v','read',?,?)").run(now, now);
    sqlite.prepare("DELETE FROM apis WHERE id = 'a'").run();
    for (const t of ['endpoints', 'endpoint_flags', 'scans', 'findings', 'schedules', 'shares']) {
      expect((sqlite.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n).toBe(0);
    }
    expect((sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(2);
    await db.destroy();
  });
});

describe('vulnerability counts (migrations 002 and 004)', () => {
  it('count findings per scan, leaving out informational ones, through inserts, updates and deletes', async () => {
    const sqlite = openSqlite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db);
    const now = new Date().toISOString();
    sqlite.prepare("INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES ('u','u@x.io','u','U','U',?,?)").run(now, now);
    sqlite.prepare("INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('a','u','A','http://x','manual',?,?)").run(now, now);
    sqlite.prepare("INSERT INTO scans (id,api_id,user_id,profile,status,created_at) VALUES ('s','a','u','owasp','completed',?)").run(now);
    const add = sqlite.prepare(
      "INSERT INTO findings (id,scan_id,api_id,check_id,fingerprint,vulnerability_name,severity,confidence,owasp,description,recommendation,cvss_vector,cvss_score,method,path,evidence,created_at) VALUES (?,'s','a','c',?,'n',?,'high','API1','d','r','v',?,'GET','/x','Method: GET',?)",
    );
    const counts = () => sqlite.prepare("SELECT findings_count AS f, critical_count AS c FROM scans WHERE id = 's'").get();
    add.run('f1', 'p1', 'high', 9.8, now);
    add.run('f2', 'p2', 'medium', 5.0, now);
    add.run('f3', 'p3', 'info', 0, now);
    expect(counts()).toEqual({ f: 2, c: 1 });
    sqlite.prepare("UPDATE findings SET severity = 'info', cvss_score = 0 WHERE id = 'f1'").run();
    expect(counts()).toEqual({ f: 1, c: 0 });
    sqlite.prepare("UPDATE findings SET severity = 'high', cvss_score = 9.1 WHERE id = 'f3'").run();
    expect(counts()).toEqual({ f: 2, c: 1 });
    sqlite.prepare("DELETE FROM findings WHERE id IN ('f2', 'f3')").run();
    expect(counts()).toEqual({ f: 0, c: 0 });
    await db.destroy();
  });
});

describe('stored bytes of an API (migration 008, per-user quotas)', () => {
  it('measures existing APIs as the store measures new ones', async () => {
    const sqlite = openSqlite(':memory:');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('007-login-throttle')).error).toBeUndefined();
    const now = new Date().toISOString();
    sqlite.prepare("INSERT INTO users (id,email,username,first_name,last_name,created_at,updated_at) VALUES ('u','u@x.io','u','U','U',?,?)").run(now, now);
    const security = { schemes: {}, default: [] };
    const endpoint = { method: 'GET', path: '/zürich/{id}', summary: 'Ünïcode 東京', operation_id: null, tags: ['a'], parameters: [], request_body: null, responses: { 200: { description: 'ok', content_type: null, schema: null } }, security: null };
    sqlite
      .prepare("INSERT INTO apis (id,owner_id,name,base_url,source_format,source_filename,spec_version,security_schemes,created_at,updated_at) VALUES ('old','u','Café','https://x.io','openapi-3.0','s.json','3.0.3',?,?,?)")
      .run(JSON.stringify(security), now, now);
    sqlite
      .prepare('INSERT INTO endpoints (id,api_id,position,method,path,summary,operation_id,tags,parameters,request_body,responses,security,created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)')
      .run('e', 'old', 0, endpoint.method, endpoint.path, endpoint.summary, null, JSON.stringify(endpoint.tags), '[]', 'null', JSON.stringify(endpoint.responses), 'null', now);
    sqlite.prepare("INSERT INTO apis (id,owner_id,name,base_url,source_format,created_at,updated_at) VALUES ('empty','u','E','https://e.io','manual',?,?)").run(now, now);

    expect(await migrateToLatest(db as Kysely<unknown>)).toContain('008-api-stored-bytes');
    const bytesOf = (id: string) => (sqlite.prepare('SELECT stored_bytes AS b FROM apis WHERE id = ?').get(id) as { b: number }).b;
    const fresh = await createApisRepo(db).createWithEndpoints(
      { ownerId: 'u', name: 'Café', baseUrl: 'https://x.io', sourceFormat: 'openapi-3.0', sourceFilename: 's.json', specVersion: '3.0.3', security, endpoints: [{ ...endpoint, flags: ['BOLA'] }] },
      new Date(),
    );
    expect(bytesOf('old')).toBe(bytesOf(fresh));
    expect(bytesOf('old')).toBeGreaterThan(Buffer.byteLength(endpoint.summary));
    expect(bytesOf('empty')).toBe(Buffer.byteLength('E' + 'https://e.io' + '{}'));
    expect(await usageOf(db, 'u')).toEqual({ apis: 3, endpoints: 2, bytes: 2 * bytesOf(fresh) + bytesOf('empty') });
    await db.destroy();
  });
});
