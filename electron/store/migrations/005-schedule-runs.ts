// Schedules remember what they are computed from (the anchor time and the owner's zone) and how
// their last run went (the scan it started, or why it could not start).

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedules').addColumn('anchor_at', 'text').execute();
  await db.schema.alterTable('schedules').addColumn('zone', 'text', (c) => c.notNull().defaultTo('UTC')).execute();
  await db.schema.alterTable('schedules').addColumn('last_scan_id', 'text').execute();
  await db.schema.alterTable('schedules').addColumn('last_error', 'text').execute();
  await db.schema.createIndex('schedules_due').on('schedules').columns(['is_enabled', 'next_run_at']).execute();
}
