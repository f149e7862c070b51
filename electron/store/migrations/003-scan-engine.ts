// The scan engine: a registry of stored secrets (scan keys), holding the ciphertext for the
// encrypted store and only the reference for the OS keychain, so orphans can be swept; and an
// index for "does this user have a scan running".

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('secrets')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('ciphertext', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scans_user_status').on('scans').columns(['user_id', 'status']).execute();
}
