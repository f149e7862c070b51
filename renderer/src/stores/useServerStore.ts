// Sync mode: which team server the app talks to ('' = the local core, the default). Connecting checks
// the address and that a Portcullis server answers there, signs the current session out (its token
// belongs to the other side), and from then on every call goes there over HTTP.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { STORAGE_KEYS } from '../../../shared/constants';
import { TEAM_SERVER_MESSAGES } from '../../../shared/messages';
import { serverUrl, setServerUrl } from '../api/request';
import { checkServerUrl, probeServer } from '../lib/team-server';
import { browserStorage, type KeyValueStorage } from './storage';
import { authStore } from './useAuthStore';

export type ConnectOutcome = { ok: true; url: string; host: string } | { ok: false; message: string };

export interface ServerState {
  /** The team server's origin, or null in local mode. */
  url: string | null;
  /** A word for the login page after connecting or disconnecting (the session ended with it). */
  notice: string | null;
  connect(input: string): Promise<ConnectOutcome>;
  disconnect(): void;
  clearNotice(): void;
}

export interface ServerDeps {
  storage: KeyValueStorage;
  probe(origin: string): Promise<string | null>;
  /** Ends the current session (on the side it belongs to). */
  signOut(): void;
}

export function createServerStore(deps: ServerDeps): StoreApi<ServerState> {
  const initial = serverUrl() || null;
  return createStore<ServerState>()((set) => ({
    url: initial,
    notice: null,

    async connect(input) {
      const checked = checkServerUrl(input);
      if (!checked.ok) return checked;
      const problem = await deps.probe(checked.url);
      if (problem) return { ok: false, message: problem };
      deps.signOut();
      setServerUrl(checked.url);
      deps.storage.setItem(STORAGE_KEYS.serverUrl, checked.url);
      set({ url: checked.url, notice: TEAM_SERVER_MESSAGES.connected(checked.host) });
      return checked;
    },

    disconnect() {
      deps.signOut();
      setServerUrl('');
      deps.storage.removeItem(STORAGE_KEYS.serverUrl);
      set({ url: null, notice: TEAM_SERVER_MESSAGES.disconnected });
    },

    clearNotice() {
      set({ notice: null });
    },
  }));
}

export const serverStore = createServerStore({
  storage: browserStorage(),
  probe: (origin) => probeServer(origin),
  signOut: () => authStore.getState().logout(),
});

export function useServerStore<T>(selector: (state: ServerState) => T): T {
  return useStore(serverStore, selector);
}
