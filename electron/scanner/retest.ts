// Re-test of one finding (issue 29, item 3): the finding's check runs again on the finding's operation,
// with the identities and settings of the scan that found it, through the scan's runner (so the same
// SSRF guard, local-scan rule, pace, budgets and redaction apply), one re-test of an API at a time and
// never while a scan of it runs. It answers reproduced (with the new evidence), not reproduced (with
// what it sent) or failed (why it could not run); each re-test is kept in the finding's history, and a
// finding a re-test did not reproduce can be closed as fixed.

import { RETEST_LIMITS, type RetestOutcome } from '../../shared/constants';
import type { FindingRetest, FindingTriage } from '../../shared/contract';
import type { ScanConfig as IdentitiesConfig, SignupSetting } from '../../shared/identities';
import { RETEST_MESSAGES, TRIAGE_MESSAGES } from '../../shared/messages';
import type { Clock } from '../clock';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import { parseSecurity } from '../store/apis';
import type { Repos } from '../store/index';
import type { RetestResult } from '../store/retests';
import type { ScanRow } from '../store/scans';
import { checksForProfile } from './checks/index';
import type { Check } from './checks/types';
import { securityScore, type BuiltFinding } from './findings';
import { checkProxyReachable, ProxyError, type ScanProxy } from './http/proxy';
import { engineSettings, runScan, type ScanOutcome, type StopReason } from './run';
import type { TrafficLog } from './traffic';

/** A refusal before anything is sent: the status the API answers with. */
export class RetestError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'RetestError';
  }
}

/** The identities a re-test speaks as, and where they are kept (null: given by the caller, the CLI). */
export interface RetestIdentities {
  config: IdentitiesConfig;
  /** The SecretStore entry they came from: OAuth2 refresh tokens that rotate are written back there. */
  ref: string | null;
}

/** The scan's own settings a re-test reads from scans.config (service.ts ScanConfig, never a secret). */
interface StoredScanSettings {
  rps?: number;
  concurrency?: number;
  timeoutMs?: number;
  maxDurationMs?: number;
  lowerPrivilegeKey?: 1 | 2;
  allowExistingObjects?: boolean;
  namedOperations?: string[];
  seed?: number;
  signup?: SignupSetting;
}

export interface RetesterDeps {
  repos: Repos;
  config: CoreConfig;
  logger: Logger;
  clock: Clock;
  checks?: readonly Check[];
  /** The scan rules for a URL (SSRF guard, local scans): throws the scan service's refusal. */
  target(url: string): Promise<void>;
  isLocalTarget(url: string): Promise<boolean>;
  proxyFor(userId: string): Promise<ScanProxy | null>;
  /** The identities of the finding's scan (or the caller's latest of the API that keeps its keys); null when none is kept. */
  identitiesFor(scan: ScanRow, userId: string): Promise<RetestIdentities | null>;
  /** Writes rotated OAuth2 refresh tokens back to the SecretStore entry they came from. */
  saveRotated(ref: string, rotated: Record<string, string>): Promise<void>;
}

/** A not reproduced or failed re-test lists the requests it sent, last ones, as "METHOD url → status". */
export function sentLines(traffic: TrafficLog | null, max: number = RETEST_LIMITS.sentListed): string[] {
  const entries = traffic?.har.log.entries ?? [];
  return entries.slice(-max).map((e) => `${e.request.method} ${e.request.url} → ${e.response.status > 0 ? e.response.status : 'no answer'}`);
}

function parseSettings(json: string): StoredScanSettings {
  try {
    return JSON.parse(json) as StoredScanSettings;
  } catch {
    return {};
  }
}

/** The finding as a re-test judges it. */
export interface JudgedFinding {
  check_id: string;
  fingerprint: string;
  method: string;
  path: string;
  graphql?: { operation: string | null } | null;
}

/**
 * What a run's outcome says about the finding. Not reproduced only when the check tested the operation
 * (the coverage ledger says it ran there): a check that could not exercise it (its object could not be
 * created, a write the policy withholds) has not shown the finding gone. `apiWide`: the check runs
 * across operations, and the ledger's per-operation view does not decide.
 */
