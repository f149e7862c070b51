// Identity setups that worked (issue 31, item 5): per user and API, the identities of scans that
// signed in, newest first and a few at most. The row holds what the list shows (names, roles, how
// each credential is obtained: no secret); the identities themselves, secrets and all, are in the
// SecretStore under `secret_ref`, like a scan's keys. Gone with their API or their user.

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_setups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('secret_ref', 'text', (c) => c.notNull())
    .addColumn('scan_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('worked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('identity_setups_one_per_recipe').on('identity_setups').columns(['api_id', 'user_id', 'fingerprint']).unique().execute();
  await db.schema.createIndex('identity_setups_newest').on('identity_setups').columns(['api_id', 'user_id', 'worked_at']).execute();
}
