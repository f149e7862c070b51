// One scan from start to end: the auth health check, then every (check, endpoint) task through a
// worker pool, with shared baselines and objects, budgets, the key watch, progress and findings
// handed to a sink as they come. The same runner serves the app (sink = the store) and the CLI.

import { setMaxListeners } from 'node:events';
import type { SkippedCheck } from '../../shared/contract';
import type { Endpoint } from '../../shared/contract';
import type { Logger } from '../log';
import { authSpecFor, type ScanSecurity } from './auth';
import { Baselines } from './baselines';
import { describeEndpoint } from './checks/helpers';
import type { Check, CheckContext, FindingDraft, Identities, ScanApi, ScanOptions } from './checks/types';
import { buildFinding, type BuiltFinding } from './findings';
import { Budget, BudgetExceededError, HttpEngine, OutOfScopeError, type ProbeRequest } from './http/engine';
import type { Exchange, KeyNumber } from './http/exchange';
import { AbortedError } from './http/limits';
import { checkKeys, discoverScheme } from './identity';
import { KeyWatch } from './key-watch';
import { LocalTargetError } from './net-guard';
import { OobListener } from './oob';
import { Redactor } from './redact';
import { toProbe, type PreparedRequest } from './requests';
import { purposeOf, ResourcePool } from './resources';

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
}

export interface ScanJob {
  scanId: string;
  api: ScanApi;
  /** Every endpoint of the API; SKIP ones get no request at all. */
  endpoints: Endpoint[];
  keys: { 1: string; 2?: string | null };
  engine: EngineSettings;
  options: ScanOptions;
  checks: readonly Check[];
  /** Aborted to stop the scan; its reason (a StopReason) says why. */
  signal: AbortSignal;
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
  progress(p: ScanProgress): void;
  /** Stores the finding; false when the scan already has one with its fingerprint. */
  finding(f: BuiltFinding): Promise<boolean>;
  logger: Logger;
}

export interface ScanOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  failureReason: string | null;
  errors: string[];
  skipped: SkippedCheck[];
  progress: ScanProgress;
  /** Requests each check sent itself (baselines and creates are not counted). */
  requestsByCheck: Record<string, number>;
  /** The checks that ran, with the endpoints ("METHOD path") each ran on. */
  checksRun: { check_id: string; title: string; owasp: string; endpoints: string[] }[];
}

interface Task {
  check: Check;
  endpoint: Endpoint | null;
  endpoints: Endpoint[];
}

const PROGRESS_INTERVAL_MS = 250;
const MAX_ERRORS = 50;

function isStopReason(x: unknown): x is StopReason {
  return !!x && typeof x === 'object' && 'status' in x && 'message' in x;
}