export function judge(outcome: ScanOutcome, found: readonly BuiltFinding[], finding: JudgedFinding, apiWide = false): RetestResult {
  const same = found.find((f) => f.fingerprint === finding.fingerprint) ?? found.find((f) => f.check_id === finding.check_id && f.method === finding.method && f.path === finding.path);
  const sent = sentLines(outcome.traffic);
  const base = { sent, requestsSent: outcome.progress.requestsSent };
  if (same) return { ...base, outcome: 'reproduced', evidence: same.evidence, curl: same.curl, reason: null };
  const failed = (reason: string): RetestResult => ({ ...base, outcome: 'failed', evidence: null, curl: null, reason });
  if (outcome.status === 'cancelled') return failed(RETEST_MESSAGES.failed('Portcullis was closed while it ran.'));
  if (outcome.status === 'failed') return failed(RETEST_MESSAGES.failed(outcome.failureReason ?? 'the run stopped.'));
  // No task ran: the check was skipped (no second user, say) or no longer applies to the operation.
  const ran = outcome.checksRun.some((c) => c.check_id === finding.check_id) && outcome.progress.total > 1;
  if (!ran) {
    const skip = outcome.skipped.find((s) => s.check_id === finding.check_id);
    return failed(skip ? RETEST_MESSAGES.failed(skip.reason) : RETEST_MESSAGES.notApplicable(finding.check_id, `${finding.method} ${finding.path}`));
  }
  if (!apiWide) {
    const op = outcome.coverage.operations.find(
      (o) => o.method.toUpperCase() === finding.method.toUpperCase() && o.path === finding.path && (!finding.graphql?.operation || o.operation === finding.graphql.operation),
    );
    if (op && !op.ran.includes(finding.check_id)) {
      const skip = op.skipped.find((k) => k.check_id === finding.check_id);
      return failed(RETEST_MESSAGES.notExercised(`${finding.method} ${finding.path}`, skip?.detail || null));
    }
  }
  return { ...base, outcome: 'not_reproduced', evidence: null, curl: null, reason: null };
}

