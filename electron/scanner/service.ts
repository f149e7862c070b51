// The scan lifecycle of DESIGN.md section 6: create (profile, options, keys into the SecretStore)
// -> start (one running scan per user) -> running in the background with progress and findings
// written as they come -> completed / failed (with a reason) / cancelled. Also the start-up
// recovery of scans a crash left running, and a clean stop when the core closes.
// On a database shared by several nodes (issue 19) the node that starts a scan runs it under a lease it
// renews every heartbeat; a node whose lease expires is taken for dead and its scans are failed by any
// other node's sweep (leases.ts keeps both); a cancel on another node reaches the owner through the row.

import { randomUUID } from 'node:crypto';
import { SCAN_PROFILE_OWASP, type ScanStatus } from '../../shared/constants';
import type { CreatedUserWithPassword, Finding, FindingBrief, FindingRetest, IdentityDefaults, IdentityRecipe, IdentitySetup, KeptFrom, LastScanConfiguration, ScanCurrent, ScanDetails, ScanPace, ScanSummary, TestIdentityData } from '../../shared/contract';
import {
  envReferences,
  expiredStaticTokens,
  identitiesFromKeys,
  identityUrls,
  issuesOf,
  obtainKind,
  scanConfigSchema,
  summarizeIdentity,
  type IdentityConfig,
  type IdentityInput,
  type IdentitySummary,
  type ScanConfig as IdentitiesConfig,
  type SignupSetting,
} from '../../shared/identities';
import { FINDING_MESSAGES, IDENTITY_MESSAGES, RETEST_MESSAGES, SCAN_MESSAGES } from '../../shared/messages';
import { defaultTimeZone, formatTimestamp } from '../../shared/display';
import { isKnownTimeZone, usableTimeZone } from '../../shared/zone-days';
import { SPEC_URL_MESSAGES } from '../../shared/api-messages';
import { SCAN_TRAFFIC_MESSAGES } from '../../shared/scan-traffic';
import { summarizeCoverage, type ScanCoverage } from '../../shared/coverage';
import { vulnerabilityCount } from '../../shared/severity';
import type { Clock } from '../clock';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import { parseSecurity } from '../store/apis';
import type { Repos } from '../store/index';
import type { Notifier } from '../store/notify';
import { databaseTroubleOf } from '../store/health';
import { parseNotes, type ScanNotes, type ScanRow } from '../store/scans';
import { SCAN_SECRET_PREFIX, scanAccountsRef, sweepOrphanSecrets } from '../secrets/index';
import type { SecretStore } from '../secrets/types';
import { parseStoredIdentities, type StoredIdentities } from './stored-identities';
import { createIdentitySetups, KeptSourceError, SETUP_TEXT } from './identity-setups';
import { checksForProfile } from './checks/index';
import type { Check } from './checks/types';
import { ScanEvents } from './events';
import { identityDefaults, testIdentity } from './identities/probe';
import { introspectGraphql } from './graphql-introspect';
import { importSpecFromUrl, SpecUrlRefusedError } from './spec-url-import';
import type { PreparedImport } from '../importer/result';
import { securityScore } from './findings';
import { createLeaseKeeper } from './leases';
import { assertPublicHost, LocalTargetError, type Resolver } from './net-guard';
import { engineSettings, runScan, type CreatedUserSecret, type ScanOutcome, type StopReason } from './run';
import { newScanSeed } from './random';
import { createRetester, RetestError } from './retest';
import { checkScanTarget } from './target';
import { destructiveOperations } from './write-policy';
import type { WritePolicyData } from '../../shared/write-policy';
import { checkProxyReachable, ProxyError } from './http/proxy';
import { createProxySettings, ProxySettingsError } from './proxy-settings';
import type { ScanTrafficSettings, UpdateScanTrafficRequest } from '../../shared/contract';
import type { StoredTraffic } from '../store/scan-traffic';

/** The scan's own settings, stored in scans.config (never a secret: the identities' secrets live in the SecretStore). */
export interface ScanConfig {
  rps: number;
  concurrency: number;
  timeoutMs: number;
  /** The scan's time limit (absent: the server's default). */
  maxDurationMs?: number;
  lowerPrivilegeKey: 1 | 2;
  allowExistingObjects: boolean;
  /** Operations the user named whose destructive requests and probes are allowed (with allowExistingObjects). */
  namedOperations?: string[];
  hasKey2: boolean;
  /** Who the scan speaks as, without secrets: name, role, how obtained, placement. */
  identities?: IdentitySummary[];
  /** The sign-up setting the user chose (absent: the default, on for local targets). */
  signup?: SignupSetting;
  /** The seed of the scan's probe values and choices (absent on scans from before it). */
  seed?: number;
}

export interface CreateScanInput {
  apiId: string;
  profile: string;
  /** The quick path: static keys (used when `identities` is absent). */
  key1?: string;
  key2?: string | null;
  /** Named identities; checked here as everywhere with shared/identities' schema. */
  identities?: IdentityInput[];
  signup?: SignupSetting;
  lowerPrivilegeKey?: 1 | 2;
  rps?: number;
  concurrency?: number;
  timeoutMs?: number;
  /** The whole scan's time limit; default config.scan.maxDurationMs. */
  maxDurationMs?: number;
  allowExistingObjects?: boolean;
  /** Operations whose destructive requests and probes the user allows ("PUT /files/raw"); needs allowExistingObjects. */
  namedOperations?: string[];
  /** The seed of the scan's probe values and choices; default a new one. */
  seed?: number;
  /** Where KEPT_SECRET markers in `identities` take their values (a saved setup, the user's own scan). */
  keptFrom?: KeptFrom;
}

export class ScanError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    /** The fields the refusal is about ("identities.0.token"), when it names some. */
    readonly errors?: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

export const SCAN_TEXT = {
  created: 'Scan created',
  started: 'Scan started',
  cancelled: 'Scan cancelled',
  notFound: 'Scan not found.',
  nothingToStart: 'No scan of this API is waiting to start: create one first.',
  alreadyStarted: 'This scan has already been started.',
  notRunning: 'The scan is not running.',
  keysGone: 'The keys of this scan are no longer stored; create the scan again.',
  noIdentity: 'A primary API key is required.',
  commandOnServer: 'A command cannot obtain credentials on a team server: use a login recipe, OAuth2, a cookie session or a static token.',
  envOnServer: (names: string[]) => `Fill in ${names.map((n) => `\${env:${n}}`).join(', ')}: only the CLI reads values from its environment.`,
  nothingToRepeat: 'No earlier scan of this API to repeat: run one by hand first.',
  notRetryable: 'Only a scan that has ended (completed, failed or cancelled) can run again.',
  interrupted: 'The scan was interrupted: Portcullis stopped while it was running (crash or forced shutdown).',
  nodeLost: 'The scan was interrupted: the server node running it stopped (crash or forced shutdown).',
  shutdown: 'Portcullis was closed while the scan was running.',
  userCancelled: 'Cancelled by the user.',
  cancelUnconfirmed:
    'The scan is marked cancelled, but the server node running it has not yet confirmed that it stopped sending requests. That node stops it at its next check of the scan, within seconds; a node that is down sends nothing.',
} as const;

