// Triage of findings (issue 17): set a finding's mark, and the API's marks as a file for
// `portcullis scan --baseline`.

import type { TriageRequest } from '../../../shared/contract';
import { call } from './client';
import type { Auth } from './session';

export const triageFinding = (auth: Auth, body: TriageRequest) => call('POST /api/findings/triage', { token: auth.token, body });

export const exportTriage = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/findings/triage/export', { token: auth.token, query: { api_id: apiId }, signal });

// Re-test (issue 29): a finding's check again on its operation; its history; Close as fixed.
export const retestFinding = (auth: Auth, findingId: string) => call('POST /api/findings/retest', { token: auth.token, body: { finding_id: findingId } });

export const listRetests = (auth: Auth, findingId: string, signal?: AbortSignal) =>
  call('GET /api/findings/retests', { token: auth.token, query: { finding_id: findingId }, signal });

export const closeFindingFixed = (auth: Auth, findingId: string) => call('POST /api/findings/close-fixed', { token: auth.token, body: { finding_id: findingId } });