export function createRetester(deps: RetesterDeps) {
  const { repos, config, logger, clock } = deps;
  /** Re-tests running here, each with the promise that settles once its outcome is written. */
  const running = new Map<AbortController, Promise<void>>();

  async function findingOf(findingId: string) {
    const finding = await repos.findings.findById(findingId);
    if (!finding) throw new RetestError(404, TRIAGE_MESSAGES.findingNotFound);
    return finding;
  }

  return {
    /**
     * Runs the finding's check on its operation again. `identities` (the CLI's --config) take the place of
     * the stored ones. The caller has checked that the user may scan the finding's API.
     */
    async retest(userId: string, findingId: string, identities?: IdentitiesConfig): Promise<FindingRetest> {
      const finding = await findingOf(findingId);
      const scan = await repos.scans.findById(finding.scan_id);
      const api = await repos.apis.findById(finding.api_id);
      if (!scan || !api) throw new RetestError(404, TRIAGE_MESSAGES.findingNotFound);
      await deps.target(api.base_url);
      const check = (deps.checks ?? checksForProfile(scan.profile)).find((c) => c.id === finding.check_id);
      if (!check) throw new RetestError(409, RETEST_MESSAGES.checkGone(finding.check_id));
      const endpoints = await repos.endpoints.listForApi(api.id);
      const operation = `${finding.method} ${finding.path}`;
      const stored = endpoints.filter((e) => e.method.toUpperCase() === finding.method.toUpperCase() && e.path === finding.path);
      if (stored.length && stored.every((e) => e.flags.includes('SKIP'))) throw new RetestError(409, RETEST_MESSAGES.operationGone(operation));
      if (await repos.retests.scanRunning(api.id)) throw new RetestError(409, RETEST_MESSAGES.busyScan);
      const who: RetestIdentities | null = identities ? { config: identities, ref: null } : await deps.identitiesFor(scan, userId);
      if (!who) throw new RetestError(409, RETEST_MESSAGES.keysGone);
      const started = clock.now();
      const staleBefore = new Date(started.getTime() - 2 * RETEST_LIMITS.maxDurationMs);
      const id = await repos.retests.begin({ findingId, apiId: api.id, fingerprint: finding.fingerprint, userId }, started, staleBefore, RETEST_MESSAGES.failed('Portcullis stopped while it ran.'));
      if (id === 'busy') throw new RetestError(409, RETEST_MESSAGES.busyRetest);

      const t0 = performance.now();
      const controller = new AbortController();
      let settle!: () => void;
      running.set(controller, new Promise<void>((r) => (settle = r)));
      let result: RetestResult;
      try {
        const cfg = parseSettings(scan.config);
        const signup = who.config.signup ?? cfg.signup ?? ((await deps.isLocalTarget(api.base_url)) ? 'auto' : 'off');
        const engine = engineSettings(config.scan, config.allowLocalScans, cfg, await deps.proxyFor(userId));
        engine.maxDurationMs = Math.min(engine.maxDurationMs!, RETEST_LIMITS.maxDurationMs);
        const proxyTrouble = engine.proxy
          ? await checkProxyReachable(engine.proxy, Math.min(engine.timeoutMs, 10_000), engine.tlsVerify).then(
              () => null,
              (err: unknown) => (err instanceof ProxyError ? err.message : String(err)),
            )
          : null;
        if (proxyTrouble) {
          result = { outcome: 'failed', evidence: null, curl: null, sent: [], requestsSent: 0, reason: RETEST_MESSAGES.failed(proxyTrouble) };
        } else {
          const found: BuiltFinding[] = [];
          const outcome = await runScan(
            {
              scanId: id,
              api: { id: api.id, name: api.name, baseUrl: api.base_url, security: parseSecurity(api.security_schemes) },
              endpoints,
              identities: { ...who.config, signup },
              allowCommands: config.shell !== 'server',
              engine,
              options: {
                lowerPrivilegeKey: cfg.lowerPrivilegeKey ?? 2,
                allowExistingObjects: cfg.allowExistingObjects ?? false,
                namedOperations: cfg.namedOperations ?? [],
                seed: cfg.seed ?? 0,
              },
              checks: [check],
              focus: { checkId: check.id, method: finding.method, path: finding.path, operation: finding.graphql?.operation ?? null, discover: stored.length === 0 },
              signal: controller.signal,
            },
            {
              logger,
              progress: () => undefined,
              finding: async (f) => {
                found.push(f);
                return true;
              },
            },
          );
          if (who.ref && Object.keys(outcome.rotatedRefreshTokens).length) await deps.saveRotated(who.ref, outcome.rotatedRefreshTokens);
          result = judge(outcome, found, finding, check.scope === 'api');
        }
      } catch (err) {
        logger.error('Re-test failed to run', { finding_id: findingId, error: (err as Error)?.message });
        result = { outcome: 'failed', evidence: null, curl: null, sent: [], requestsSent: 0, reason: RETEST_MESSAGES.failed(`an internal error (${(err as Error).message}).`) };
      }
      const durationMs = performance.now() - t0;
      try {
        await repos.retests.finish(id, result, clock.now(), durationMs);
      } finally {
        running.delete(controller);
        settle();
      }
      logger.info('Finding re-tested', { finding_id: findingId, api_id: api.id, user_id: userId, outcome: result.outcome, requests: result.requestsSent, duration_ms: Math.round(durationMs) });
      return (await repos.retests.findById(id))!;
    },

    /** A finding's re-tests, newest first. The caller has checked that the user may see its API. */
    async history(findingId: string): Promise<FindingRetest[]> {
      await findingOf(findingId);
      return repos.retests.listForFinding(findingId, RETEST_LIMITS.history);
    },

    /** "Close as fixed": a `fixed` triage mark, for a finding whose latest re-test did not reproduce it. */
    async closeAsFixed(userId: string, findingId: string): Promise<{ triage: FindingTriage; affectedScans: number; fingerprint: string }> {
      const finding = await findingOf(findingId);
      const [latest] = await repos.retests.listForFinding(findingId, 1);
      const outcome: RetestOutcome | undefined = latest?.outcome;
      if (!latest || outcome !== 'not_reproduced') throw new RetestError(409, RETEST_MESSAGES.closeNeedsRetest);
      const { triage, affectedScans } = await repos.triage.set(
        { apiId: finding.api_id, fingerprint: finding.fingerprint, state: 'fixed', reason: RETEST_MESSAGES.fixedReason(latest.at, latest.by), expiresAt: null, userId },
        clock.now(),
        securityScore,
      );
      logger.info('Finding closed as fixed', { finding_id: findingId, api_id: finding.api_id, user_id: userId });
      return { triage, affectedScans, fingerprint: finding.fingerprint };
    },

    /** Stops the re-tests running here (the core is closing) and waits until each has written its outcome (failed). */
    async shutdown(reason: StopReason): Promise<void> {
      const all = [...running];
      for (const [c] of all) c.abort(reason);
      await Promise.all(all.map(([, done]) => done));
    },
  };
}

export type Retester = ReturnType<typeof createRetester>;
