// Shares repository: who besides the owner may see or scan an API, and how.

import type { SharePermission } from '../../shared/constants';
import type { Share } from '../../shared/contract';
import type { Db } from './database';

export function createSharesRepo(db: Db) {
  return {
    async list(apiId: string): Promise<Share[]> {
      const rows = await db
        .selectFrom('shares')
        .innerJoin('users', 'users.id', 'shares.user_id')
        .select(['shares.user_id', 'shares.permission', 'users.email', 'users.first_name', 'users.last_name', 'users.username'])
        .where('shares.api_id', '=', apiId)
        .orderBy('shares.created_at')
        .execute();
      return rows.map((r) => ({
        user_id: r.user_id,
        name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.username,
        email: r.email,
        permission: r.permission === 'manage' ? 'manage' : 'read',
      }));
    },

    async find(apiId: string, userId: string): Promise<SharePermission | undefined> {
      const row = await db
        .selectFrom('shares')
        .select('permission')
        .where('api_id', '=', apiId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? (row.permission as SharePermission) : undefined;
    },

    /** Creates the share or changes its permission. */
    async upsert(apiId: string, userId: string, permission: SharePermission, now: Date): Promise<void> {
      const at = now.toISOString();
      await db
        .insertInto('shares')
        .values({ api_id: apiId, user_id: userId, permission, created_at: at, updated_at: at })
        .onConflict((oc) => oc.columns(['api_id', 'user_id']).doUpdateSet({ permission, updated_at: at }))
        .execute();
    },

    /** True when a share was removed. */
    async remove(apiId: string, userId: string): Promise<boolean> {
      const res = await db.deleteFrom('shares').where('api_id', '=', apiId).where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}

export type SharesRepo = ReturnType<typeof createSharesRepo>;
