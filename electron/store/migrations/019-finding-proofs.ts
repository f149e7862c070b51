// What proves a finding when its curl text is replayed (issue 29, item 4): the step, the statuses and a
// marker the check chose, as JSON (shared/contract.ts FindingProof). Null for findings found before.

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('findings').addColumn('proof', 'text').execute();
}
