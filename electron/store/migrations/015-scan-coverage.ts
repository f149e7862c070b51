// What a scan reached and exercised (issue 26): the coverage ledger (shared/coverage.ts ScanCoverage) as
// JSON, written once when the scan ends. A column of its own rather than a part of `notes`: the details
// of a scan are read on every page view and poll, the ledger (a row per operation) only by the Coverage
// tab, the reports and the CLI. Null for scans before it and for scans still running.

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scans').addColumn('coverage', 'text').execute();
}
