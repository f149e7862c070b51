// Triage of findings (issue 17): set a finding's mark, and the API's marks as a file for
// `portcullis scan --baseline`.

import type { TriageRequest } from '../../../shared/contract';
import { call } from './client';
import type { Auth } from './session';

export const triageFinding = (auth: Auth, body: TriageRequest) => call('POST /api/findings/triage', { token: auth.token, body });

export const exportTriage = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/findings/triage/export', { token: auth.token, query: { api_id: apiId }, signal });
