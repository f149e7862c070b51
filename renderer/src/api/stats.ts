// Public platform activity shown on the landing page.

import { call } from './client';

export const getPlatformStats = (signal?: AbortSignal) => call('GET /api/stats/platform', { signal });
