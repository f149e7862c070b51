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
    async list(): Promise<{ ref: string; backend: string; created_at: string }[]> {
      return db.selectFrom('secrets').select(['ref', 'backend', 'created_at']).execute();
    },
    /** The ciphertexts of one backend (the encrypted store's start-up check). */
    async ciphertexts(backend: string): Promise<{ ref: string; ciphertext: string }[]> {
      const rows = await db.selectFrom('secrets').select(['ref', 'ciphertext']).where('backend', '=', backend).execute();
      return rows.flatMap((r) => (r.ciphertext ? [{ ref: r.ref, ciphertext: r.ciphertext }] : []));
    },
    /**
     * Rewrites every ciphertext of a backend in one transaction (a key change): `rewrite` returns the
     * new ciphertext, or null to keep the row; if it throws, nothing is changed. Resolves with the count rewritten.
     */
    async rewriteCiphertexts(backend: string, rewrite: (ref: string, ciphertext: string) => string | null): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('secrets').select(['ref', 'ciphertext']).where('backend', '=', backend).execute();
        let rewritten = 0;
        for (const row of rows) {
          if (!row.ciphertext) continue;
          const next = rewrite(row.ref, row.ciphertext);
          if (next === null) continue;
          await trx.updateTable('secrets').set({ ciphertext: next }).where('ref', '=', row.ref).execute();
          rewritten += 1;
        }
        return rewritten;
      });
    },
  };
}

export type SecretsRepo = ReturnType<typeof createSecretsRepo>;
