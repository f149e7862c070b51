// Triage (issue 17): a finding marked a false positive or an accepted risk, per API and fingerprint,
// so the mark follows the finding into later scans. A finding row carries `suppressed` (1 while a
// triage mark other than open covers it) and the per-scan counting triggers of 004 leave suppressed
// findings out, as they leave out informational ones.

import { sql, type Kysely } from 'kysely';
import type { CountingRule, StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, d: StoreDialect): Promise<void> {
  await db.schema
    .createTable('finding_triage')
    .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'text')
    .addColumn('set_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('set_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('finding_triage_pk', ['api_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('finding_triage_expiry').on('finding_triage').columns(['expires_at']).where(sql.ref('expires_at'), 'is not', null).execute();
  await db.schema.alterTable('findings').addColumn('suppressed', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  for (const name of ['findings_counts_insert', 'findings_counts_delete', 'findings_counts_update']) {
    await d.dropTrigger(name, 'findings').execute(db);
  }
  const rule: CountingRule = { counts: (row) => `${row}.severity <> 'info' AND ${row}.suppressed = 0`, updateOf: ['cvss_score', 'scan_id', 'severity', 'suppressed'] };
  for (const statement of d.countingTriggers(rule)) await statement.execute(db);
}
