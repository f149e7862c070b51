// Public facts: the runner's environment and platform-wide activity counts.

import type { Hono } from 'hono';
import { SERVER_MESSAGES } from '../../../shared/messages';
import { isContainer } from '../../environment';
import type { Services } from '../../services';
import type { AppEnv } from '../env';
import { ok } from '../respond';

export function registerPublicRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/environment', (c) =>
    ok(c, SERVER_MESSAGES.ok, { isDocker: isContainer(), localScans: s.config.allowLocalScans }),
  );

  app.get('/api/stats/platform', async (c) => ok(c, SERVER_MESSAGES.ok, await s.repos.stats.platform(s.clock.now())));
}
