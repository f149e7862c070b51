// The sign-in throttles' counted attempts, one row per attempt (accounts/throttle.ts decides from them).
// The count is the database's, so every server node sharing it holds one limit and a restart keeps
// lockouts. Counting and recording an attempt is one transaction that no other attempt on the same key
// interleaves with (`lockName`), so parallel attempts, on any node, cannot all pass at the limit.

import type { Db } from './database';
import { lockName } from './dialect';

/** The attempts of one key after a time: how many, and the oldest's time (epoch ms; null when none). */
export interface KeyCount {
  count: number;
  oldest: number | null;
}

/** A key to count: its attempts after `after` (epoch ms) are in the window; `max` of them block it. */
export interface KeyWindow {
  key: string;
  after: number;
  max: number;
}

async function countAfter(db: Db, { key, after }: Pick<KeyWindow, 'key' | 'after'>): Promise<KeyCount> {
  const row = await db
    .selectFrom('throttle_failures')
    .select(({ fn }) => [fn.countAll<number>().as('count'), fn.min<number>('at').as('oldest')])
    .where('key', '=', key)
    .where('at', '>', after)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
}

export function createThrottleRepo(db: Db) {
  return {
    /** Per key, its attempts in the window. */
    async counts(keys: readonly Pick<KeyWindow, 'key' | 'after'>[]): Promise<KeyCount[]> {
      return Promise.all(keys.map((k) => countAfter(db, k)));
    },

    /**
     * Records one attempt at `at` under every key, unless one of them already holds `max` attempts in
     * its window: then nothing is written and the counts say why. Returns the recorded rows' ids.
     */
    async take(keys: readonly KeyWindow[], at: number): Promise<{ ids: number[] } | { refused: KeyCount[] }> {
      return db.transaction().execute(async (trx) => {
        // Sorted, so two attempts naming the same keys take their locks in one order.
        for (const key of [...new Set(keys.map((k) => k.key))].sort()) await lockName(trx, `throttle:${key}`);
        const counts: KeyCount[] = [];
        for (const k of keys) counts.push(await countAfter(trx, k));
        if (counts.some((c, i) => c.oldest !== null && c.count >= keys[i]!.max)) return { refused: counts };
        const rows = await trx
          .insertInto('throttle_failures')
          .values(keys.map((k) => ({ key: k.key, at })))
          .returning('id')
          .execute();
        return { ids: rows.map((r) => Number(r.id)) };
      });
    },

    async add(key: string, at: number): Promise<void> {
      await db.insertInto('throttle_failures').values({ key, at }).execute();
    },

    /** Takes back recorded attempts (ones that succeeded), by id: never another attempt's row. */
    async remove(ids: readonly number[]): Promise<void> {
      if (ids.length) await db.deleteFrom('throttle_failures').where('id', 'in', ids).execute();
    },

    async clear(key: string): Promise<void> {
      await db.deleteFrom('throttle_failures').where('key', '=', key).execute();
    },

    /** Deletes the attempts of one kind at or before `upTo` (epoch ms): they have left the window. */
    async sweep(kind: string, upTo: number): Promise<void> {
      // Keys from "kind:" up to "kind;" (';' follows ':') are exactly the keys of this kind, in the byte
      // order both databases sort text by (openStore refuses a PostgreSQL database that sorts otherwise).
      await db.deleteFrom('throttle_failures').where('key', '>=', `${kind}:`).where('key', '<', `${kind};`).where('at', '<=', upTo).execute();
    },
  };
}

export type ThrottleRepo = ReturnType<typeof createThrottleRepo>;
