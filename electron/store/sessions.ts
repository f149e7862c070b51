// Sessions repository. Only the SHA-256 of a session token is stored, never the token.

import { randomUUID } from 'node:crypto';
import type { Db } from './database';
import { inProcessNotifier, type Notifier } from './notify';
import type { SessionsTable } from './schema';

export type SessionRow = SessionsTable;

export interface NewSession {
  userId: string;
  tokenHash: string;
  idleTimeoutMinutes: number;
  expiresAt: Date;
  client: string | null;
  ip: string | null;
}

export function createSessionsRepo(db: Db, notifier: Notifier = inProcessNotifier()) {
  // Told whenever sessions are deleted, on any node, so open event streams can re-check theirs at once.
  const ended = (): void => notifier.publish('session_ended', {});
  return {
    /**
     * Calls `listener` after any session is deleted, on this node or another (and when the notifications
     * connection is back after a drop, since a deletion may have been missed); returns the unsubscribe function.
     */
    onEnded(listener: () => void): () => void {
      const offEnded = notifier.subscribe('session_ended', () => listener());
      const offReconnect = notifier.onReconnect(listener);
      return () => {
        offEnded();
        offReconnect();
      };
    },
    async create(input: NewSession, now: Date): Promise<SessionRow> {
      const row: SessionRow = {
        id: randomUUID(),
        user_id: input.userId,
        token_hash: input.tokenHash,
        created_at: now.toISOString(),
        last_used_at: now.toISOString(),
        expires_at: input.expiresAt.toISOString(),
        idle_timeout_minutes: input.idleTimeoutMinutes,
        client: input.client,
        ip: input.ip,
      };
      await db.insertInto('sessions').values(row).execute();
      return row;
    },
    async findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
      return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async findById(id: string): Promise<SessionRow | undefined> {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async touch(id: string, now: Date): Promise<void> {
      await db.updateTable('sessions').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      ended();
    },
    async deleteForUser(userId: string, exceptId?: string): Promise<void> {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptId) q = q.where('id', '!=', exceptId);
      await q.execute();
      ended();
    },
    async listForUser(userId: string): Promise<SessionRow[]> {
      return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('last_used_at', 'desc').execute();
    },
    async setIdleTimeoutForUser(userId: string, minutes: number): Promise<void> {
      await db.updateTable('sessions').set({ idle_timeout_minutes: minutes }).where('user_id', '=', userId).execute();
    },
    /** Drops sessions past their absolute end; idle ones are dropped when next presented. */
    async deleteExpired(now: Date): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).execute();
      ended();
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
