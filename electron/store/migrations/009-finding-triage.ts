// Triage (issue 17): a finding marked a false positive or an accepted risk, per API and fingerprint,
// so the mark follows the finding into later scans. A finding row carries `suppressed` (1 while a
// triage mark other than open covers it) and the per-scan counting triggers of 004 leave suppressed
// findings out, as they leave out informational ones.

import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
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
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
  await sql`
    CREATE TRIGGER findings_counts_insert AFTER INSERT ON findings WHEN NEW.severity <> 'info' AND NEW.suppressed = 0 BEGIN
      UPDATE scans SET findings_count = findings_count + 1, critical_count = critical_count + (NEW.cvss_score >= 9.0)
      WHERE id = NEW.scan_id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER findings_counts_delete AFTER DELETE ON findings WHEN OLD.severity <> 'info' AND OLD.suppressed = 0 BEGIN
      UPDATE scans SET findings_count = findings_count - 1, critical_count = critical_count - (OLD.cvss_score >= 9.0)
      WHERE id = OLD.scan_id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER findings_counts_update AFTER UPDATE OF cvss_score, scan_id, severity, suppressed ON findings BEGIN
      UPDATE scans SET findings_count = findings_count - (OLD.severity <> 'info' AND OLD.suppressed = 0),
                       critical_count = critical_count - (OLD.severity <> 'info' AND OLD.suppressed = 0 AND OLD.cvss_score >= 9.0)
      WHERE id = OLD.scan_id;
      UPDATE scans SET findings_count = findings_count + (NEW.severity <> 'info' AND NEW.suppressed = 0),
                       critical_count = critical_count + (NEW.severity <> 'info' AND NEW.suppressed = 0 AND NEW.cvss_score >= 9.0)
      WHERE id = NEW.scan_id;
    END`.execute(db);
}
