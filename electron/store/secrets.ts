// The registry of stored secrets: the AES-GCM ciphertext for the encrypted store, or just the
// reference for the OS keychain, so secrets no scan refers to any more can be swept.

import type { Db } from './database';

export function createSecretsRepo(db: Db) {
  return {
    async put(ref: string, backend: string, ciphertext: string | null, now: Date): Promise<void> {
      await db
        .insertInto('secrets')
        .values({ ref, backend, ciphertext, created_at: now.toISOString() })
        .onConflict((oc) => oc.column('ref').doUpdateSet({ backend, ciphertext, created_at: now.toISOString() }))
        .execute();
    },
    async get(ref: string): Promise<{ backend: string; ciphertext: string | null } | undefined> {
      return db.selectFrom('secrets').select(['backend', 'ciphertext']).where('ref', '=', ref).executeTakeFirst();
    },
    async delete(ref: string): Promise<void> {
      await db.deleteFrom('secrets').where('ref', '=', ref).execute();
    },
    async list(): Promise<{ ref: string; backend: string }[]> {
      return db.selectFrom('secrets').select(['ref', 'backend']).execute();
    },
  };
}

export type SecretsRepo = ReturnType<typeof createSecretsRepo>;
