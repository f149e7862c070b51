// The dashboard's recent scans, newest first, in one order on both databases (issue 19): scans created
// in the same millisecond were ordered by SQLite's implicit rowid in scans_created (created_at) and in no
// defined order on PostgreSQL. The index gains `seq` (migration 010) as its last key, so the list can
// break ties by insertion order and still walk the index from its newest end.

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scans_created').execute();
  await db.schema.createIndex('scans_created').on('scans').columns(['created_at', 'seq']).execute();
}
