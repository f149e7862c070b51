// Identity setups repository (issue 31, item 5): per user and API, the identity setups that signed in
// for a scan, newest first. A setup is one recipe (its fingerprint): signing in again with it moves it
// to the top; past the limit the oldest go. The secrets are the SecretStore's (the caller stores and
// deletes them by `secret_ref`); a row holds only what the list shows.

import { randomUUID } from 'node:crypto';
import type { Db } from './database';
import type { IdentitySetupsTable } from './schema';

export type IdentitySetupRow = IdentitySetupsTable;

export function createIdentitySetupsRepo(db: Db) {
  return {
    /** The user's setups of the API, most recently working first. */
    async list(apiId: string, userId: string): Promise<IdentitySetupRow[]> {
      return db.selectFrom('identity_setups').selectAll().where('api_id', '=', apiId).where('user_id', '=', userId).orderBy('worked_at', 'desc').orderBy('id', 'desc').execute();
    },

    async find(id: string): Promise<IdentitySetupRow | undefined> {
      return db.selectFrom('identity_setups').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findByFingerprint(apiId: string, userId: string, fingerprint: string): Promise<IdentitySetupRow | undefined> {
      return db.selectFrom('identity_setups').selectAll().where('api_id', '=', apiId).where('user_id', '=', userId).where('fingerprint', '=', fingerprint).executeTakeFirst();
    },

    /** A new setup (its secrets already stored under `secretRef`); returns its id. */
    async insert(row: { apiId: string; userId: string; fingerprint: string; summary: string; secretRef: string; scanId: string | null; id?: string }, now: Date): Promise<string> {
      const id = row.id ?? randomUUID();
      await db
        .insertInto('identity_setups')
        .values({ id, api_id: row.apiId, user_id: row.userId, fingerprint: row.fingerprint, summary: row.summary, secret_ref: row.secretRef, scan_id: row.scanId, created_at: now.toISOString(), worked_at: now.toISOString() })
        .execute();
      return id;
    },

    /** It worked again: to the top of the list, with the scan that signed in. */
    async touch(id: string, summary: string, scanId: string | null, now: Date): Promise<void> {
      await db.updateTable('identity_setups').set({ worked_at: now.toISOString(), summary, scan_id: scanId }).where('id', '=', id).execute();
    },

    /** Deletes one setup; returns its secret reference (for the SecretStore), or null when it was not there. */
    async delete(id: string): Promise<string | null> {
      const row = await db.deleteFrom('identity_setups').where('id', '=', id).returning('secret_ref').executeTakeFirst();
      return row?.secret_ref ?? null;
    },

    /** The user's setups of the API beyond the newest `keep`, deleted; returns their secret references. */
    async trim(apiId: string, userId: string, keep: number): Promise<string[]> {
      const rows = await this.list(apiId, userId);
      const gone = rows.slice(keep);
      for (const r of gone) await db.deleteFrom('identity_setups').where('id', '=', r.id).execute();
      return gone.map((r) => r.secret_ref);
    },

    /** Every setup's secret reference of an API (read before the API is deleted: the rows go with it). */
    async refsForApi(apiId: string): Promise<string[]> {
      const rows = await db.selectFrom('identity_setups').select('secret_ref').where('api_id', '=', apiId).execute();
      return rows.map((r) => r.secret_ref);
    },

  };
}

export type IdentitySetupsRepo = ReturnType<typeof createIdentitySetupsRepo>;