/** What a cancel did: the scan's status, and whether its requests have stopped (on another node: the owner said so). */
export interface CancelOutcome {
  status: ScanStatus;
  stopped: boolean;
}

export interface ScanServiceDeps {
  repos: Repos;
  secrets: SecretStore;
  config: CoreConfig;
  logger: Logger;
  clock: Clock;
  events?: ScanEvents;
  /** The checks to run (default: the profile's registry). */
  checks?: readonly Check[];
  resolver?: Resolver;
  /** Tells the node running a scan that it was cancelled here (at once, not at its next heartbeat). */
  notifier?: Notifier;
}

interface ActiveScan {
  controller: AbortController;
  done: Promise<void>;
  userId: string;
  /** What it checks now (memory only: the details of a running scan show it). */
  current: ScanCurrent | null;
  /** Its pace toward the API now (memory only, like `current`). */
  pace?: ScanPace | null;
}

const secretRef = (scanId: string) => `${SCAN_SECRET_PREFIX}${scanId}`;

export { parseStoredIdentities };

/** How often `wait` (and a cancel waiting for the owner) looks at a scan running on another node. */
const WAIT_POLL_MS = 100;

const API_DELETED: StopReason = { status: 'failed', message: 'The API was deleted.' };

/** What the SecretStore keeps for the users a scan registered: each with its password. */
interface StoredCreatedUsers {
  v: 1;
  users: CreatedUserSecret[];
}

function parseStoredCreatedUsers(raw: string): CreatedUserSecret[] {
  try {
    const v = JSON.parse(raw) as Partial<StoredCreatedUsers>;
    return Array.isArray(v.users) ? v.users.filter((u) => u && typeof u.password === 'string') : [];
  } catch {
    return [];
  }
}

function parseConfig(json: string): Partial<ScanConfig> {
  try {
    return JSON.parse(json) as Partial<ScanConfig>;
  } catch {
    return {};
  }
}

/** A problem found after the run (a result that could not be stored): a note, and one of the problems. */
function problemNote(outcome: ScanOutcome, message: string): void {
  outcome.errors.push(message);
  outcome.problems.push(message);
}

function failedOutcome(reason: string): ScanOutcome {
  return {
    status: 'failed',
    failureReason: reason,
    errors: [],
    problems: [],
    skipped: [],
    progress: { done: 0, total: 0, requestsSent: 0, findings: 0 },
    requestsByCheck: {},
    checksRun: [],
    identities: [],
    coverage: { summary: summarizeCoverage([], []), operations: [] },
    createdUsers: [],
    createdUserSecrets: [],
    refreshes: 0,
    rotatedRefreshTokens: {},
    traffic: null,
    loginFailure: null,
    signedIn: false,
  };
}

/** On a shared database, a scan key younger than this is never swept as an orphan (its scan may be on its way). */
const ORPHAN_KEY_GRACE_MS = 60 * 60 * 1000;

