// Sharing an API with another account: invite, list, revoke, leave (spec section 7).

import type { SharePermission } from '../../../shared/constants';
import { call } from './client';
import type { Auth } from './session';

export const shareApi = (auth: Auth, apiId: string, email: string, permission: SharePermission) =>
  call('POST /api/apis/share', { token: auth.token, body: { owner_user_id: auth.userId, api_id: apiId, email, permission } });

export const listShares = (auth: Auth, apiId: string, signal?: AbortSignal) =>
  call('GET /api/apis/shares', { token: auth.token, query: { user_id: auth.userId, api_id: apiId }, signal });

export const revokeShare = (auth: Auth, apiId: string, userId: string) =>
  call('DELETE /api/apis/share', {
    token: auth.token,
    body: { owner_user_id: auth.userId, api_id: apiId, revoke_user_id: userId },
  });

export const leaveShare = (auth: Auth, apiId: string) =>
  call('DELETE /api/apis/leave-share', { token: auth.token, body: { user_id: auth.userId, api_id: apiId } });
