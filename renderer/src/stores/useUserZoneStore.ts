// The signed-in user's Settings time zone (issue 31, item 6): the zone accepted-risk end dates are
// picked and shown in, so a day stays the same day whatever zone the browser runs in. Read once per
// user; Settings tells the store when the zone changes.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { defaultTimeZone } from '../../../shared/display';
import { isKnownTimeZone, usableTimeZone } from '../../../shared/zone-days';
import { call } from '../api/client';
import { authStore, currentAuth } from './useAuthStore';

export interface UserZoneState {
  /** The user whose zone is held (null before the first read). */
  userId: string | null;
  /** The Settings zone as Intl spells it; the browser's zone until it is read or when none is set. */
  zone: string;
  /** The zone as Settings names it ("UTC+09:00"), for the screen. */
  label: string;
  /** Reads the signed-in user's zone unless it is already held. */
  load(): Promise<void>;
  /** Settings saved a new zone ("UTC+09:00", an IANA name, or '' for none). */
  setFromSettings(timezone: string): void;
}

export interface UserZoneDeps {
  auth(): { token: string; userId: string } | null;
  readZone(token: string): Promise<string | null>;
  browserZone(): string;
}

function zoneOf(timezone: string, browser: string): { zone: string; label: string } {
  return { zone: usableTimeZone(timezone, browser), label: isKnownTimeZone(timezone) ? timezone : browser };
}

export function createUserZoneStore(deps: UserZoneDeps): StoreApi<UserZoneState> {
  let pending: Promise<void> | null = null;
  return createStore<UserZoneState>()((set, get) => ({
    userId: null,
    zone: deps.browserZone(),
    label: deps.browserZone(),

    load() {
      const auth = deps.auth();
      if (!auth || get().userId === auth.userId) return Promise.resolve();
      pending ??= deps
        .readZone(auth.token)
        .then((timezone) => {
          // A failed read leaves the browser's zone and tries again next time.
          if (timezone !== null) set({ userId: auth.userId, ...zoneOf(timezone, deps.browserZone()) });
        })
        .finally(() => {
          pending = null;
        });
      return pending;
    },

    setFromSettings(timezone) {
      set({ userId: deps.auth()?.userId ?? null, ...zoneOf(timezone, deps.browserZone()) });
    },
  }));
}

export const userZoneStore = createUserZoneStore({
  auth: () => currentAuth(authStore.getState()),
  async readZone(token) {
    try {
      const res = await call('GET /api/user/extended-profile', { token });
      return res.ok ? res.data.profile.timezone : null;
    } catch {
      return null;
    }
  },
  browserZone: defaultTimeZone,
});

export function useUserZone(): { zone: string; label: string } {
  const zone = useStore(userZoneStore, (s) => s.zone);
  const label = useStore(userZoneStore, (s) => s.label);
  return { zone, label };
}
