// The dashboard overview (spec section 7).

import { call } from './client';
import type { Auth } from './session';

export const getDashboardOverview = (auth: Auth, signal?: AbortSignal) =>
  call('GET /api/dashboard/overview', { token: auth.token, query: { user_id: auth.userId }, signal });
