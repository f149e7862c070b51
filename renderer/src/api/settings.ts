// The Settings client (spec sections 7 and 8): bearer calls that time out (10 s reads, 15 s writes) and
// whose failures are mapped to the spec's texts by status. A 401 is flagged so the screen can end the
// session after its 3 s notice.

import { SETTINGS_TIMEOUTS, type Preferences } from '../../../shared/constants';
import type { ApiContract, RouteKey, UpdateExtendedProfileRequest, UpdateProfileRequest, UpdateScanTrafficRequest } from '../../../shared/contract';
import { PASSWORD_CHANGE_MESSAGES, SETTINGS_MESSAGES } from '../../../shared/messages';
import type { ValidationError } from '../../../shared/validation';
import { call, type CallOptions } from './client';

export type SettingsResult<T> =
  | { ok: true; status: number; message: string; data: T }
  | {
      ok: false;
      status: number;
      /** The text to show: the spec's text for the status, else the server's message, else `fallback`. */
      message: string;
      /** The server's own message ('' without one), for callers with their own rules. */
      serverMessage: string;
      errors: ValidationError[];
      sessionExpired: boolean;
      kind: 'timeout' | 'network' | 'http';
    };

export interface SettingsCallOptions {
  /** Defaults to the spec's read (10 s) or write (15 s) timeout. */
  timeoutMs?: number;
  /** Used when the server gives no message for a status the spec does not name. */
  fallback?: string;
}

/** The spec's text for an HTTP failure of a Settings call. */
export function settingsFailureMessage(status: number, serverMessage: string, fallback: string): string {
  if (status === 401) return SETTINGS_MESSAGES.sessionExpired;
  if (status === 403) return SETTINGS_MESSAGES.forbidden;
  if (status === 409) return SETTINGS_MESSAGES.usernameTaken;
  if (status >= 500) return SETTINGS_MESSAGES.serverError;
  return serverMessage || fallback;
}

async function settingsCall<K extends RouteKey>(
  route: K,
  token: string,
  options: Omit<CallOptions<K>, 'token' | 'signal'>,
  settings: SettingsCallOptions = {},
): Promise<SettingsResult<ApiContract[K]['data']>> {
  const write = !route.startsWith('GET ');
  const timeoutMs = settings.timeoutMs ?? (write ? SETTINGS_TIMEOUTS.writeMs : SETTINGS_TIMEOUTS.readMs);
  const fallback = settings.fallback ?? SETTINGS_MESSAGES.updateFailed;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const failure = (kind: 'timeout' | 'network') => ({
    ok: false as const,
    status: 0,
    message: kind === 'timeout' ? SETTINGS_MESSAGES.timeout : SETTINGS_MESSAGES.network,
    serverMessage: '',
    errors: [],
    sessionExpired: false,
    kind,
  });
  try {
    const res = await call(route, { ...options, token, signal: controller.signal } as CallOptions<K>);
    if (timedOut) return failure('timeout');
    if (res.ok) return res;
    return {
      ok: false,
      status: res.status,
      message: settingsFailureMessage(res.status, res.message, fallback),
      serverMessage: res.message,
      errors: res.errors,
      sessionExpired: res.status === 401 || /Session expired/i.test(res.message),
      kind: 'http',
    };
  } catch {
    return failure(timedOut ? 'timeout' : 'network');
  } finally {
    clearTimeout(timer);
  }
}

export const getProfile = (token: string, o?: SettingsCallOptions) =>
  settingsCall('GET /api/user/profile', token, {}, { fallback: SETTINGS_MESSAGES.refreshFailed, ...o });

export const updateProfile = (token: string, body: UpdateProfileRequest, o?: SettingsCallOptions) =>
  settingsCall('PUT /api/user/update', token, { body }, { fallback: SETTINGS_MESSAGES.updateFailed, ...o });

export const getExtendedProfile = (token: string, o?: SettingsCallOptions) =>
  settingsCall('GET /api/user/extended-profile', token, {}, { fallback: SETTINGS_MESSAGES.loadFailed, ...o });

export const updateExtendedProfile = (token: string, body: UpdateExtendedProfileRequest, o?: SettingsCallOptions) =>
  settingsCall('PUT /api/user/extended-profile', token, { body }, { fallback: SETTINGS_MESSAGES.updateFailed, ...o });

export const getPreferences = (token: string, o?: SettingsCallOptions) =>
  settingsCall('GET /api/user/preferences', token, {}, { fallback: SETTINGS_MESSAGES.preferencesLoadFailed, ...o });

export const updatePreferences = (token: string, preferences: Preferences, o?: SettingsCallOptions) =>
  settingsCall('PUT /api/user/preferences', token, { body: { preferences } }, { fallback: SETTINGS_MESSAGES.preferencesUpdateFailed, ...o });

export const changePassword = (
  token: string,
  body: { currentPassword: string; newPassword: string; confirmPassword: string },
  o?: SettingsCallOptions,
) => settingsCall('PUT /api/user/password', token, { body }, { fallback: PASSWORD_CHANGE_MESSAGES.failedGeneric, ...o });

// Settings > Security: two-factor sign-in, active sessions, recent sign-ins.

export const getTwoFactor = (token: string, o?: SettingsCallOptions) => settingsCall('GET /api/user/2fa', token, {}, o);

export const setupTwoFactor = (token: string, o?: SettingsCallOptions) => settingsCall('POST /api/user/2fa/setup', token, { body: {} }, o);

export const enableTwoFactor = (token: string, code: string, o?: SettingsCallOptions) =>
  settingsCall('POST /api/user/2fa/enable', token, { body: { code } }, o);

export const disableTwoFactor = (token: string, body: { password: string; code: string }, o?: SettingsCallOptions) =>
  settingsCall('POST /api/user/2fa/disable', token, { body }, o);

export const renewRecoveryCodes = (token: string, code: string, o?: SettingsCallOptions) =>
  settingsCall('POST /api/user/2fa/recovery-codes', token, { body: { code } }, o);

export const listSessions = (token: string, o?: SettingsCallOptions) => settingsCall('GET /api/user/sessions', token, {}, o);

export const signOutSession = (token: string, sessionId: string, o?: SettingsCallOptions) =>
  settingsCall('DELETE /api/user/sessions', token, { body: { session_id: sessionId } }, o);

export const signOutOtherSessions = (token: string, o?: SettingsCallOptions) =>
  settingsCall('POST /api/user/sessions/revoke-others', token, { body: {} }, o);

export const listSignIns = (token: string, o?: SettingsCallOptions) => settingsCall('GET /api/user/sign-ins', token, {}, o);

// Settings → Scan traffic (issue 27): the user's upstream proxy and the CA of an intercepting proxy.

export const getScanTraffic = (token: string, o?: SettingsCallOptions) => settingsCall('GET /api/user/scan-traffic', token, {}, { fallback: SETTINGS_MESSAGES.loadFailed, ...o });

export const updateScanTraffic = (token: string, body: UpdateScanTrafficRequest, o?: SettingsCallOptions) =>
  settingsCall('PUT /api/user/scan-traffic', token, { body }, { fallback: SETTINGS_MESSAGES.updateFailed, ...o });
