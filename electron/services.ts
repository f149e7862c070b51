// Everything the route handlers and the background jobs use, built once per core.

import type { Accounts } from './accounts/service';
import type { Mailer } from './accounts/mailer';
import type { TwoFactor } from './accounts/two-factor';
import type { Clock } from './clock';
import type { CoreConfig } from './config';
import type { Logger } from './log';
import type { Scheduler } from './scheduler/scheduler';
import type { Db } from './store/database';
import type { DatabaseHealth } from './store/health';
import type { ScanEvents } from './scanner/events';
import type { ScanService } from './scanner/service';
import type { SecretStore } from './secrets/types';
import type { Repos } from './store/index';

export interface Services {
  config: CoreConfig;
  db: Db;
  /** Whether the database answers (an outage is logged once there). */
  dbHealth: DatabaseHealth;
  repos: Repos;
  logger: Logger;
  clock: Clock;
  mailer: Mailer | null;
  accounts: Accounts;
  /** TOTP two-factor sign-in and recovery codes. */
  twoFactor: TwoFactor;
  /** Scan keys: the OS keychain (desktop, CLI) or AES-256-GCM (team server). */
  secrets: SecretStore;
  /** Scan lifecycle: create, start, cancel, details, list. */
  scans: ScanService;
  /** Scan progress and finished events, for the desktop shell and the CLI. */
  scanEvents: ScanEvents;
  /** Recurring scans. */
  scheduler: Scheduler;
}
