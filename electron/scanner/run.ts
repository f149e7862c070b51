// One scan from start to end, phase by phase: the identities log in (and the scan registers its own
// users where it may), every identity is verified, the out-of-band listener starts, then every
// (check, endpoint) task runs with shared baselines and objects, budgets, credentials renewed as
// they expire, progress and findings handed to a sink as they come. The same runner serves the app
// (sink = the store) and the CLI.

import type { Endpoint, LoginFailure, ScanCurrent, ScanPace, SkippedCheck } from '../../shared/contract';
import type { ScanCoverage } from '../../shared/coverage';
import type { IdentityReport, ScanConfig } from '../../shared/identities';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import type { Check, ScanApi, ScanOptions } from './checks/types';
import type { BuiltFinding } from './findings';
import type { ScanProxy } from './http/proxy';
import type { TrafficLog } from './traffic';
import { describeEndpoint } from './checks/common/helpers';
import { LocalTargetError } from './net-guard';
import { OobListener } from './oob';
import { scanConfigOf, startAccounts, startIdentities, verifyPhase } from './run-identities';
import { ScanRun } from './run-state';
import { planTasks, runTasks } from './run-tasks';
import { learnGraphqlOperations } from './run-graphql';
import { unmatchedPaths } from './declared-objects';
import { describeLearned } from './create-learning';
import { discoverRoutes } from './run-discovery';

export interface EngineSettings {
  concurrency: number;
  rps: number;
  timeoutMs: number;
  retries: number;
  maxBodyBytes: number;
  maxRequestsPerScan: number;
  maxRequestsPerEndpoint: number;
  tlsVerify: boolean;
  allowLocal: boolean;
  /** The whole scan's time limit: past it the scan stops, failed with the reason, keeping what it found. None when absent. */
  maxDurationMs?: number;
  /** The upstream proxy every request goes through (http/proxy.ts); none when absent. */
  proxy?: ScanProxy | null;
}

/** What a scan's stored configuration may set of the engine; the rest comes from the core's configuration. */
export interface EngineOverrides {
  concurrency?: number;
  rps?: number;
  timeoutMs?: number;
  maxDurationMs?: number;
}

/** The engine settings of a scan (or a re-test) from its stored overrides and the core's defaults. */
export function engineSettings(scan: CoreConfig['scan'], allowLocal: boolean, stored: EngineOverrides, proxy: ScanProxy | null): EngineSettings {
  return {
    concurrency: stored.concurrency ?? scan.concurrency,
    rps: stored.rps ?? scan.rps,
    timeoutMs: stored.timeoutMs ?? scan.timeoutMs,
    retries: scan.retries,
    maxBodyBytes: scan.maxBodyBytes,
    maxRequestsPerScan: scan.maxRequestsPerScan,
    maxRequestsPerEndpoint: scan.maxRequestsPerEndpoint,
    tlsVerify: scan.tlsVerify,
    allowLocal,
    maxDurationMs: stored.maxDurationMs ?? scan.maxDurationMs,
    proxy,
  };
}

export interface ScanJob {
  scanId: string;
  api: ScanApi;
  /** Every endpoint of the API; SKIP ones get no request at all. */
  endpoints: Endpoint[];
  /** Who the scan speaks as, and whether it registers its own users (sign-up: off when absent). */
  identities?: ScanConfig;
  /** The two-key shortcut: key 1 and key 2 as static tokens (used when `identities` is absent). */
  keys?: { 1: string; 2?: string | null };
  /** Commands may obtain credentials: the CLI and the desktop app, never a team server. */
  allowCommands?: boolean;
  engine: EngineSettings;
  options: ScanOptions;
  checks: readonly Check[];
  /** A re-test (issue 29): only the tasks of this check on this operation run. */
  focus?: ScanFocus;
  /** Aborted to stop the scan; its reason (a StopReason) says why. */
  signal: AbortSignal;
}

/** The one check and operation a re-test runs (retest.ts). */
export interface ScanFocus {
  checkId: string;
  /** The finding's method and path ("GET", "/orders/{orderId}"). */
  method: string;
  path: string;
  /** A GraphQL finding's operation ("Query.loan"): the operations of one endpoint share its method and path. */
  operation: string | null;
  /** The operation is a route a scan discovered: the discovery phase runs to find it again. */
  discover: boolean;
}

export interface StopReason {
  status: 'cancelled' | 'failed';
  message: string;
}

export interface ScanProgress {
  done: number;
  total: number;
  requestsSent: number;
  findings: number;
}

