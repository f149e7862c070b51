// Activity figures: the runner's environment and platform-wide counts (public), and the signed-in
// dashboard overview.

import type { Hono } from 'hono';
import { sql } from 'kysely';
import type { Health } from '../../../shared/contract';
import { SERVER_MESSAGES } from '../../../shared/messages';
import { isContainer } from '../../environment';
import type { Services } from '../../services';
import type { AppEnv } from '../env';
import { ok } from '../respond';

export function registerPublicRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/environment', (c) =>
    ok(c, SERVER_MESSAGES.ok, { isDocker: isContainer(), localScans: s.config.allowLocalScans, socialSignIn: s.config.oidc !== null }),
  );

  // For load balancers: a node that lost its database leaves the rotation.
  app.get('/api/health', async (c) => {
    const store: Health['store'] = s.config.databaseUrl ? 'postgres' : 'sqlite';
    if (await databaseAnswers(s)) return ok(c, SERVER_MESSAGES.databaseReachable, { database: 'reachable', store } satisfies Health);
    // During an outage (logged once by the store) a load balancer's every check would add a line.
    s.logger[s.dbHealth.down ? 'debug' : 'warn']('health: the database did not answer', { store });
    return c.json({ success: false, message: SERVER_MESSAGES.databaseUnreachable, data: { database: 'unreachable', store } satisfies Health }, 503);
  });

  app.get('/api/stats/platform', async (c) => ok(c, SERVER_MESSAGES.ok, await s.repos.stats.platform(s.clock.now())));

  // Signed in: the overview over every API the caller can see.
  app.get('/api/dashboard/overview', async (c) => {
    await s.scans.expireTriage();
    return ok(c, 'Dashboard loaded', await s.repos.dashboard.overview(c.get('user').id, s.clock.now()));
  });
}

const HEALTH_TIMEOUT_MS = 2000;

/** One trivial query within the timeout; any error or a slow answer counts as unreachable. */
async function databaseAnswers(s: Services): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
  });
  const query = sql`select 1 as one`
    .execute(s.db)
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}
