// Password reset tokens: single use, stored hashed, with an expiry.

import { randomUUID } from 'node:crypto';
import type { Db } from './database';
import type { PasswordResetsTable } from './schema';

export type PasswordResetRow = PasswordResetsTable;

export function createPasswordResetsRepo(db: Db) {
  return {
    async create(userId: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
      await db
        .insertInto('password_resets')
        .values({
          id: randomUUID(),
          user_id: userId,
          token_hash: tokenHash,
          created_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
          used_at: null,
        })
        .execute();
    },
    /**
     * Marks the token used and returns its row, in one statement, so two concurrent uses cannot both
     * succeed. Undefined when the token is unknown, used or expired.
     */
    async consume(tokenHash: string, now: Date): Promise<PasswordResetRow | undefined> {
      return db
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .returningAll()
        .executeTakeFirst();
    },
    /** Invalidates every open token of a user (after a successful reset). */
    async invalidateForUser(userId: string, now: Date): Promise<void> {
      await db
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
  };
}

export type PasswordResetsRepo = ReturnType<typeof createPasswordResetsRepo>;