export interface ScanSink {
  /** `current`: the check the scan last started and its endpoint (for a live view; never a secret); `pace`: its pace toward the API. */
  progress(p: ScanProgress, current?: ScanCurrent | null, pace?: ScanPace | null): void;
  /** Stores the finding; false when the scan already has one with its fingerprint. */
  finding(f: BuiltFinding): Promise<boolean>;
  /** Every identity logged in and was verified: the setup works (the service keeps it at once, issue 31). */
  signedIn?(): Promise<void>;
  logger: Logger;
}

export interface CreatedUser {
  username: string | null;
  email: string | null;
  /** The operation that registered it. */
  operation: string;
  /** What the scan used it for. */
  purpose: string;
}

/** A created user with its password: for the SecretStore only, never a note, a report or a log. */
export interface CreatedUserSecret extends CreatedUser {
  password: string;
}

export interface ScanOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  failureReason: string | null;
  /** The scan's notes, information and problems alike, in order. */
  errors: string[];
  /** The notes among `errors` that are problems (shared/scan-notes.ts). */
  problems: string[];
  skipped: SkippedCheck[];
  progress: ScanProgress;
  /** Requests each check sent itself (baselines and creates are not counted). */
  requestsByCheck: Record<string, number>;
  /** The checks that ran, with the endpoints ("METHOD path") each ran on. */
  checksRun: { check_id: string; title: string; owasp: string; endpoints: string[] }[];
  /** The identity table: how each was obtained, who it is, refreshes and failed logins. */
  identities: IdentityReport[];
  /** What the scan reached and exercised, per operation, identity and check (issue 26). */
  coverage: ScanCoverage;
  /** Users the scan registered (never their passwords). */
  createdUsers: CreatedUser[];
  /** The same users with their passwords, in the same order: what the service keeps in the SecretStore. */
  createdUserSecrets: CreatedUserSecret[];
  /** Credentials renewed during the scan, all identities together. */
  refreshes: number;
  /** OAuth2 refresh tokens handed out during the scan, by identity: the next scan must use these (they rotate). */
  rotatedRefreshTokens: Record<string, string>;
  /** The requests the scan sent (the last ones, redacted) as a HAR; null when it sent none. */
  traffic: TrafficLog | null;
  /** A scan that failed at an identity's login: which one and the API's answer (redacted). */
  loginFailure: LoginFailure | null;
  /** Every identity logged in and was verified. */
  signedIn: boolean;
}

