// The backend core, shared by the desktop shell, the team server and the CLI: the store with its
// migrations, the services, and the /api app. Each shell creates one core and talks to `fetch`.

import { createAccounts } from './accounts/service';
import { createMailer } from './accounts/mailer';
import { HashGate } from './accounts/passwords';
import { createTwoFactor } from './accounts/two-factor';
import { createApp } from './api/app';
import type { TransportInfo } from './api/env';
import { serviceUnavailable } from './api/errors';
import { systemClock, type Clock } from './clock';
import { resolveConfig, type CoreConfig, type CoreConfigInput } from './config';
import { lockDataDir } from './data-dir-lock';
import { ensurePrivateDir } from './file-modes';
import { heapFlagOf, importRunner } from './importer/import-runner';
import { createLogger, type Logger } from './log';
import { isPostgresUrl, openStore, type OpenedStore } from './store/database';
import { createNotifier } from './store/notify';
import { ScanEvents } from './scanner/events';
import { createScanService } from './scanner/service';
import { createScheduler, type Timer } from './scheduler/scheduler';
import { createSecretStore } from './secrets/index';
import { planSecretKey, type GivenKey } from './secrets/key-source';
import { createRepos } from './store/index';
import type { Services } from './services';

export interface CoreOptions extends CoreConfigInput {
  logger?: Logger;
  clock?: Clock;
  /** Run recurring scans (default: on for the desktop and the team server, off for the CLI). */
  runScheduler?: boolean;
  /** The scheduler's wake-up timer (tests pass one they control). */
  schedulerTimer?: Timer;
  /**
   * The address the team server will bind. Beyond loopback the encrypted store's key must come from
   * outside the data dir; the core refuses to start, before it creates a file, when it does not.
   */
  listenHost?: string;
  /**
   * Start an import worker now, so the first import does not wait for one (default: on for the desktop
   * and the team server; tests that never import leave it off).
   */
  warmImportWorker?: boolean;
}

export interface Core {
  config: CoreConfig;
  services: Services;
  store: OpenedStore;
  /** The /api app's entry point; the transport says who is calling. */
  fetch(request: Request, info?: TransportInfo): Promise<Response>;
  close(): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const config = resolveConfig(options);
  const logger = options.logger ?? createLogger();
  // Anything else would be taken for an SQLite file name.
  if (config.databaseUrl !== undefined && !isPostgresUrl(config.databaseUrl)) {
    throw new Error('The database URL (PORTCULLIS_DATABASE_URL or --database-url) must start with postgres:// or postgresql://.');
  }
  const givenKey = planSecretKey({
    shell: config.shell,
    choice: config.secretStore,
    dataDir: config.dataDir,
    envKey: config.secretKey,
    keyFile: config.secretKeyFile,
    listenHost: options.listenHost,
    sharedDatabase: config.databaseUrl !== undefined,
  });
  // PORTCULLIS_IMPORT_* are read (a wrong value stops the start) and the worker's bundle is found now.
  const imports = importRunner();
  // Not awaited: the worker loads on its own thread while the core opens.
  if (options.warmImportWorker ?? config.shell !== 'cli') void imports.warm();
  const heapFlag = heapFlagOf();
  if (heapFlag)
    logger.warn(`${heapFlag} replaces the import workers' memory limit (PORTCULLIS_IMPORT_MEMORY_MB): an import may use that much memory. Remove the flag from the command line or NODE_OPTIONS.`, {
      importMemoryMb: imports.settings.memoryMb,
    });
  ensurePrivateDir(config.dataDir, logger);
  // One core per data dir: a second one would fail the first one's running scans as "interrupted".
  const lock = lockDataDir(config.dataDir, config.shell);
  try {
    return await openCore({ ...options, logger }, config, givenKey, lock.release);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function openCore(options: CoreOptions & { logger: Logger }, config: CoreConfig, givenKey: GivenKey | null, releaseLock: () => void): Promise<Core> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const store = await openStore(config.databaseUrl ?? config.dbFile, logger);
  // Other nodes hear of scan events, ended sessions and schedule changes through it (PostgreSQL only).
  const notifier = await createNotifier({ store, databaseUrl: config.databaseUrl, nodeId: config.nodeId, logger }).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const repos = createRepos(store.db, notifier);
  const mailer = await createMailer(config.smtpUrl, config.mailFrom, logger);
  const secrets = await createSecretStore({
    shell: config.shell,
    choice: config.secretStore,
    dataDir: config.dataDir,
    givenKey,
    secrets: repos.secrets,
    clock,
    logger,
  }).catch(async (err: unknown) => {
    // A key refused at start (wrong, missing, damaged): the database is closed before the lock goes.
    await notifier.close();
    await store.close();
    throw err;
  });
  // Password hashes in flight are bounded; beyond the queue a check is refused with 503, not delayed.
  const hashGate = new HashGate(config.passwordHashing, () => serviceUnavailable(1));
  const twoFactor = createTwoFactor({ repos, secrets, config, clock, logger, hashGate });
  const accounts = createAccounts({ repos, config, clock, logger, mailer, twoFactor, hashGate });
  const scanEvents = new ScanEvents({ notifier, failureReasonOf: async (id) => (await repos.scans.findById(id))?.failure_reason ?? null });
  const scans = createScanService({ repos, secrets, config, logger, clock, events: scanEvents, notifier });
  const scheduler = createScheduler({ repos, scans, scanEvents, clock, logger, timer: options.schedulerTimer, notifier });
  const services: Services = { config, db: store.db, dbHealth: store.health, repos, logger, clock, mailer, accounts, twoFactor, secrets, scans, scanEvents, scheduler };
  await repos.sessions.deleteExpired(clock.now());
  // A crash leaves no scan "running": it is failed with a reason at the next start.
  await scans.recover();
  // Then runs missed while closed run once, and the timer is armed.
  if (options.runScheduler ?? config.shell !== 'cli') await scheduler.start();
  const app = createApp(services);
  const direct: TransportInfo = { transport: 'direct', clientIp: 'local' };
  let closed = false;
  return {
    config,
    services,
    store,
    fetch: async (request, info = direct) => app.fetch(request, info),
    async close() {
      if (closed) return;
      closed = true;
      await scheduler.stop();
      await scans.shutdown();
      // After the scans: their last events still reach the other nodes.
      await notifier.close();
      await store.close();
      releaseLock();
    },
  };
}
