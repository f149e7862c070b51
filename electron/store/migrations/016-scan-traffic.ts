// A scan's traffic (issue 27): the HAR of the requests it sent (the last ones within TRAFFIC_LIMITS,
// secrets redacted), written once when the scan ends, gzip-compressed (a HAR is text that compresses
// about tenfold). A table of its own rather than a column of scans: megabytes that only the download
// reads, gone with their scan.

import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('scan_traffic')
    .addColumn('scan_id', 'text', (c) => c.primaryKey().references('scans.id').onDelete('cascade'))
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('dropped', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('har_gzip', dialect.kind === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