export async function runScan(job: ScanJob, sink: ScanSink): Promise<ScanOutcome> {
  const run = new ScanRun(job, sink);
  const limit = job.engine.maxDurationMs;
  // A target that never finishes answering (or a scan far larger than planned) must not hold later and scheduled scans.
  const timer = limit ? setTimeout(() => run.stop({ status: 'failed', message: timeLimitReason(run, limit) }), limit) : null;
  timer?.unref?.();
  try {
    return await runPhases(run, job, sink);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** Why a scan in which no operation answered a 2xx (or a redirect) to any identity failed; null when some did. */
function unreachedReason(run: ScanRun): string | null {
  const r = run.coverage.reach();
  if (r.reached > 0) return null;
  const base = run.api.baseUrl;
  if (r.sent === 0) return `No operation could be exercised: every one was blocked before a request was sent (see the notes). Nothing of ${base} was tested.`;
  if (r.notFound === r.sent) {
    return `Every operation the scan sent answered 404 (${r.sent} of ${r.operations}): the base URL ${base} is probably wrong (a missing or extra path prefix, another port). Nothing was tested; fix the base URL (Edit API, or --base-url) and scan again.`;
  }
  if (r.refused === r.sent) {
    return `Every operation refused every identity (401 or 403, ${r.sent} of ${r.operations} operations): the credentials do not work here or go to the wrong place. Test the identities in Configure Scan and scan again.`;
  }
  return `No operation answered with a 2xx (or a redirect) to any identity (${r.sent} of ${r.operations} operations were sent requests): nothing was reached, so nothing was really tested. Check the base URL, the identities and the example values, and scan again.`;
}

/** Why a scan stopped at its time limit, with what it had done and kept. */
function timeLimitReason(run: ScanRun, limitMs: number): string {
  const { done, total, findings } = run.progress;
  const tasks = total > 1 ? `${Math.max(0, done - 1)} of ${total - 1} tasks (a check on an endpoint) had finished` : 'it was still signing in';
  return (
    `The scan reached its time limit (${formatDuration(limitMs)}) and was stopped: ${tasks}; the ${findings} finding${findings === 1 ? '' : 's'} ` +
    'found until then are kept. Raise the limit (Configure Scan, --max-duration, PORTCULLIS_SCAN_MAX_DURATION_MS) or scan fewer endpoints.'
  );
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}

async function runPhases(run: ScanRun, job: ScanJob, sink: ScanSink): Promise<ScanOutcome> {
  if (!run.active.length) {
    run.note('Every endpoint is marked SKIP: no request was sent.');
    return run.finish('completed', null);
  }
  const stoppedOutcome = () => run.finish(run.stopped()!, run.stopped() === 'cancelled' ? null : run.stopMessage());

  // 1. Identities: log in, register the scan's own users, verify who everyone is.
  try {
    run.progress.total = 1;
    run.phase = { check: 'Signing in and verifying the identities', endpoint: null };
    run.emit(true);
    const config = scanConfigOf(run);
    let failed = await startIdentities(run, config);
    if (!failed) {
      await startAccounts(run, config);
      failed = await verifyPhase(run);
    }
    if (run.stopped()) return stoppedOutcome();
    if (failed) return run.finish('failed', failed);
    run.signedIn = true;
    await sink.signedIn?.();
    run.progress.done = 1;
    run.phase = null;
    noteDeclaredObjects(run);
  } catch (err) {
    if (run.stopped()) return stoppedOutcome();
    if (err instanceof LocalTargetError) return run.finish('failed', `Scans for local APIs are disabled in this environment (${err.message}).`);
    sink.logger.error('Scan health check failed', { scan_id: job.scanId, error: run.redactor.redact(String((err as Error)?.stack ?? err)) });
    return run.finish('failed', `The scan stopped on an internal error: ${(err as Error).message}`);
  }

  // 2. The out-of-band listener (SSRF, redirects): one per scan, closed when it finishes.
  try {
    const listener = new OobListener();
    await listener.start();
    run.oob = listener;
  } catch (err) {
    run.problem(`The out-of-band listener could not start (${(err as Error).message}); the checks that need it are skipped.`);
  }

  // 3. The operations of GraphQL endpoints typed by hand, learnt by introspection.
  await learnGraphqlOperations(run);
  if (run.stopped()) return stoppedOutcome();

  // 4. Routes beyond the API description: scanned by every check like the imported ones.
  run.phase = { check: 'Discovering routes beyond the API description', endpoint: null };
  run.emit(true);
  await discoverRoutes(run);
  run.phase = null;
  if (run.stopped()) return stoppedOutcome();

  // 5. Tasks.
  const tasks = planTasks(run);
  run.progress.total = tasks.length + 1;
  run.emit(true);
  await runTasks(run, tasks);
  if (run.stopped()) return stoppedOutcome();
  for (const l of run.resources.learntCreates) {
    if (!l.fields.length) continue;
    run.note(
      `${describeEndpoint(l.producer)} refused the scan's create for what its body lacked; from the answer the scan filled ${describeLearned(l.fields)}` +
        (l.created ? ' and then created its objects.' : ', but the create was still refused: objects of this kind could not be created.'),
      l.created ? 'info' : 'problem',
    );
  }
  for (const e of run.active) {
    const why = run.baselines.blockedReason(e);
    if (why) run.note(`${describeEndpoint(e)} was not exercised: ${why} (writes and deletes only touch objects the scan created).`);
  }
  // A scan that reached nothing did not test the API: a failure with the likely cause, not a clean report.
  const unreached = unreachedReason(run);
  if (unreached) return run.finish('failed', unreached);
  if (run.book.refreshes) run.note(`Credentials were renewed ${run.book.refreshes} time${run.book.refreshes === 1 ? '' : 's'} during the scan (${run.book.sessions.filter((s) => s.refreshes).map((s) => `${s.name}: ${s.refreshes}`).join(', ')}).`);
  return run.finish('completed', null);
}

/** What became of the objects the user listed per identity (`objects:`): paths the API does not have, identities no check speaks as. */
function noteDeclaredObjects(run: ScanRun): void {
  for (const s of run.book.sessions) {
    const objects = s.config.objects;
    if (!objects || s.account) continue;
    if (s.slot === null) {
      run.note(`The objects listed for ${s.name} were not used: the checks speak as the first two users, the first privileged and the first lower-privileged identity.`);
      continue;
    }
    const unmatched = unmatchedPaths(objects, run.active.map((e) => e.path));
    if (unmatched.length) run.problem(`No operation of the API is at ${unmatched.map((p) => `"${p}"`).join(', ')}, listed under objects: for ${s.name}: write each path as the spec does.`);
  }
}
