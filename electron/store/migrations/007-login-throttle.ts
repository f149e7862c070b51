// Failed attempts counted by the sign-in throttles (password, password change, two-factor code,
// reset requests), kept so that a restart does not clear a lockout. One row per counted attempt.

import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, d: StoreDialect): Promise<void> {
  await db.schema
    .createTable('throttle_failures')
    .$call(d.autoId('id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', d.epochMs, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttle_failures_key_at').on('throttle_failures').columns(['key', 'at']).execute();
}
