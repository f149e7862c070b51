// APIs, imports, endpoints and flags (spec section 7), plus the team server's environment facts.

import type { Flag } from '../../../shared/constants';
import type { GraphqlImportRequest, ManualApiRequest } from '../../../shared/contract';
import { call } from './client';
import type { Auth } from './session';

export const getEnvironment = (signal?: AbortSignal) => call('GET /api/environment', { signal });

export const listApis = (auth: Auth, signal?: AbortSignal) =>
  call('GET /api/apis', { token: auth.token, query: { user_id: auth.userId }, signal });

export function importApi(auth: Auth, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('user_id', auth.userId);
  return call('POST /api/import', { token: auth.token, body: form });
}

export const createManualApi = (auth: Auth, input: Omit<ManualApiRequest, 'user_id'>) =>
  call('POST /api/apis/manual', { token: auth.token, body: { ...input, user_id: auth.userId } });

/** A live GraphQL endpoint, imported by introspection (the server asks it, inside the scan rules). */
export const importGraphqlEndpoint = (auth: Auth, input: GraphqlImportRequest) =>
  call('POST /api/import/graphql', { token: auth.token, body: input });

/** An API description the server fetches from its URL (the API's own /openapi.json), inside the scan rules. */
export const importSpecUrl = (auth: Auth, url: string) =>
  call('POST /api/import/url', { token: auth.token, body: { url, user_id: auth.userId } });

export const updateApi = (auth: Auth, apiId: string, updates: { title?: string; base_url?: string }) =>
  call('PUT /api/apis/update', { token: auth.token, body: { api_id: apiId, user_id: auth.userId, updates } });

export const deleteApi = (auth: Auth, apiId: string) =>
  call('DELETE /api/apis/delete', { token: auth.token, body: { api_id: apiId, user_id: auth.userId } });

export const listEndpoints = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('POST /api/endpoints', { token: auth.token, body: { api_id: apiId, user_id: auth.userId }, signal });

/** One flag on or off for every endpoint of the API, or for the listed ones, in one call. */
export const setFlagForMany = (auth: Auth, apiId: string, flag: Flag, on: boolean, endpointIds?: string[]) =>
  call('POST /api/endpoints/flags/bulk', {
    token: auth.token,
    body: { api_id: apiId, user_id: auth.userId, flags: flag, on, ...(endpointIds ? { endpoint_ids: endpointIds } : {}) },
  });

export const setFlag = (auth: Auth, apiId: string, endpointId: string, flag: Flag, on: boolean) =>
  call(on ? 'POST /api/endpoints/flags/add' : 'POST /api/endpoints/flags/remove', {
    token: auth.token,
    body: { api_id: apiId, user_id: auth.userId, endpoint_id: endpointId, flags: flag },
  });
