// One running scan per user, held by the database (issue 19): a partial unique index on the running
// scans' user. scans.markRunning's "no other scan running" condition cannot hold it alone on a
// PostgreSQL pool: under READ COMMITTED two starts of two scans of one user both see none running.
// A database that already holds several running scans of one user keeps the newest running and fails
// the others, with the reason a start-up gives scans a stop interrupted (scanner/service.ts).

import { sql, type Kysely } from 'kysely';

/** SCAN_TEXT.interrupted as this migration landed (a migration's text never changes). */
const INTERRUPTED = 'The scan was interrupted: Portcullis stopped while it was running (crash or forced shutdown).';

export async function up(db: Kysely<unknown>): Promise<void> {
  const started = (row: string) => `coalesce(${row}.started_at, ${row}.created_at)`;
  await sql`UPDATE scans SET status = 'failed', completed_at = ${new Date().toISOString()}, failure_reason = ${INTERRUPTED}
    WHERE status = 'running' AND EXISTS (
      SELECT 1 FROM scans newer
      WHERE newer.user_id = scans.user_id AND newer.status = 'running'
        AND (${sql.raw(started('newer'))} > ${sql.raw(started('scans'))}
             OR (${sql.raw(started('newer'))} = ${sql.raw(started('scans'))} AND newer.seq > scans.seq)))`.execute(db);
  await sql`CREATE UNIQUE INDEX scans_one_running ON scans (user_id) WHERE status = 'running'`.execute(db);
}
