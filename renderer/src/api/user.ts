// The signed-in user's profile (spec section 7).

import { call } from './client';

export const getProfile = (token: string, signal?: AbortSignal) => call('GET /api/user/profile', { token, signal });
