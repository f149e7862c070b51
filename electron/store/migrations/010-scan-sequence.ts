// Scans in insertion order on both databases (issue 19): lists show the newest scan first, and two
// scans created in the same millisecond were told apart by SQLite's rowid, which PostgreSQL lacks (and
// scan ids are random). `seq` numbers scans as they are inserted — existing ones in rowid order — and
// an index serves "an API's scans, newest first" with it as the last key.

import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, d: StoreDialect): Promise<void> {
  for (const statement of d.insertionSequence('scans', 'seq')) await statement.execute(db);
  await db.schema.createIndex('scans_seq').on('scans').column('seq').unique().execute();
  // Replaces scans_api (api_id, created_at), whose implicit rowid on SQLite was the tie-break.
  await db.schema.dropIndex('scans_api').execute();
  await db.schema.createIndex('scans_api_created').on('scans').columns(['api_id', 'created_at', 'seq']).execute();
}
