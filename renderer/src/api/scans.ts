// Scans (create, start, details, cancel, retry, list) and schedules (spec section 7).

import type { ScheduleFrequency } from '../../../shared/constants';
import type { KeptFrom } from '../../../shared/contract';
import type { IdentityInput, SignupSetting } from '../../../shared/identities';
import { call } from './client';
import type { Auth } from './session';

/** The quick path (keys) or named identities (shared/identities.ts), with the sign-up choice. */
/** The pace of a scan (Configure Scan): requests per second (0 = no cap) and requests in flight; absent: the server's defaults. */
export interface ScanPace {
  rps?: number;
  concurrency?: number;
}

/** What the scan may write (allow_existing_objects, destructive_operations) and its seed; absent: the defaults. */
export interface ScanWrites {
  allow_existing_objects?: boolean;
  destructive_operations?: string[];
  seed?: number;
}

export type ScanConfig = ScanPace &
  ScanWrites &
  ({ scan_profile: string; api_key_1: string; api_key_2?: string; lower_privilege_key?: 1 | 2 } | { scan_profile: string; identities: IdentityInput[]; signup: SignupSetting; kept_from?: KeptFrom });

export const createScan = (auth: Auth, apiId: string, config: ScanConfig) =>
  call('POST /api/scan/create', { token: auth.token, body: { ...config, api_id: apiId, user_id: auth.userId } });

/** Configure Scan's offer: the caller's last configuration of the API (no secrets), or null. */
export const lastScanConfig = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/scan/last-config', { token: auth.token, query: { api_id: apiId }, signal });

/** A new scan (not started) with the caller's last configuration and keys of the API. */
export const repeatLastScan = (auth: Auth, apiId: string) => call('POST /api/scan/repeat', { token: auth.token, body: { api_id: apiId, user_id: auth.userId } });

/** Configure Scan's Test button: logs in as one identity and says who the API thinks it is. */
export const testIdentity = (auth: Auth, apiId: string, identity: IdentityInput, keptFrom?: KeptFrom | null, signal?: AbortSignal) =>
  call('POST /api/scan/identity/test', { token: auth.token, body: { api_id: apiId, user_id: auth.userId, identity, ...(keptFrom ? { kept_from: keptFrom } : {}) }, signal });

/** The caller's identity setups of the API that worked, newest first (no secrets). */
export const identitySetups = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/scan/identity/setups', { token: auth.token, query: { api_id: apiId }, signal });

/** A setup's (or the caller's own scan's) identities for the form: secrets stay on the server as markers. */
export const identityRecipe = (auth: Auth, apiId: string, from: KeptFrom, signal?: AbortSignal) =>
  call('POST /api/scan/identity/recipe', { token: auth.token, body: { api_id: apiId, ...from }, signal });

export const forgetIdentitySetup = (auth: Auth, apiId: string, setupId: string) =>
  call('POST /api/scan/identity/setups/delete', { token: auth.token, body: { api_id: apiId, setup_id: setupId } });

/** What Configure Scan pre-fills: the inferred placement, the sign-up and login operations. */
export const identityDefaults = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('POST /api/scan/identity/defaults', { token: auth.token, body: { api_id: apiId, user_id: auth.userId }, signal });

export const startScan = (auth: Auth, apiId: string, scanProfile: string, scanId?: string) =>
  call('POST /api/scan/start', {
    token: auth.token,
    body: { api_id: apiId, scan_profile: scanProfile, user_id: auth.userId, ...(scanId ? { scan_id: scanId } : {}) },
  });

export const scanDetails = (auth: Auth, scanId: string, signal?: AbortSignal) =>
  call('POST /api/scan/details', { token: auth.token, body: { scan_id: scanId }, signal });
/** The details with each finding's brief (the scan page's list); the whole finding is scanFinding. */
export const scanBrief = (auth: Auth, scanId: string, signal?: AbortSignal) =>
  call('POST /api/scan/details/brief', { token: auth.token, body: { scan_id: scanId }, signal });
export const scanFinding = (auth: Auth, scanId: string, findingId: string, signal?: AbortSignal) =>
  call('POST /api/scan/finding', { token: auth.token, body: { scan_id: scanId, finding_id: findingId }, signal });
export const scanCoverage = (auth: Auth, scanId: string, signal?: AbortSignal) =>
  call('POST /api/scan/coverage', { token: auth.token, body: { scan_id: scanId }, signal });

/** The users the scan registered on the target, with their passwords (for whoever may see the scan). */
export const scanCreatedUsers = (auth: Auth, scanId: string) => call('POST /api/scan/created-users', { token: auth.token, body: { scan_id: scanId } });

export const cancelScan = (auth: Auth, scanId: string) =>
  call('POST /api/scan/cancel', { token: auth.token, body: { scan_id: scanId, user_id: auth.userId } });

/** Runs a failed or cancelled scan again with its configuration and keys; answers the new scan's id. */
export const retryScan = (auth: Auth, scanId: string, edited?: { identities: IdentityInput[]; signup?: SignupSetting }) =>
  call('POST /api/scan/retry', { token: auth.token, body: { scan_id: scanId, user_id: auth.userId, ...(edited ?? {}) } });

export const listScans = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/scan/list', { token: auth.token, query: { user_id: auth.userId, api_id: apiId }, signal });

export const getSchedule = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/scans/schedule', { token: auth.token, query: { api_id: apiId, user_id: auth.userId }, signal });

export interface ScheduleTime {
  time_of_day: string;
  time_zone: string;
  weekday?: number;
  day_of_month?: number;
}

export const saveSchedule = (auth: Auth, apiId: string, frequency: ScheduleFrequency, at?: ScheduleTime) =>
  call('POST /api/scans/schedule', {
    token: auth.token,
    body: { api_id: apiId, user_id: auth.userId, frequency, is_enabled: true, ...(at ?? {}) },
  });

export const deleteSchedule = (auth: Auth, apiId: string) =>
  call('DELETE /api/scans/schedule', { token: auth.token, body: { api_id: apiId, user_id: auth.userId } });

/** Configure Scan's write policy: the API's operations that look destructive, and whether it is local. */
export const scanWritePolicy = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('POST /api/scan/write-policy', { token: auth.token, body: { api_id: apiId, user_id: auth.userId }, signal });
