// Re-tests of findings (issue 29, item 3): one row per re-test, with who ran it, when, how it ended
// and its evidence, gone with its finding. A row is written `running` when the re-test starts: a
// partial unique index on the API holds "one re-test of an API at a time" on every node of a shared
// database, as scans_one_running holds one running scan per user.

import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('finding_retests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('finding_id', 'text', (c) => c.notNull().references('findings.id').onDelete('cascade'))
    .addColumn('api_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('evidence', 'text')
    .addColumn('curl', 'text')
    .addColumn('sent', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('requests_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .execute();
  await db.schema.createIndex('finding_retests_finding').on('finding_retests').columns(['finding_id', 'started_at']).execute();
  await sql`CREATE UNIQUE INDEX finding_retests_one_running ON finding_retests (api_id) WHERE outcome = 'running'`.execute(db);
}
