// Scan history at scale: each scan keeps the number of its findings and of its critical ones
// (maintained by triggers, so every writer keeps them right), and indexes serve "the latest completed
// scan of an API", "scans completed since" and "the most recent scans", which the API list and the
// dashboard ask for on every load.

import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, d: StoreDialect): Promise<void> {
  await db.schema.alterTable('scans').addColumn('findings_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('scans').addColumn('critical_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`
    UPDATE scans SET
      findings_count = (SELECT count(*) FROM findings f WHERE f.scan_id = scans.id),
      critical_count = (SELECT count(*) FROM findings f WHERE f.scan_id = scans.id AND f.cvss_score >= 9.0)
  `.execute(db);
  for (const statement of d.countingTriggers({ counts: null, updateOf: ['cvss_score', 'scan_id'] })) await statement.execute(db);
  await db.schema
    .createIndex('scans_api_status_completed')
    .on('scans')
    .columns(['api_id', 'status', 'completed_at', 'findings_count', 'critical_count'])
    .execute();
  await db.schema.createIndex('scans_status_completed').on('scans').columns(['status', 'completed_at', 'api_id', 'findings_count']).execute();
}
