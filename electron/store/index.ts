// The repositories of every aggregate, built over one database handle.

import { createApisRepo } from './apis';
import { createDashboardRepo } from './dashboard';
import type { Db } from './database';
import { createEndpointsRepo } from './endpoints';
import { createFindingsRepo } from './findings';
import { createIdentitySetupsRepo } from './identity-setups';
import { createLoginEventsRepo } from './login-events';
import type { Notifier } from './notify';
import { createPasswordResetsRepo } from './password-resets';
import { createQuotasRepo } from './quotas';
import { createRetestsRepo } from './retests';
import { createScansRepo } from './scans';
import { createScanTrafficRepo } from './scan-traffic';
import { createSecretsRepo } from './secrets';
import { createSchedulesRepo } from './schedules';
import { createSessionsRepo } from './sessions';
import { createSharesRepo } from './shares';
import { createStatsRepo } from './stats';
import { createThrottleRepo } from './throttle';
import { createTriageRepo } from './triage';
import { createTwoFactorRepo } from './two-factor';
import { createUserSettingsRepo } from './user-settings';
import { createUsersRepo } from './users';

/** `notifier` carries what other nodes must hear of (sessions ended); by default this process only. */
export function createRepos(db: Db, notifier?: Notifier) {
  return {
    users: createUsersRepo(db),
    sessions: createSessionsRepo(db, notifier),
    passwordResets: createPasswordResetsRepo(db),
    userSettings: createUserSettingsRepo(db),
    stats: createStatsRepo(db),
    loginEvents: createLoginEventsRepo(db),
    apis: createApisRepo(db),
    endpoints: createEndpointsRepo(db),
    scans: createScansRepo(db),
    scanTraffic: createScanTrafficRepo(db),
    findings: createFindingsRepo(db),
    secrets: createSecretsRepo(db),
    shares: createSharesRepo(db),
    dashboard: createDashboardRepo(db),
    schedules: createSchedulesRepo(db),
    twoFactor: createTwoFactorRepo(db),
    throttle: createThrottleRepo(db),
    quotas: createQuotasRepo(db),
    triage: createTriageRepo(db),
    retests: createRetestsRepo(db),
    identitySetups: createIdentitySetupsRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
