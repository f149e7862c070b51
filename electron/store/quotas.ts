// Per-user quotas (issue 18, item 6): what a user's own APIs hold (APIs, endpoints, stored bytes), the
// measure of an API's bytes, and the check that runs inside the transaction writing a new API.

import { sql } from 'kysely';
import { QUOTA_MESSAGES } from '../../shared/api-messages';
import type { QuotaAmounts } from '../../shared/contract';
import type { Db } from './database';

/** Limits on what one user owns; 0 = no limit. */
export type QuotaLimits = QuotaAmounts;

export type QuotaKind = keyof QuotaAmounts;

export const NO_QUOTAS: QuotaLimits = { apis: 0, endpoints: 0, bytes: 0 };

/** Adding an API would pass one of its owner's limits; the message says which, where the user stands and what to do. */
export class QuotaExceededError extends Error {
  constructor(
    readonly kind: QuotaKind,
    readonly limit: number,
    readonly used: number,
    /** Unknown when the refusal comes before the import was read (the user is already at the limit). */
    readonly adding?: number,
  ) {
    super(kind === 'apis' ? QUOTA_MESSAGES.apis(limit) : QUOTA_MESSAGES[kind](limit, used, adding));
    this.name = 'QuotaExceededError';
  }
}

/**
 * Bytes of a text column as SQLite keeps it (UTF-8); null is 0. An API's stored bytes are the sum over
 * its user-supplied columns (name, base URL, file name, spec version, security schemes) and those of
 * its endpoints (method, path, summary, operation id, tags, parameters, request body, responses,
 * security). Migration 008 measures older APIs with the same rule in SQL.
 */
export function textBytes(value: string | null | undefined): number {
  return value === null || value === undefined ? 0 : Buffer.byteLength(value, 'utf8');
}

/** What the user's own APIs hold (shared ones count for their owner): one indexed count and sum each. */
export async function usageOf(db: Db, ownerId: string): Promise<QuotaAmounts> {
  const row = await db
    .selectFrom('apis')
    .where('owner_id', '=', ownerId)
    .select([
      sql<number>`count(*)`.as('apis'),
      sql<number>`coalesce(sum(stored_bytes), 0)`.as('bytes'),
      sql<number>`(select count(*) from endpoints e join apis a on a.id = e.api_id where a.owner_id = ${ownerId})`.as('endpoints'),
    ])
    .executeTakeFirstOrThrow();
  return { apis: Number(row.apis), endpoints: Number(row.endpoints), bytes: Number(row.bytes) };
}

/**
 * The first limit that adding `adding` to `used` would pass, or null. Without `adding` (before an
 * import is read) it asks whether there is room for one more API at all.
 */
export function quotaRefusal(limits: QuotaLimits, used: QuotaAmounts, adding?: QuotaAmounts): QuotaExceededError | null {
  const add = adding ?? { apis: 1, endpoints: 1, bytes: 1 };
  if (limits.apis > 0 && used.apis + add.apis > limits.apis) return new QuotaExceededError('apis', limits.apis, used.apis);
  for (const kind of ['endpoints', 'bytes'] as const) {
    if (limits[kind] > 0 && used[kind] + add[kind] > limits[kind]) return new QuotaExceededError(kind, limits[kind], used[kind], adding?.[kind]);
  }
  return null;
}

export function createQuotasRepo(db: Db) {
  return {
    usage: (ownerId: string) => usageOf(db, ownerId),
  };
}
