// Platform-wide counts for the landing page's live activity panel.

import type { PlatformStats } from '../../shared/contract';
import type { Db } from './database';

function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

export function createStatsRepo(db: Db) {
  return {
    async platform(now: Date): Promise<PlatformStats> {
      const [findings, apis, scans] = await Promise.all([
        db.selectFrom('findings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        db.selectFrom('apis').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('created_at', '>=', startOfUtcDay(now))
          .where('status', 'in', ['running', 'completed', 'failed', 'cancelled'])
          .executeTakeFirstOrThrow(),
      ]);
      return { vulnerabilitiesFound: Number(findings.n), apisSecured: Number(apis.n), scansToday: Number(scans.n) };
    },
  };
}

export type StatsRepo = ReturnType<typeof createStatsRepo>;
