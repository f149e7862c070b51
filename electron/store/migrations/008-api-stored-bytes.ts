// Per-user quotas (issue 18, item 6) count the bytes each API's definition occupies: the size is
// kept on the API row when it is written, so a user's usage is one indexed sum, not a scan of every
// endpoint. Existing APIs are measured once here with the same rule as the store (store/quotas.ts).

import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

export async function up(db: Kysely<unknown>, d: StoreDialect): Promise<void> {
  const bytes = (column: string) => `coalesce(${d.byteLength(column)}, 0)`;
  await db.schema
    .alterTable('apis')
    .addColumn('stored_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const apiBytes = ['name', 'base_url', 'source_filename', 'spec_version', 'security_schemes'].map(bytes).join(' + ');
  const endpointBytes = ['method', 'path', 'summary', 'operation_id', 'tags', 'parameters', 'request_body', 'responses', 'security']
    .map((c) => bytes(`e.${c}`))
    .join(' + ');
  await sql
    .raw(`UPDATE apis SET stored_bytes = ${apiBytes} + coalesce((SELECT sum(${endpointBytes}) FROM endpoints e WHERE e.api_id = apis.id), 0)`)
    .execute(db);
}
