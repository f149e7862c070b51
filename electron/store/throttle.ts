// The sign-in throttles' counted attempts, so that lockouts survive a restart. The throttle itself
// decides in memory (one synchronous step per attempt); this is its durable copy.

import type { Db } from './database';

export function createThrottleRepo(db: Db) {
  return {
    async add(key: string, at: number): Promise<void> {
      await db.insertInto('throttle_failures').values({ key, at }).execute();
    },
    /** Takes back one counted attempt (an attempt that succeeded). */
    async removeOne(key: string, at: number): Promise<void> {
      const row = await db.selectFrom('throttle_failures').select('id').where('key', '=', key).where('at', '=', at).limit(1).executeTakeFirst();
      if (row) await db.deleteFrom('throttle_failures').where('id', '=', row.id).execute();
    },
    async clear(key: string): Promise<void> {
      await db.deleteFrom('throttle_failures').where('key', '=', key).execute();
    },
    /** The attempts of one kind since `since` (epoch ms); older ones of that kind are deleted. */
    async recent(kind: string, since: number): Promise<{ key: string; at: number }[]> {
      // Keys from "kind:" up to "kind;" (';' follows ':') are exactly the keys of this kind.
      const prefix = `${kind}:`;
      await db.deleteFrom('throttle_failures').where('key', '>=', prefix).where('key', '<', `${kind};`).where('at', '<', since).execute();
      return db
        .selectFrom('throttle_failures')
        .select(['key', 'at'])
        .where('key', '>=', prefix)
        .where('key', '<', `${kind};`)
        .where('at', '>=', since)
        .orderBy('at')
        .execute();
    },
  };
}

export type ThrottleRepo = ReturnType<typeof createThrottleRepo>;