export function createScanService(deps: ScanServiceDeps) {
  const { repos, secrets, config, logger, clock } = deps;
  const events = deps.events ?? new ScanEvents();
  const active = new Map<string, ActiveScan>();
  const proxies = createProxySettings({ secrets, config, resolver: deps.resolver });
  const setups = createIdentitySetups({ repos, secrets, clock, logger });

  /**
   * A static token that is a JWT past its expiry is refused (at create, at start and by Test): the scan
   * would only collect 401s. The date is in the user's Settings zone (else the server's).
   */
  async function refuseExpired(userId: string, identities: readonly IdentityConfig[], field = (n: number) => `identities.${n}.token`): Promise<void> {
    const expired = expiredStaticTokens(identities, clock.now().getTime());
    if (!expired.length) return;
    const message = await expiredMessage(userId, expired[0]!.name, expired[0]!.expiredAt);
    throw new ScanError(400, message, [{ field: field(expired[0]!.index), message }]);
  }

  /** The identities a client sent, their kept-secret markers filled (refusals as the service's own). */
  async function withKept<T>(userId: string, apiId: string, identities: T[], from: KeptFrom | undefined, fieldPrefix?: string): Promise<T[]> {
    try {
      return (await setups.filled(userId, apiId, identities, from, fieldPrefix)).identities;
    } catch (err) {
      if (err instanceof KeptSourceError) throw new ScanError(err.status, err.message, err.issues.length ? err.issues : undefined);
      throw err;
    }
  }

  async function expiredMessage(userId: string, name: string, at: number): Promise<string> {
    const chosen = (await repos.userSettings.getProfile(userId).catch(() => null))?.timezone ?? '';
    const server = defaultTimeZone();
    const zone = usableTimeZone(chosen, server);
    return IDENTITY_MESSAGES.tokenExpired(name, formatTimestamp(at, zone), isKnownTimeZone(chosen) ? chosen : server);
  }
  /** Several nodes share the database: leases decide which running scans are alive. */
  const shared = config.databaseUrl !== undefined;
  const leases = createLeaseKeeper({
    repos,
    config,
    logger,
    clock,
    events,
    active,
    reasons: { nodeLost: SCAN_TEXT.nodeLost, userCancelled: SCAN_TEXT.userCancelled, apiDeleted: API_DELETED },
  });
  /** The last pace another node announced for a scan it runs (memory only, like its progress events). */
  const remotePace = new Map<string, ScanPace>();
  events.subscribe((e) => {
    if (e.type === 'scan:finished') remotePace.delete(e.scanId);
    else if (e.type === 'scan:progress' && e.pace && !active.has(e.scanId)) {
      if (remotePace.size >= 1_000 && !remotePace.has(e.scanId)) remotePace.delete(remotePace.keys().next().value!);
      remotePace.set(e.scanId, e.pace);
    }
  });
  // A cancel on another node names the scan: if it runs here, look at its row now.
  deps.notifier?.subscribe('scan_cancelled', (payload) => {
    const scanId = (payload as { scanId?: unknown } | null)?.scanId;
    if (typeof scanId === 'string' && active.has(scanId)) leases.stopIfEnded(scanId).catch((err: unknown) => logger.debug('Could not check a scan cancelled elsewhere', { scan_id: scanId, error: (err as Error)?.message }));
  });
  /**
   * How long a cancel on a node that does not run the scan waits for the owner to stop: two heartbeats
   * (the owner looks at its scans' rows at least that often; a notification usually tells it at once).
   */
  const cancelWaitMs = Math.max(2_000, 2 * config.scanLease.heartbeatMs);

  /** Accepted risks whose end has come count again (in scores and counts) before anything is shown. */
  async function expireTriage(): Promise<void> {
    const n = await repos.triage.expireDue(clock.now(), securityScore);
    if (n) logger.info('Accepted risks expired; their findings count again', { count: n });
  }

  /** A scan's details with its findings as `findings` reads them. */
  async function scanWithFindings<F extends FindingBrief>(scanId: string, findings: () => Promise<F[]>): Promise<ScanDetails<F>> {
    const row = await repos.scans.findById(scanId);
    if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
    await expireTriage();
    const notes = parseNotes(row.notes);
    const fixed = row.status === 'completed' && notes.previous_scan_id ? await repos.findings.fixedSince(notes.previous_scan_id, scanId) : [];
    return {
      scan_id: row.id,
      api_id: row.api_id,
      status: row.status as ScanStatus,
      results: {
        scan_info: {
          started_at: row.started_at,
          completed_at: row.completed_at,
          progress: { done: row.progress_done, total: row.progress_total },
          requests_sent: row.requests_sent,
          errors: notes.errors,
          // Which notes are problems; absent on scans from before notes had kinds (their wording decides).
          ...(notes.problems ? { problems: notes.problems } : {}),
          score: row.score,
          failure_reason: row.failure_reason,
          skipped_checks: notes.skipped_checks,
          seed: parseConfig(row.config).seed ?? null,
          writes: parseConfig(row.config).allowExistingObjects ? 'existing' : 'created',
          destructive: parseConfig(row.config).namedOperations ?? [],
          fixed,
          requests_by_check: notes.requests_by_check,
          // Before the scan has run: the configured identities, not yet verified.
          identities: notes.identities ?? (parseConfig(row.config).identities ?? []).map((i) => ({ name: i.name, role: i.role, obtained: i.obtained, verified_as: null, refreshes: 0, failures: 0, created: false })),
          created_users: notes.created_users ?? [],
          login_failure: notes.login_failure ?? null,
          refreshes: notes.refreshes ?? 0,
          coverage: notes.coverage ?? null,
          // Running here: the runner's own; on another node: what that node last saved with its progress.
          current: row.status === 'running' ? (active.get(scanId)?.current ?? (row.current_check ? { check: row.current_check, endpoint: row.current_endpoint } : null)) : null,
          pace: row.status === 'running' ? (active.get(scanId)?.pace ?? remotePace.get(scanId) ?? null) : null,
        },
        results: await findings(),
      },
    };
  }

  /** Resolves true once the owner of a scan has let go of it (or is gone), false at the deadline. */
  async function ownerStopped(scanId: string): Promise<boolean> {
    const deadline = Date.now() + cancelWaitMs;
    for (;;) {
      const lease = await repos.scans.leaseState(scanId);
      if (lease !== 'held') return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  }

  async function target(baseUrl: string) {
    const v = await checkScanTarget(baseUrl, config.allowLocalScans, deps.resolver);
    if (!v.ok) throw new ScanError(v.status, v.message);
  }

  /** Is the API's host this machine or a private network (sign-up on by default there)? */
  async function isLocalTarget(baseUrl: string): Promise<boolean> {
    try {
      await assertPublicHost(new URL(baseUrl).hostname, deps.resolver);
      return false;
    } catch (err) {
      return err instanceof LocalTargetError;
    }
  }

  /** The identities of a create request, validated: the schema, then what this runner allows. */
  async function identitiesOf(input: CreateScanInput): Promise<IdentitiesConfig> {
    const raw = input.identities ?? (input.key1?.trim() ? identitiesFromKeys(input.key1, input.key2) : null);
    if (!raw || !raw.length) throw new ScanError(400, SCAN_TEXT.noIdentity);
    const parsed = scanConfigSchema.safeParse({
      identities: raw,
      ...(input.signup !== undefined ? { signup: input.signup } : {}),
      ...(input.allowExistingObjects ? { writes: 'existing' } : {}),
      ...(input.namedOperations?.length ? { destructive: input.namedOperations } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
    });
    if (!parsed.success) {
      const first = issuesOf(parsed.error)[0]!;
      throw new ScanError(400, `${first.field}: ${first.message}`);
    }
    const cfg = parsed.data;
    // The sign-up operation is configuration as much as the identities are: a reference there is no less the server's environment.
    const refs = envReferences([cfg.identities, cfg.signup]);
    if (refs.length) throw new ScanError(400, SCAN_TEXT.envOnServer(refs));
    if (config.shell === 'server' && cfg.identities.some((i) => obtainKind(i) === 'command')) throw new ScanError(400, SCAN_TEXT.commandOnServer);
    // Login and token URLs on other hosts obey the same rule as the API's own.
    for (const url of cfg.identities.flatMap(identityUrls)) await target(url);
    return cfg;
  }

  async function forget(row: ScanRow): Promise<void> {
    if (!row.secret_ref) return;
    await secrets.delete(row.secret_ref);
    await repos.scans.clearSecretRef(row.id);
  }

  /** Each finding with its latest re-test (null when none). */
  async function withRetests<F extends FindingBrief>(scanId: string, findings: F[]): Promise<F[]> {
    const latest = await repos.retests.latestForScan(scanId);
    // Only where there is one: findings nobody re-tested keep their shape (exports, findings.json).
    return latest.size ? findings.map((f) => (latest.has(f.id) ? { ...f, retest: latest.get(f.id)! } : f)) : findings;
  }

  const retester = createRetester({
    repos,
    config,
    logger,
    clock,
    checks: deps.checks,
    target,
    isLocalTarget,
    proxyFor: (userId) => proxies.proxyFor(userId),
    async identitiesFor(scan, userId) {
      // The finding's scan's keys; once a newer scan took them, the caller's latest of the API, as Retry does.
      const own = scan.secret_ref ? scan : await repos.scans.latestHoldingSecret(scan.api_id, userId);
      const raw = own?.secret_ref ? await secrets.get(own.secret_ref) : null;
      if (!own?.secret_ref || !raw) return null;
      const stored = parseStoredIdentities(raw);
      return { config: { identities: stored.identities, ...(stored.signup !== undefined ? { signup: stored.signup } : {}) }, ref: own.secret_ref };
    },
    async saveRotated(ref, rotated) {
      const current = await secrets.get(ref);
      if (!current) return;
      const next = parseStoredIdentities(current);
      for (const i of next.identities) {
        const token = rotated[i.name];
        if (token && i.oauth2) i.oauth2 = { ...i.oauth2, refresh_token: token };
      }
      await secrets.set(ref, JSON.stringify(next));
    },
  });
  /** The re-tester's refusals as the scan service's, so routes map them the same way. */
  const asScanError = (err: unknown): never => {
    if (err instanceof RetestError) throw new ScanError(err.status, err.message);
    throw err;
  };

  /**
   * Keeps the identities a scan signed in with as a setup of the user's for the API (issue 31): as soon
   * as they work, so a scan cancelled or failed later still leaves the setup. Never fails the scan.
   */
  async function keepSetup(row: ScanRow, scanId: string): Promise<void> {
    try {
      const current = row.secret_ref ? await secrets.get(row.secret_ref) : null;
      if (current) await setups.remember(row.user_id, row.api_id, scanId, parseStoredIdentities(current));
    } catch (err) {
      logger.warn('Could not keep the identity setup of a scan', { scan_id: scanId, error: (err as Error)?.message });
    }
  }

  async function execute(row: ScanRow, controller: AbortController): Promise<void> {
    const scanId = row.id;
    const notes: ScanNotes = parseNotes(row.notes);
    let outcome: ScanOutcome;
    let snapshot: ScanNotes['endpoints'];
    try {
      const raw = row.secret_ref ? await secrets.get(row.secret_ref) : null;
      const api = await repos.apis.findById(row.api_id);
      if (!raw || !api) {
        outcome = failedOutcome(raw ? 'The API was deleted.' : SCAN_TEXT.keysGone);
      } else {
        const stored = parseStoredIdentities(raw);
        const cfg = parseConfig(row.config);
        const signup = stored.signup ?? ((await isLocalTarget(api.base_url)) ? 'auto' : 'off');
        const endpoints = await repos.endpoints.listForApi(api.id);
        snapshot = endpoints.map((e) => ({ method: e.method, path: e.path, summary: e.summary, flags: e.flags }));
        const previous = await repos.scans.previousCompleted(api.id, scanId);
        const seen = previous ? await repos.findings.fingerprints(previous.id) : new Set<string>();
        notes.previous_scan_id = previous?.id ?? null;
        await repos.scans.setNotes(scanId, notes);
        const engine = engineSettings(config.scan, config.allowLocalScans, cfg, await proxies.proxyFor(row.user_id));
        let findings = 0;
        // A proxy that cannot be reached fails the scan with that one reason, before a request is sent.
        const proxyTrouble = engine.proxy ? await checkProxyReachable(engine.proxy, Math.min(engine.timeoutMs, 10_000), engine.tlsVerify).then(() => null, (err: unknown) => (err instanceof ProxyError ? err.message : String(err))) : null;
        outcome = proxyTrouble ? failedOutcome(proxyTrouble) : await runScan(
          {
            scanId,
            api: { id: api.id, name: api.name, baseUrl: api.base_url, security: parseSecurity(api.security_schemes) },
            endpoints,
            identities: { identities: stored.identities, signup },
            allowCommands: config.shell !== 'server',
            engine,
            options: { lowerPrivilegeKey: cfg.lowerPrivilegeKey ?? 2, allowExistingObjects: cfg.allowExistingObjects ?? false, namedOperations: cfg.namedOperations ?? [], seed: cfg.seed ?? 0 },
            checks: deps.checks ?? checksForProfile(row.profile),
            signal: controller.signal,
          },
          {
            logger,
            signedIn: () => keepSetup(row, scanId),
            progress: (p, current, pace) => {
              findings = p.findings;
              const entry = active.get(scanId);
              if (entry) {
                entry.current = current ?? null;
                entry.pace = pace ?? null;
              }
              repos.scans
                .updateProgress(scanId, p, current ?? null)
                .then(async (saved) => {
                  // Cancelled on another node, failed by a sweep, or deleted with its API.
                  if (!saved && !controller.signal.aborted) await leases.stopIfEnded(scanId);
                })
                .catch((err) => logger[databaseTroubleOf(err) ? 'debug' : 'warn']('Could not save scan progress', { scan_id: scanId, error: (err as Error)?.message }));
              events.emit({ type: 'scan:progress', scanId, apiId: row.api_id, userId: row.user_id, ...p, findings, current: current ?? null, pace: pace ?? null });
            },
            finding: async (f) => {
              try {
                const inserted = await repos.findings.insert({ ...f, scan_id: scanId, api_id: row.api_id, trend: seen.has(f.fingerprint) ? 'recurring' : 'new' }, clock.now());
                // Found again after it was closed as fixed: it was not fixed, and counts again.
                if (inserted && (await repos.triage.reopenFixed(row.api_id, f.fingerprint, RETEST_MESSAGES.reopenedReason, clock.now(), securityScore))) {
                  logger.info('A finding closed as fixed was found again', { scan_id: scanId, fingerprint: f.fingerprint });
                }
                return inserted;
              } catch (err) {
                // The API (and with it this scan) was deleted while it ran: stop sending requests for it.
                if (!(await repos.scans.findById(scanId))) controller.abort(API_DELETED);
                throw err;
              }
            },
          },
        );
        // OAuth2 refresh tokens rotate: the next scan (a schedule) must start from the newest.
        if (Object.keys(outcome.rotatedRefreshTokens).length && row.secret_ref) {
          const current = await secrets.get(row.secret_ref);
          if (current) {
            const next = parseStoredIdentities(current);
            for (const i of next.identities) {
              const token = outcome.rotatedRefreshTokens[i.name];
              if (token && i.oauth2) i.oauth2 = { ...i.oauth2, refresh_token: token };
            }
            await secrets.set(row.secret_ref, JSON.stringify(next));
          }
        }
      }
    } catch (err) {
      logger.error('Scan failed to run', { scan_id: scanId, error: (err as Error)?.message });
      outcome = failedOutcome(`The scan stopped on an internal error: ${(err as Error).message}`);
    }
    // The requests it sent, as a HAR for the download: a scan that lost them still ends as it ended.
    if (outcome.traffic) {
      try {
        await repos.scanTraffic.save(scanId, outcome.traffic, clock.now());
        if (outcome.traffic.dropped) outcome.errors.push(`The scan's traffic keeps its last ${outcome.traffic.entries} requests: the ${outcome.traffic.dropped} before them were dropped to stay within bounds.`);
      } catch (err) {
        logger.error('Could not store the traffic of a scan', { scan_id: scanId, error: (err as Error)?.message });
        problemNote(outcome, 'The traffic of the scan could not be stored: it cannot be downloaded.');
      }
    }
    // The users the scan registered stay on the target: their passwords are kept like scan keys, for those who may see the scan.
    if (outcome.createdUserSecrets.length) {
      try {
        await secrets.set(scanAccountsRef(scanId), JSON.stringify({ v: 1, users: outcome.createdUserSecrets } satisfies StoredCreatedUsers));
      } catch (err) {
        logger.error('Could not store the passwords of the users the scan registered', { scan_id: scanId, error: (err as Error)?.message });
        problemNote(outcome, 'The passwords of the users the scan registered could not be stored: the users are listed without them.');
      }
    }
    // A kept setup takes the refresh tokens OAuth2 rotated during the scan (the ones it signed in with are spent).
    if (outcome.signedIn && Object.keys(outcome.rotatedRefreshTokens).length) await keepSetup(row, scanId);
    const kept = await repos.findings.severities(scanId);
    const score = outcome.status === 'completed' ? securityScore(kept) : null;
    const finalNotes: ScanNotes = {
      ...notes,
      identities: outcome.identities,
      created_users: outcome.createdUsers,
      refreshes: outcome.refreshes,
      errors: outcome.errors,
      problems: outcome.problems,
      skipped_checks: outcome.skipped,
      requests_by_check: outcome.requestsByCheck,
      checks_run: outcome.checksRun,
      ...(outcome.coverage.operations.length ? { coverage: outcome.coverage.summary } : {}),
      ...(snapshot ? { endpoints: snapshot } : {}),
      ...(outcome.loginFailure ? { login_failure: outcome.loginFailure } : {}),
      ...(outcome.status === 'completed' && notes.previous_scan_id ? { fixed: await repos.findings.fixedSince(notes.previous_scan_id, scanId) } : {}),
    };
    const reason = outcome.status === 'completed' ? null : outcome.failureReason ?? (outcome.status === 'cancelled' ? SCAN_TEXT.userCancelled : null);
    const saved = await repos.scans.finish(
      scanId,
      {
        status: outcome.status,
        failureReason: reason,
        score,
        notes: finalNotes,
        done: outcome.progress.done,
        total: outcome.progress.total,
        requestsSent: outcome.progress.requestsSent,
        coverage: outcome.coverage.operations.length ? outcome.coverage : null,
      },
      clock.now(),
    );
    // Its requests have stopped: the lease goes, which tells a node waiting on a cancel that it may answer.
    await repos.scans.releaseLease(scanId, config.nodeId).catch((err: unknown) => logger.debug('Could not release a scan lease', { scan_id: scanId, error: (err as Error)?.message }));
    logger.info('Scan finished', {
      scan_id: scanId,
      api_id: row.api_id,
      status: outcome.status,
      findings: outcome.progress.findings,
      requests: outcome.progress.requestsSent,
      reason: reason ?? undefined,
    });
    // The row was ended elsewhere: a cancel on another node is announced here, with the row's reason;
    // a sweep that failed it has announced it already.
    const ended = saved ? null : await repos.scans.findById(scanId);
    if (ended?.status === 'failed') return;
    events.emit({
      type: 'scan:finished',
      scanId,
      apiId: row.api_id,
      userId: row.user_id,
      status: ended?.status === 'cancelled' ? 'cancelled' : outcome.status,
      failureReason: ended?.status === 'cancelled' ? ended.failure_reason : reason,
      // The one count every surface shows (History, the scan page, the notification), as a sweep's event has it too.
      findings: vulnerabilityCount(kept),
      score: ended ? null : score,
    });
  }

  return {
    events,

    /** Stores the profile, options and keys; returns the scan id. Older drafts and keys of this user's scans of the API go. */
    async create(userId: string, input: CreateScanInput): Promise<string> {
      const api = await repos.apis.findById(input.apiId);
      if (!api) throw new ScanError(404, SCAN_TEXT.notFound);
      await target(api.base_url);
      const given = input.identities ? { ...input, identities: await withKept(userId, api.id, input.identities, input.keptFrom) } : input;
      const identities = await identitiesOf(given);
      await refuseExpired(userId, identities.identities);
      const id = randomUUID();
      const ref = secretRef(id);
      const users = identities.identities.filter((i) => i.role === 'user').length;
      const cfg: ScanConfig = {
        rps: input.rps ?? config.scan.rps,
        concurrency: Math.min(input.concurrency ?? config.scan.concurrency, config.scan.maxConcurrency),
        timeoutMs: input.timeoutMs ?? config.scan.timeoutMs,
        ...(input.maxDurationMs !== undefined ? { maxDurationMs: input.maxDurationMs } : {}),
        lowerPrivilegeKey: input.lowerPrivilegeKey ?? 2,
        allowExistingObjects: input.allowExistingObjects ?? false,
        ...(identities.destructive?.length ? { namedOperations: identities.destructive } : {}),
        hasKey2: users >= 2,
        identities: identities.identities.map(summarizeIdentity),
        ...(identities.signup !== undefined ? { signup: identities.signup } : {}),
        seed: identities.seed ?? newScanSeed(),
      };
      const stored: StoredIdentities = { v: 2, identities: identities.identities, ...(identities.signup !== undefined ? { signup: identities.signup } : {}) };
      await secrets.set(ref, JSON.stringify(stored));
      try {
        await repos.scans.create({ id, apiId: api.id, userId, profile: SCAN_PROFILE_OWASP, config: { ...cfg }, secretRef: ref }, clock.now());
      } catch (err) {
        await secrets.delete(ref);
        throw err;
      }
      for (const older of await repos.scans.olderHoldingSecrets(api.id, userId, id)) await forget(older);
      await repos.scans.deleteDrafts(api.id, userId, id);
      logger.info('Scan created', { scan_id: id, api_id: api.id, user_id: userId, identities: identities.identities.length });
      return id;
    },

    /**
     * A new scan with the profile, options and keys of this user's last scan of the API: what a
     * scheduled scan runs (DESIGN.md section 7). The keys move to the new scan.
     */
    async createFromPrevious(userId: string, apiId: string): Promise<string> {
      const last = await repos.scans.latestHoldingSecret(apiId, userId);
      return this.createLike(userId, apiId, last);
    },

    /**
     * What Configure Scan offers to repeat: the caller's last scan of the API that still holds its keys
     * (identities without secrets, options), or null.
     */
    async lastConfiguration(userId: string, apiId: string): Promise<LastScanConfiguration | null> {
      const last = await repos.scans.latestHoldingSecret(apiId, userId);
      if (!last?.secret_ref || !(await secrets.get(last.secret_ref))) return null;
      const cfg = parseConfig(last.config);
      return {
        scan_id: last.id,
        created_at: last.created_at,
        profile: last.profile,
        identities: (cfg.identities ?? []).map((i) => ({ name: i.name, role: i.role, obtained: i.obtained, placement: i.placement })),
        rps: cfg.rps ?? null,
        concurrency: cfg.concurrency ?? null,
      };
    },

    /** A new scan with the configuration and keys `last` holds (409 when it holds none). */
    async createLike(userId: string, apiId: string, last: ScanRow | undefined, edited?: { identities: IdentityInput[]; signup?: SignupSetting }): Promise<string> {
      if (!last?.secret_ref) throw new ScanError(409, SCAN_TEXT.nothingToRepeat);
      const raw = await secrets.get(last.secret_ref);
      if (!raw) throw new ScanError(409, SCAN_TEXT.keysGone);
      const stored = parseStoredIdentities(raw);
      const cfg = parseConfig(last.config);
      const signup = edited?.signup ?? stored.signup;
      return this.create(userId, {
        apiId,
        profile: last.profile,
        ...(edited ? { identities: edited.identities, keptFrom: { scan_id: last.id } } : { identities: stored.identities }),
        ...(signup !== undefined ? { signup } : {}),
        lowerPrivilegeKey: cfg.lowerPrivilegeKey,
        rps: cfg.rps,
        concurrency: cfg.concurrency,
        timeoutMs: cfg.timeoutMs,
        ...(cfg.maxDurationMs !== undefined ? { maxDurationMs: cfg.maxDurationMs } : {}),
        allowExistingObjects: cfg.allowExistingObjects,
        ...(cfg.namedOperations?.length ? { namedOperations: cfg.namedOperations } : {}),
        // A repeat (schedule, retry) sends the same probe values and makes the same choices as the scan it repeats.
        ...(cfg.seed !== undefined ? { seed: cfg.seed } : {}),
      });
    },

    /**
     * Retry of a failed or cancelled scan: a new scan with its configuration and keys (the caller's own
     * scan), or with the caller's latest configuration of the API (someone else's scan), started at once.
     */
    async retry(userId: string, scanId: string, edited?: { identities: IdentityInput[]; signup?: SignupSetting }): Promise<{ scanId: string; status: ScanStatus }> {
      const row = await repos.scans.findById(scanId);
      if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
      if (row.status !== 'completed' && row.status !== 'failed' && row.status !== 'cancelled') throw new ScanError(409, SCAN_TEXT.notRetryable);
      // The database, not this node's memory: the user's scan may run on another node, or have been cancelled there.
      if (await repos.scans.runningForUser(userId)) throw new ScanError(409, SCAN_MESSAGES.anotherInProgress);
      // Edited identities (issue 31: Retry offers to edit them first) take their kept secrets from the caller's own scan only.
      if (edited && (row.user_id !== userId || !row.secret_ref)) throw new ScanError(409, row.user_id === userId ? SCAN_TEXT.keysGone : SETUP_TEXT.scanNotYours);
      const own = row.user_id === userId && row.secret_ref ? row : await repos.scans.latestHoldingSecret(row.api_id, userId);
      const id = await this.createLike(userId, row.api_id, own, edited);
      return this.start(userId, { apiId: row.api_id, scanId: id });
    },

    /** Starts the given scan, or the user's latest created scan of the API. */
    async start(userId: string, input: { apiId: string; scanId?: string }): Promise<{ scanId: string; status: ScanStatus }> {
      let row: ScanRow | undefined;
      if (input.scanId) {
        row = await repos.scans.findById(input.scanId);
        if (!row || row.api_id !== input.apiId || row.user_id !== userId) throw new ScanError(404, SCAN_TEXT.notFound);
        if (row.status !== 'created') throw new ScanError(409, SCAN_TEXT.alreadyStarted);
      } else {
        row = await repos.scans.latestCreated(input.apiId, userId);
        // A second Start while the first runs finds no draft: say what the spec says, not "create one".
        if (!row && (await repos.scans.runningForUser(userId))) throw new ScanError(409, SCAN_MESSAGES.anotherInProgress);
        if (!row) throw new ScanError(409, SCAN_TEXT.nothingToStart);
      }
      const api = await repos.apis.findById(row.api_id);
      if (!api) throw new ScanError(404, SCAN_TEXT.notFound);
      await target(api.base_url);
      // A static JWT that expired since the scan was created (a draft left open, a retry, a schedule) is refused before anything runs.
      const keys = row.secret_ref ? await secrets.get(row.secret_ref) : null;
      if (keys) await refuseExpired(userId, parseStoredIdentities(keys).identities);
      // Leased before it runs: a node dying right after the start leaves a lease that expires.
      await leases.take(row.id);
      const marked = await repos.scans.markRunning(row.id, userId, clock.now(), 0);
      if (marked === 'busy') throw new ScanError(409, SCAN_MESSAGES.anotherInProgress);
      if (marked === 'not-created') throw new ScanError(409, SCAN_TEXT.alreadyStarted);
      const running = (await repos.scans.findById(row.id))!;
      const controller = new AbortController();
      const entry: ActiveScan = { controller, userId, done: Promise.resolve(), current: null };
      active.set(row.id, entry);
      leases.arm();
      logger.info('Scan started', { scan_id: row.id, api_id: row.api_id, user_id: userId, node: config.nodeId });
      entry.done = execute(running, controller)
        .catch((err) => logger.error('Scan crashed', { scan_id: row!.id, error: err }))
        .finally(() => active.delete(row!.id));
      return { scanId: row.id, status: 'running' };
    },

    /**
     * Stops a running scan (or drops a created one); resolves once it has stopped sending requests. On
     * another node: the row is marked cancelled, that node is told, and the answer waits (at most
     * `cancelWaitMs`) until it has let go of the scan's lease, which it does once its requests have
     * stopped; `stopped: false` when it has not by then.
     */
    async cancel(scanId: string): Promise<CancelOutcome> {
      const entry = active.get(scanId);
      if (entry) {
        entry.controller.abort({ status: 'cancelled', message: SCAN_TEXT.userCancelled } satisfies StopReason);
        await entry.done;
        return { status: ((await repos.scans.findById(scanId))?.status ?? 'cancelled') as ScanStatus, stopped: true };
      }
      const row = await repos.scans.findById(scanId);
      if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
      if (row.status === 'created') {
        await repos.scans.cancelCreated(scanId, clock.now());
        return { status: 'cancelled', stopped: true };
      }
      if (row.status === 'running') {
        const marked = await repos.scans.finish(
          scanId,
          { status: 'cancelled', failureReason: SCAN_TEXT.userCancelled, score: null, notes: parseNotes(row.notes), done: row.progress_done, total: row.progress_total, requestsSent: row.requests_sent },
          clock.now(),
        );
        // It ended meanwhile on its node (completed, failed): that node finished it, and says how.
        if (!marked) return { status: ((await repos.scans.findById(scanId))?.status ?? 'cancelled') as ScanStatus, stopped: true };
        deps.notifier?.publish('scan_cancelled', { scanId });
        const stopped = await ownerStopped(scanId);
        if (!stopped) logger.warn('A scan cancelled here was not confirmed stopped by its node in time', { scan_id: scanId, node: row.owner_node, waited_ms: cancelWaitMs });
        return { status: 'cancelled', stopped };
      }
      throw new ScanError(409, SCAN_TEXT.notRunning);
    },

    /** Accepted risks whose end has come count again (in scores and counts) before anything is shown. */
    expireTriage,

    /** The scan with its findings whole (reports, exports, the CLI). */
    async details(scanId: string): Promise<ScanDetails> {
      return scanWithFindings(scanId, async () => withRetests(scanId, await repos.findings.listForScan(scanId)));
    },

    /** The scan with each finding's brief: what the scan page's list reads. */
    async briefDetails(scanId: string): Promise<ScanDetails<FindingBrief>> {
      return scanWithFindings(scanId, async () => withRetests(scanId, await repos.findings.listBriefsForScan(scanId)));
    },

    /** One finding of the scan, whole; 404 when the scan has no such finding. The caller has checked access. */
    async finding(scanId: string, findingId: string): Promise<Finding> {
      await expireTriage();
      const finding = await repos.findings.findInScan(scanId, findingId);
      if (!finding) throw new ScanError(404, FINDING_MESSAGES.notFound);
      return (await withRetests(scanId, [finding]))[0]!;
    },

    /** A finished scan's traffic (HAR 1.2 JSON); 409 while it has not ended, 404 when none was kept. The caller has checked access. */
    async traffic(scanId: string): Promise<StoredTraffic & { row: ScanRow }> {
      const row = await repos.scans.findById(scanId);
      if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
      if (row.status === 'created' || row.status === 'running') throw new ScanError(409, SCAN_TRAFFIC_MESSAGES.harNotEnded(row.status));
      const stored = await repos.scanTraffic.find(scanId);
      if (!stored) throw new ScanError(404, SCAN_TRAFFIC_MESSAGES.harNone);
      return { ...stored, row };
    },

    /** Settings → Scan traffic: the user's proxy (no password) and CA, and the server's proxy (masked). */
    trafficSettings(userId: string): Promise<ScanTrafficSettings> {
      return proxies.get(userId);
    },

    async updateTrafficSettings(userId: string, input: UpdateScanTrafficRequest): Promise<ScanTrafficSettings> {
      try {
        return await proxies.update(userId, input);
      } catch (err) {
        if (err instanceof ProxySettingsError) throw new ScanError(400, err.message);
        throw err;
      }
    },

    /** The coverage ledger of a scan (issue 26): null while it runs and for scans from before it. */
    async coverage(scanId: string): Promise<ScanCoverage | null> {
      const row = await repos.scans.findById(scanId);
      if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
      return repos.scans.coverageOf(scanId);
    },

    /**
     * The users the scan registered, with their passwords (null where none was kept: an older scan, or
     * one whose passwords could not be stored). The caller has checked that the user may see the scan.
     */
    async createdUsers(scanId: string): Promise<CreatedUserWithPassword[]> {
      const row = await repos.scans.findById(scanId);
      if (!row) throw new ScanError(404, SCAN_TEXT.notFound);
      const raw = await secrets.get(scanAccountsRef(scanId));
      if (raw) return parseStoredCreatedUsers(raw).map((u) => ({ username: u.username, email: u.email, operation: u.operation, purpose: u.purpose, password: u.password }));
      return (parseNotes(row.notes).created_users ?? []).map((u) => ({ ...u, password: null }));
    },

    /** Removes the keys and created users' passwords of scans that are gone with their API (the rows were deleted). */
    async forgetScans(scanIds: readonly string[]): Promise<void> {
      for (const id of scanIds) {
        await secrets.delete(secretRef(id));
        await secrets.delete(scanAccountsRef(id));
      }
    },

    /** Configure Scan's Test button: logs in as one identity against the API and says who it is. */
    async testIdentity(userId: string, apiId: string, given: IdentityInput, keptFrom?: KeptFrom): Promise<TestIdentityData> {
      const api = await repos.apis.findById(apiId);
      if (!api) throw new ScanError(404, SCAN_TEXT.notFound);
      await target(api.base_url);
      const [identity] = await withKept(userId, apiId, [given], keptFrom, 'identity');
      const checked = await identitiesOf({ apiId, profile: SCAN_PROFILE_OWASP, identities: [identity!] });
      const expired = expiredStaticTokens(checked.identities, clock.now().getTime())[0];
      if (expired) {
        const message = await expiredMessage(userId, expired.name, expired.expiredAt);
        return { ok: false, message, token: null, cookies: [], verified_as: null, placement: '', steps: [], field: 'token' };
      }
      const endpoints = (await repos.endpoints.listForApi(api.id)).filter((e) => !e.flags.includes('SKIP'));
      return testIdentity({
        baseUrl: api.base_url,
        security: parseSecurity(api.security_schemes),
        endpoints,
        identity: checked.identities[0]!,
        settings: { timeoutMs: config.scan.timeoutMs, tlsVerify: config.scan.tlsVerify, allowLocal: config.allowLocalScans, allowCommands: config.shell !== 'server', deadlineMs: config.scan.importTimeoutMs },
      });
    },

    /** Imports a live GraphQL endpoint by introspection, under the scan rules, as the identity when one is given. */
    async introspectGraphql(input: { url: string; name?: string; identity?: IdentityInput | null }): Promise<PreparedImport> {
      await target(input.url);
      const identity = input.identity ? (await identitiesOf({ apiId: '', profile: SCAN_PROFILE_OWASP, identities: [input.identity] })).identities[0]! : null;
      return introspectGraphql({
        url: input.url,
        name: input.name,
        identity,
        settings: { timeoutMs: config.scan.timeoutMs, tlsVerify: config.scan.tlsVerify, allowLocal: config.allowLocalScans, allowCommands: config.shell !== 'server', deadlineMs: config.scan.importTimeoutMs },
      });
    },

    /**
     * Imports the API description at a URL, fetched under the scan rules: where local scans are off, a local
     * address is refused before the request and at connect time (a name re-pointed after the check).
     */
    async importSpecUrl(url: string): Promise<PreparedImport> {
      const v = await checkScanTarget(url, config.allowLocalScans, deps.resolver);
      if (!v.ok) throw v.status === 403 ? new SpecUrlRefusedError(SPEC_URL_MESSAGES.local(new URL(url).hostname)) : new ScanError(v.status, v.message);
      return importSpecFromUrl({
        url,
        settings: { timeoutMs: config.scan.timeoutMs, tlsVerify: config.scan.tlsVerify, allowLocal: config.allowLocalScans, deadlineMs: config.scan.importTimeoutMs },
      });
    },

    /** The caller's identity setups of the API that worked, newest first (issue 31). */
    identitySetups(userId: string, apiId: string): Promise<IdentitySetup[]> {
      return setups.list(userId, apiId);
    },

    /** A setup's, or the caller's own scan's, identities for the form: secrets as KEPT_SECRET markers. */
    async identityRecipe(userId: string, apiId: string, from: KeptFrom): Promise<IdentityRecipe> {
      try {
        return await setups.recipe(userId, apiId, from);
      } catch (err) {
        if (err instanceof KeptSourceError) throw new ScanError(err.status, err.message);
        throw err;
      }
    },

    /** Forgets one of the caller's setups and its secrets. */
    forgetIdentitySetup(userId: string, apiId: string, setupId: string): Promise<boolean> {
      return setups.forget(userId, apiId, setupId);
    },

    /** The secret references of an API's setups: read before the API is deleted, forgotten after (forgetSetupSecrets). */
    setupSecretsOf(apiId: string): Promise<string[]> {
      return repos.identitySetups.refsForApi(apiId);
    },

    forgetSetupSecrets(refs: readonly string[]): Promise<void> {
      return setups.forgetRefs(refs);
    },

    /** What Configure Scan pre-fills: the inferred placement, the sign-up and login operations, the sign-up default. */
    async identityDefaults(apiId: string): Promise<IdentityDefaults> {
      const api = await repos.apis.findById(apiId);
      if (!api) throw new ScanError(404, SCAN_TEXT.notFound);
      const endpoints = (await repos.endpoints.listForApi(api.id)).filter((e) => !e.flags.includes('SKIP'));
      let local = false;
      try {
        local = await isLocalTarget(api.base_url);
      } catch {
        local = false;
      }
      return identityDefaults(parseSecurity(api.security_schemes), endpoints, local, config.shell !== 'server');
    },

    /** Configure Scan's write policy: the operations that look destructive, and whether the API is on this machine or a private network. */
    async writePolicy(apiId: string): Promise<WritePolicyData> {
      const api = await repos.apis.findById(apiId);
      if (!api) throw new ScanError(404, SCAN_TEXT.notFound);
      const endpoints = await repos.endpoints.listForApi(api.id);
      const local = await isLocalTarget(api.base_url).catch(() => false);
      return { local, operations: destructiveOperations(endpoints) };
    },

    /** Re-test of one finding (issue 29): its check on its operation again; `identities` (the CLI's) replace the stored ones. */
    retest(userId: string, findingId: string, identities?: IdentitiesConfig): Promise<FindingRetest> {
      return retester.retest(userId, findingId, identities).catch(asScanError);
    },

    retestHistory(findingId: string): Promise<FindingRetest[]> {
      return retester.history(findingId).catch(asScanError);
    },

    closeAsFixed(userId: string, findingId: string) {
      return retester.closeAsFixed(userId, findingId).catch(asScanError);
    },

    list(apiId: string): Promise<ScanSummary[]> {
      return repos.scans.listForApi(apiId);
    },

    isRunning(scanId: string): boolean {
      return active.has(scanId);
    },

    /**
     * Is one of this user's scans running here and not being stopped? A quick local answer (the
     * scheduler's); whether the user may start a scan is the database's (`runningForUser`, markRunning).
     */
    isUserBusy(userId: string): boolean {
      for (const entry of active.values()) if (entry.userId === userId && !entry.controller.signal.aborted) return true;
      return false;
    },

    /** Resolves when the scan has finished: here, or on another node (its row no longer running). */
    async wait(scanId: string): Promise<void> {
      const entry = active.get(scanId);
      if (entry) return entry.done;
      while ((await repos.scans.findById(scanId))?.status === 'running') await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    },

    /**
     * At start-up: scans a crash left running are failed with a reason; keys no scan refers to are
     * removed. Alone on its SQLite file every running scan was interrupted; on a shared database only
     * those whose node stopped renewing its lease, and every node goes on sweeping for them.
     */
    async recover(): Promise<string[]> {
      let ids: string[];
      if (shared) {
        ids = await leases.sweepExpired(true);
        leases.startSweeping();
      } else {
        ids = await repos.scans.failInterrupted(clock.now(), SCAN_TEXT.interrupted);
        for (const id of ids) logger.warn('Scan marked failed: it was running when Portcullis stopped', { scan_id: id });
      }
      // Read the live references before the keys: a scan created meanwhile on another node has a key
      // newer than the grace, which is kept.
      const live = await repos.scans.liveSecretRefs();
      const storedBefore = shared ? new Date(clock.now().getTime() - ORPHAN_KEY_GRACE_MS) : undefined;
      const swept = await sweepOrphanSecrets(secrets, repos.secrets, live, storedBefore, async (id) => !!(await repos.scans.findById(id)));
      if (swept) logger.info('Removed stored scan keys no scan refers to', { count: swept });
      return ids;
    },

    /** Stops every running scan (failed, with the reason) and waits for them to settle; stops the lease timers. */
    async shutdown(): Promise<void> {
      await leases.stop();
      const entries = [...active.values()];
      for (const e of entries) e.controller.abort({ status: 'failed', message: SCAN_TEXT.shutdown } satisfies StopReason);
      await Promise.all(entries.map((e) => e.done));
      await retester.shutdown({ status: 'cancelled', message: SCAN_TEXT.shutdown });
    },
  };
}

export type ScanService = ReturnType<typeof createScanService>;
