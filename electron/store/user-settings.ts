// Preferences and extended profile of a user (the Settings screen's data).

import { EMPTY_EXTENDED_PROFILE, mergePreferences, type Preferences } from '../../shared/constants';
import type { ExtendedProfile } from '../../shared/contract';
import type { Db } from './database';

export function createUserSettingsRepo(db: Db) {
  return {
    async getPreferences(userId: string): Promise<Preferences> {
      const row = await db.selectFrom('user_preferences').select('data').where('user_id', '=', userId).executeTakeFirst();
      return mergePreferences(row ? (JSON.parse(row.data) as Partial<Preferences>) : null);
    },
    async setPreferences(userId: string, prefs: Preferences, now: Date): Promise<void> {
      const data = JSON.stringify(prefs);
      await db
        .insertInto('user_preferences')
        .values({ user_id: userId, data, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: now.toISOString() }))
        .execute();
    },
    async getProfile(userId: string): Promise<ExtendedProfile> {
      const row = await db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return { ...EMPTY_EXTENDED_PROFILE };
      const { user_id: _u, updated_at: _t, ...profile } = row;
      return profile;
    },
    async setProfile(userId: string, profile: ExtendedProfile, now: Date): Promise<void> {
      const values = { ...profile, updated_at: now.toISOString() };
      await db
        .insertInto('user_profiles')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  };
}

export type UserSettingsRepo = ReturnType<typeof createUserSettingsRepo>;
