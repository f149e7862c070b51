// Scans across the nodes of one database (issue 19): the node running a scan (`owner_node`) holds a
// lease on it (`lease_until`, ISO text like the other times, in the database's clock) that it renews
// while the scan runs; a running scan whose lease has expired lost its node and is failed by any other.
// `current_check` and `current_endpoint` are what the scan checks now, so that every node can show it.

import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['owner_node', 'lease_until', 'current_check', 'current_endpoint']) {
    await db.schema.alterTable('scans').addColumn(column, 'text').execute();
  }
  // The sweep every node runs reads only the running scans, by lease.
  await db.schema.createIndex('scans_running_lease').on('scans').column('lease_until').where(sql.ref('status'), '=', 'running').execute();
}