export async function runScan(job: ScanJob, sink: ScanSink): Promise<ScanOutcome> {
  const redactor = new Redactor([
    { label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: job.keys[1] },
    ...(job.keys[2] ? [{ label: '[key 2]', envVar: 'PORTCULLIS_KEY_2', value: job.keys[2] }] : []),
  ]);
  const controller = new AbortController();
  // Every request in flight listens on the scan's signal.
  setMaxListeners(0, controller.signal);
  const stop = (reason: StopReason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onOuterAbort = () => stop(isStopReason(job.signal.reason) ? job.signal.reason : { status: 'cancelled', message: 'Cancelled.' });
  if (job.signal.aborted) onOuterAbort();
  job.signal.addEventListener('abort', onOuterAbort, { once: true });

  const errors: string[] = [];
  const note = (message: string) => {
    const m = redactor.redact(message);
    if (errors.length < MAX_ERRORS && !errors.includes(m)) errors.push(m);
  };
  const skipped: SkippedCheck[] = [];
  const skip = (check: Check, reason: string) => {
    if (!skipped.some((s) => s.check_id === check.id)) skipped.push({ check_id: check.id, title: check.title, reason: redactor.redact(reason), owasp: check.owasp });
  };
  const failures = new Map<string, number>();
  const requestsByCheck: Record<string, number> = {};
  const checksRun: ScanOutcome['checksRun'] = [];

  const active = job.endpoints.filter((e) => !e.flags.includes('SKIP'));
  // The scan's own copy: the health check may record which scheme key 1 works with.
  const security: ScanSecurity = { schemes: job.api.security.schemes, default: job.api.security.default };
  const api: ScanApi = { ...job.api, security };
  let watch: KeyWatch | null = null;
  const engine = new HttpEngine({
    baseUrl: job.api.baseUrl,
    concurrency: job.engine.concurrency,
    rps: job.engine.rps,
    timeoutMs: job.engine.timeoutMs,
    retries: job.engine.retries,
    maxBodyBytes: job.engine.maxBodyBytes,
    maxRequests: job.engine.maxRequestsPerScan,
    allowLocal: job.engine.allowLocal,
    tlsVerify: job.engine.tlsVerify,
    keys: job.keys,
    signal: controller.signal,
    onExchange: (ex) => {
      if (ex.error) failures.set(ex.error, (failures.get(ex.error) ?? 0) + 1);
      watch?.observe(ex);
    },
  });

  const endpointBudgets = new Map<string, Budget>();
  const budgetOf = (e: Endpoint) => {
    let b = endpointBudgets.get(e.id);
    if (!b) {
      b = new Budget(`${describeEndpoint(e)}`, job.engine.maxRequestsPerEndpoint);
      endpointBudgets.set(e.id, b);
    }
    return b;
  };
  let unique = 0;
  const tag = job.scanId.replace(/-/g, '').slice(0, 8);
  let hasKey2 = !!job.keys[2];
  const resources = new ResourcePool({
    engine,
    security,
    endpoints: active,
    budgetsFor: (e) => [budgetOf(e)],
    nextUnique: () => `${tag}${(++unique).toString(36)}`,
    allowExistingObjects: job.options.allowExistingObjects,
    hasKey: (k) => k === 1 || hasKey2,
  });
  const baselines = new Baselines({ engine, resources, budgetsFor: (e) => [budgetOf(e)], get hasKey2() {
    return hasKey2;
  } });

  const progress: ScanProgress = { done: 0, total: 0, requestsSent: 0, findings: 0 };
  let lastEmit = 0;
  const emit = (force = false) => {
    const now = performance.now();
    if (!force && now - lastEmit < PROGRESS_INTERVAL_MS) return;
    lastEmit = now;
    progress.requestsSent = engine.requestsSent;
    sink.progress({ ...progress });
  };
  const ticker = setInterval(() => emit(), 500);
  ticker.unref?.();

  let oob: OobListener | null = null;
  const finish = async (status: ScanOutcome['status'], failureReason: string | null): Promise<ScanOutcome> => {
    clearInterval(ticker);
    job.signal.removeEventListener('abort', onOuterAbort);
    await engine.close();
    await oob?.close();
    if (failures.size) {
      const parts = [...failures.entries()].map(([k, n]) => `${k}: ${n}`);
      note(`Requests without a response: ${parts.join(', ')}.`);
    }
    progress.requestsSent = engine.requestsSent;
    emit(true);
    const ran = checksRun.filter((c) => !skipped.some((s) => s.check_id === c.check_id));
    return { status, failureReason: failureReason ? redactor.redact(failureReason) : null, errors, skipped, progress: { ...progress }, requestsByCheck, checksRun: ran };
  };
  const stopped = (): ScanOutcome['status'] | null => {
    if (!controller.signal.aborted) return null;
    const r = controller.signal.reason;
    return isStopReason(r) ? r.status : 'cancelled';
  };
  const stopMessage = (): string => {
    const r = controller.signal.reason;
    return isStopReason(r) ? r.message : 'Cancelled.';
  };

  if (!active.length) {
    note('Every endpoint is marked SKIP: no request was sent.');
    return finish('completed', null);
  }

  // 1. Auth health check (and reachability).
  let identities: Identities;
  try {
    progress.total = 1;
    emit(true);
    const prefer = await discoverScheme({ endpoints: active, security, engine, resources, budgetsFor: (e) => [budgetOf(e)] });
    if (prefer) {
      security.prefer = prefer;
      note(`Key 1 works with the "${prefer}" security scheme; it is used wherever an endpoint accepts several.`);
    }
    const health = await checkKeys({ endpoints: active, baselines, keys: job.keys });
    identities = health.identities;
    const probes = [identities.key1.exchange, identities.key2?.exchange].filter((x): x is Exchange => !!x);
    const reach = probes.length ? probes : [await engine.send({ method: 'GET', url: engine.base })];
    if (reach.every((x) => !x.response)) {
      return finish('failed', `Could not reach the API at ${job.api.baseUrl}: ${reach[0]?.error ?? 'no response'}.`);
    }
    if (!health.ok) return finish('failed', health.reason);
    for (const n of health.notes) note(n);
    if (identities.key2?.accepted === false) hasKey2 = false;
    watch = new KeyWatch(engine, health.canary, (reason) => stop({ status: 'failed', message: reason }));
    progress.done = 1;
  } catch (err) {
    if (stopped()) return finish(stopped()!, stopped() === 'cancelled' ? null : stopMessage());
    if (err instanceof LocalTargetError) return finish('failed', `Scans for local APIs are disabled in this environment (${err.message}).`);
    sink.logger.error('Scan health check failed', { scan_id: job.scanId, error: redactor.redact(String((err as Error)?.stack ?? err)) });
    return finish('failed', `The scan stopped on an internal error: ${(err as Error).message}`);
  }

  // The out-of-band listener (SSRF, redirects): one per scan, closed in finish().
  try {
    const listener = new OobListener();
    await listener.start();
    oob = listener;
  } catch (err) {
    note(`The out-of-band listener could not start (${(err as Error).message}); the checks that need it are skipped.`);
  }

  // 2. Tasks.
  const tasks: Task[] = [];
  const apiTasks: Task[] = [];
  for (const check of job.checks) {
    if (check.needsKey2 && !hasKey2) {
      skip(check, 'Needs a second API key (key 2): this cross-user test compares what two users can reach.');
      continue;
    }
    if (check.needsKey2 && identities.distinct === false) {
      skip(check, `Key 1 and key 2 belong to the same user (${identities.how}).`);
      continue;
    }
    const applicable = active.filter((e) => check.appliesTo(e));
    if (!applicable.length) {
      skip(check, `No scanned endpoint has the ${check.flag} flag (or fits this check).`);
      continue;
    }
    checksRun.push({ check_id: check.id, title: check.title, owasp: check.owasp, endpoints: applicable.map(describeEndpoint) });
    if (check.scope === 'api') apiTasks.push({ check, endpoint: null, endpoints: applicable });
    else for (const e of applicable) tasks.push({ check, endpoint: e, endpoints: [e] });
  }
  // Per endpoint in import order, deletes last (they consume objects), then the API-wide checks.
  const position = new Map(active.map((e, i) => [e.id, i]));
  const rank = (t: Task) => (t.endpoint!.method === 'DELETE' ? 1 : 0);
  tasks.sort((a, b) => rank(a) - rank(b) || position.get(a.endpoint!.id)! - position.get(b.endpoint!.id)!);
  tasks.push(...apiTasks);
  progress.total = tasks.length + 1;
  emit(true);

  let scanBudgetSpent = false;
  const makeContext = (task: Task): CheckContext & { spent(): number } => {
    const checkBudget = new Budget(`${task.check.id}${task.endpoint ? ` on ${describeEndpoint(task.endpoint)}` : ''}`, task.check.budget);
    const first = task.endpoint ?? task.endpoints[0]!;
    const budgets = (e?: Endpoint | null) => (e ? [checkBudget, budgetOf(e)] : [checkBudget]);
    const ctx: CheckContext & { spent(): number } = {
      spent: () => checkBudget.used,
      check: task.check,
      api,
      endpoint: first,
      endpoints: task.endpoints,
      allEndpoints: active,
      hasKey2,
      identities,
      options: job.options,
      resources,
      signal: controller.signal,
      parallelism: Math.max(1, job.engine.concurrency),
      oob,
      send: (request: ProbeRequest, endpoint?: Endpoint) => engine.send(request, budgets(endpoint ?? task.endpoint)),
      sendPrepared: (request: PreparedRequest, auth, extra) => engine.send(toProbe(request, auth, extra), budgets(request.endpoint ?? task.endpoint)),
      baseline: (mode, endpoint) => baselines.get(endpoint ?? first, mode),
      baselineRequest: (endpoint, mode) => baselines.request(endpoint ?? first, mode),
      prepare: async (endpoint, key: KeyNumber, purpose = purposeOf(endpoint.method)) => {
        const r = await resources.prepare(endpoint, key, purpose);
        return 'request' in r ? r.request : null;
      },
      authSpec: (endpoint) => authSpecFor(endpoint ?? first, security),
      url: (p) => engine.resolve(p),
      credential: (key) => (key === 1 ? job.keys[1] : (job.keys[2] ?? null)),
      budgetLeft: (endpoint) => Math.min(checkBudget.left, engine.budget.left, ...(endpoint ?? task.endpoint ? [budgetOf((endpoint ?? task.endpoint)!).left] : [])),
      note,
      skip: (reason) => skip(task.check, reason),
    };
    return ctx;
  };

  const runTask = async (task: Task) => {
    const ctx = makeContext(task);
    try {
      await runChecked(task, ctx);
    } finally {
      requestsByCheck[task.check.id] = (requestsByCheck[task.check.id] ?? 0) + ctx.spent();
    }
  };

  const runChecked = async (task: Task, ctx: CheckContext & { spent(): number }) => {
    const where = task.endpoint ? ` on ${describeEndpoint(task.endpoint)}` : '';
    try {
      for await (const draft of task.check.run(ctx) as AsyncIterable<FindingDraft>) {
        const built = buildFinding(task.check, draft, task.endpoint, redactor);
        if (await sink.finding(built)) progress.findings += 1;
      }
    } catch (err) {
      if (err instanceof AbortedError || controller.signal.aborted) throw err;
      if (err instanceof BudgetExceededError) {
        if (err.budget === engine.budget && !scanBudgetSpent) {
          scanBudgetSpent = true;
          note(`The scan's request budget (${engine.budget.limit} requests) ran out; the remaining checks did not run.`);
        }
        return;
      }
      if (err instanceof LocalTargetError) {
        stop({ status: 'failed', message: `Scans for local APIs are disabled in this environment (${err.message}).` });
        throw new AbortedError();
      }
      if (err instanceof OutOfScopeError) note(`Check "${task.check.title}"${where} tried a request outside the scan's scope (refused): ${err.url}`);
      else note(`Check "${task.check.title}"${where} failed: ${(err as Error).message}`);
      sink.logger.warn('Check failed', { scan_id: job.scanId, check: task.check.id, endpoint: where, error: redactor.redact(String((err as Error)?.message ?? err)) });
    }
  };

  let next = 0;
  // Tasks mostly wait on their own requests in sequence; the engine's semaphore bounds what is in
  // flight. Twice the concurrency keeps it full (a queue of waiting requests) without holding the live
  // state of more tasks than that, which every young-generation GC would copy (x4 measured slower).
  const workers = Math.max(4, Math.min(256, job.engine.concurrency * 2));
  const worker = async () => {
    while (next < tasks.length && !controller.signal.aborted) {
      const task = tasks[next++]!;
      if (!scanBudgetSpent) {
        try {
          await runTask(task);
        } catch (err) {
          if (!(err instanceof AbortedError) && !controller.signal.aborted) {
            sink.logger.error('Scan failed', { scan_id: job.scanId, error: redactor.redact(String((err as Error)?.stack ?? err)) });
            stop({ status: 'failed', message: `The scan stopped on an internal error: ${(err as Error).message}` });
          }
          return;
        }
      }
      progress.done += 1;
      emit();
    }
  };
  // Workers never reject: every task has ended (or seen the abort) before the outcome is decided.
  await Promise.all(Array.from({ length: Math.min(workers, tasks.length) }, worker));
  if (!controller.signal.aborted) await watch?.settle();
  const s = stopped();
  if (s) return finish(s, stopMessage());
  for (const e of active) {
    const why = baselines.blockedReason(e);
    if (why) note(`${describeEndpoint(e)} was not exercised: ${why} (writes and deletes only touch objects the scan created).`);
  }
  return finish('completed', null);
}
