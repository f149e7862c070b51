// What the Settings tabs share: the token, the page banner and the session-ending paths.

import type { Preferences } from '../../../../shared/constants';

export interface Banner {
  kind: 'error' | 'success';
  text: string;
}

export interface SettingsContext {
  /** The stored bearer token, read at each call: another tab may have signed out meanwhile. */
  token(): string | null;
  /** The session is ending (expired or no token): every control is disabled. */
  disabled: boolean;
  setBanner(banner: Banner | null): void;
  missingToken(): void;
  sessionExpired(): void;
}

export type PreferenceSection = keyof Preferences;

export interface PreferencesControl {
  draft: Preferences;
  dirty: boolean;
  saving: boolean;
  edit<S extends PreferenceSection, K extends keyof Preferences[S]>(section: S, key: K, value: Preferences[S][K]): void;
  save(): Promise<void>;
  reset(): void;
}
