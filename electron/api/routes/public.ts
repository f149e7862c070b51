// Activity figures: the runner's environment and platform-wide counts (public), and the signed-in
// dashboard overview.

import type { Hono } from 'hono';
import { SERVER_MESSAGES } from '../../../shared/messages';
import { isContainer } from '../../environment';
import type { Services } from '../../services';
import type { AppEnv } from '../env';
import { ok } from '../respond';

export function registerPublicRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/environment', (c) =>
    ok(c, SERVER_MESSAGES.ok, { isDocker: isContainer(), localScans: s.config.allowLocalScans, socialSignIn: s.config.oidc !== null }),
  );

  app.get('/api/stats/platform', async (c) => ok(c, SERVER_MESSAGES.ok, await s.repos.stats.platform(s.clock.now())));

  // Signed in: the overview over every API the caller can see.
  app.get('/api/dashboard/overview', async (c) => {
    await s.scans.expireTriage();
    return ok(c, 'Dashboard loaded', await s.repos.dashboard.overview(c.get('user').id, s.clock.now()));
  });
}
