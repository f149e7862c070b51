// Sign-in history: when, from which client and address, by which method.

import type { Db } from './database';

export function createLoginEventsRepo(db: Db) {
  return {
    async record(userId: string, method: string, info: { client: string | null; ip: string }, now: Date): Promise<void> {
      await db
        .insertInto('login_events')
        .values({ user_id: userId, created_at: now.toISOString(), client: info.client?.slice(0, 200) ?? null, ip: info.ip, method })
        .execute();
    },
    async recent(userId: string, limit = 20) {
      return db
        .selectFrom('login_events')
        .select(['created_at', 'client', 'ip', 'method'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type LoginEventsRepo = ReturnType<typeof createLoginEventsRepo>;
