// Two-factor state of users: TOTP on/off and the last accepted time step, hashed recovery codes,
// and the challenges that stand between a correct password and a session.

import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from './database';
import type { MfaChallengesTable } from './schema';

export type ChallengeRow = Selectable<MfaChallengesTable>;

export function createTwoFactorRepo(db: Db) {
  return {
    async setEnabled(userId: string, enabled: boolean): Promise<void> {
      await db.updateTable('users').set({ totp_enabled: enabled ? 1 : 0, totp_last_step: 0 }).where('id', '=', userId).execute();
    },

    /**
     * Records `step` as used if it is later than the last used one, in one statement, so a code
     * raced twice is accepted once. True when this call took it.
     */
    async takeStep(userId: string, step: number): Promise<boolean> {
      const res = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where('totp_last_step', '<', step)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async replaceRecoveryCodes(userId: string, hashes: string[], now: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (hashes.length) {
          await trx
            .insertInto('recovery_codes')
            .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now.toISOString() })))
            .execute();
        }
      });
    },

    /** Marks an unused recovery code used; true when it was there to use. */
    async useRecoveryCode(userId: string, hash: string, now: Date): Promise<boolean> {
      const res = await db
        .updateTable('recovery_codes')
        .set({ used_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const r = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async createChallenge(input: Omit<ChallengeRow, 'id' | 'created_at'>, now: Date): Promise<void> {
      await db
        .insertInto('mfa_challenges')
        .values({ id: randomUUID(), created_at: now.toISOString(), ...input })
        .execute();
    },

    async findChallenge(tokenHash: string, now: Date): Promise<ChallengeRow | undefined> {
      await db.deleteFrom('mfa_challenges').where('expires_at', '<=', now.toISOString()).execute();
      return db.selectFrom('mfa_challenges').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    async deleteChallenge(id: string): Promise<void> {
      await db.deleteFrom('mfa_challenges').where('id', '=', id).execute();
    },
  };
}

export type TwoFactorRepo = ReturnType<typeof createTwoFactorRepo>;
