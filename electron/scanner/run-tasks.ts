// The task phase of a scan: every (check, endpoint) pair the identities allow, in an order that
// keeps deletes last, run by a worker pool with each check's context (its budget, the shared
// baselines and objects, the identities), findings built and handed to the sink as they come.

import type { Endpoint } from '../../shared/contract';
import { describeEndpoint, protocolOf } from './checks/common/helpers';
import { proofOf, provenWithoutCredentials, replayableProof, sameAnswer, withoutCredentials } from './anonymous-proof';
import type { Check, CheckContext, FindingDraft } from './checks/types';
import { buildFinding, Deferrals, slotRelabeler } from './findings';
import { registeredUser, type FindingOrigins } from './evidence-origins';
import { Budget, BudgetExceededError, OutOfScopeError, type ProbeRequest } from './http/engine';
import type { Exchange, KeyNumber } from './http/exchange';
import { AbortedError } from './http/limits';
import { authSpecFor } from './identities/placement';
import { LocalTargetError } from './net-guard';
import { CONSENT_HINT, fileWriteRefusal } from './probe-safety';
import { runWithHolds } from './object-holds';
import { LostAnswers, recordTaskCoverage, recordUnrunTasks } from './run-coverage';
import { toProbe, type PreparedRequest } from './requests';
import { SeededRandom } from './random';
import { purposeOf } from './resources';
import type { ScanRun } from './run-state';
import type { ScanFocus } from './run';
import { graphqlOperationName } from '../../shared/display';

interface Task {
  check: Check;
  endpoint: Endpoint | null;
  endpoints: Endpoint[];
}

/**
 * The tasks to run, with skipped checks recorded: per endpoint in import order, deletes after the
 * rest, then the API-wide checks, and last the checks whose bursts may lock accounts out.
 */
export function planTasks(run: ScanRun): Task[] {
  const identities = run.identities!;
  const tasks: Task[] = [];
  const apiTasks: Task[] = [];
  const protocols = new Set(run.active.map(protocolOf));
  if (!protocols.size) protocols.add('rest');
  for (const check of run.job.checks) {
    // A check for another kind of API (GraphQL checks on a REST API and the reverse) does not apply: not a skip worth listing.
    if (!(check.protocols ?? ['rest']).some((p) => protocols.has(p))) continue;
    const applicable = run.active.filter((e) => check.appliesTo(e));
    for (const e of run.withheld) if (check.appliesTo(e)) run.coverage.skipped(check.id, e, 'signup-off', `${describeEndpoint(e)} registers users and sign-up is off: no request goes to it`);
    if (check.needsKey2 && !run.hasKey2) {
      run.skip(check, 'Needs a second user (key 2): this cross-user test compares what two users can reach. Add a second identity, or let the scan create users.', 'needs-second-identity', applicable);
      continue;
    }
    if (check.needsKey2 && identities.distinct === false) {
      run.skip(check, `Key 1 and key 2 belong to the same user (${identities.how}).`, 'needs-second-identity', applicable);
      continue;
    }
    // A check for discovered routes when the scan discovered none: nothing to test, nothing the user could change.
    if (!applicable.length && check.discoveredOnly) continue;
    if (!applicable.length) {
      const withheld = run.withheld.filter((e) => check.appliesTo(e));
      if (withheld.length) {
        run.skip(check, `The scan may not register users here (sign-up is off): no request goes to ${withheld.map(describeEndpoint).join(', ')}, which register${withheld.length === 1 ? 's' : ''} users, and this check tests nothing else.`, 'not-applicable');
      } else run.skip(check, `No scanned endpoint has the ${check.flag} flag (or fits this check).`, 'flags');
      continue;
    }
    run.checksRun.push({ check_id: check.id, title: check.title, owasp: check.owasp, endpoints: applicable.map(describeEndpoint) });
    if (check.scope === 'api') apiTasks.push({ check, endpoint: null, endpoints: applicable });
    else for (const e of applicable) tasks.push({ check, endpoint: e, endpoints: [e] });
  }
  const position = new Map(run.active.map((e, i) => [e.id, i]));
  const rank = (t: Task) => (t.endpoint!.method === 'DELETE' ? 1 : 0);
  tasks.sort((a, b) => rank(a) - rank(b) || position.get(a.endpoint!.id)! - position.get(b.endpoint!.id)!);
  tasks.push(...apiTasks);
  return run.job.focus ? focusedTasks(tasks, run.job.focus) : tasks;
}

/**
 * A re-test's tasks: the check's task on the finding's operation. An API-wide check runs whole (what it
 * compares across operations is part of its verdict); the finding's fingerprint decides the outcome.
 */
export function focusedTasks(tasks: Task[], focus: ScanFocus): Task[] {
  const fits = (e: Endpoint) =>
    e.method.toUpperCase() === focus.method.toUpperCase() && e.path === focus.path && (!e.graphql || !focus.operation || graphqlOperationName(e.graphql) === focus.operation);
  return tasks.filter((t) => t.check.id === focus.checkId && (t.endpoint === null || fits(t.endpoint)));
}

function contextFor(run: ScanRun, task: Task): CheckContext & { spent(): number; sentOn: ReadonlyMap<string, number>; lost: LostAnswers } {
  const { engine, baselines, resources, security } = run;
  const checkBudget = new Budget(`${task.check.id}${task.endpoint ? ` on ${describeEndpoint(task.endpoint)}` : ''}`, task.check.budget);
  const first = task.endpoint ?? task.endpoints[0]!;
  // Requests of the check's own, by the operation they were for: the coverage ledger's "ran".
  const sentOn = new Map<string, number>();
  const budgets = (e?: Endpoint | null) => {
    if (e) sentOn.set(e.id, (sentOn.get(e.id) ?? 0) + 1);
    return e ? [checkBudget, run.budgetOf(e)] : [checkBudget];
  };
  // Answers the check needed and did not get, after the engine's retries: its verdict on the operation is open.
  const lost = new LostAnswers();
  const throttleIsAnswer = !!task.check.measuresThrottling;
  const sending = (request: ProbeRequest, endpoint: Endpoint | null | undefined): Promise<Exchange> => {
    const probe = throttleIsAnswer ? { ...request, throttleIsAnswer } : request;
    return engine.send(probe, budgets(endpoint)).then((ex) => {
      if (endpoint) lost.observe(endpoint, ex, { ownTimeLimit: request.timeoutMs !== undefined, throttleIsAnswer });
      return ex;
    });
  };
  // Whatever a check builds, a write that names a file keeps the file name the scan made up (probe-safety.ts).
  const guarded = (request: ProbeRequest, endpoint: Endpoint | null | undefined): Promise<Exchange> | null => {
    const why = endpoint ? fileWriteRefusal(endpoint, request, run.job.options) : null;
    if (!why) return null;
    run.holdBack(endpoint!, why, CONSENT_HINT, task.check);
    return Promise.resolve(engine.refuse(request, why));
  };
  return {
    spent: () => checkBudget.used,
    sentOn,
    lost,
    check: task.check,
    api: run.api,
    endpoint: first,
    endpoints: task.endpoints,
    allEndpoints: run.active,
    hasKey2: run.hasKey2,
    identities: run.identities!,
    accounts: run.accounts,
    options: run.job.options,
    // Per check and operation (by method and path, not by the stored id): the same values whatever order the tasks run in.
    random: new SeededRandom(run.job.options.seed ?? 0, `${task.check.id} ${task.endpoint ? describeEndpoint(task.endpoint) : '*'}`),
    resources,
    signal: run.signal,
    parallelism: Math.max(1, run.job.engine.concurrency),
    oob: run.oob,
    skips: (method, url) => engine.isSkipped(method, new URL(url)),
    send: (request: ProbeRequest, endpoint?: Endpoint) => {
      const target = endpoint ?? task.endpoint;
      // The operation it is for, for the coverage ledger (which still checks the path fits a REST operation's template).
      const tagged = request.operation || !target ? request : { ...request, operation: target.id };
      return guarded(tagged, target) ?? sending(tagged, target);
    },
    sendPrepared: (request: PreparedRequest, auth, extra) => {
      const probe = toProbe(request, auth, extra);
      return guarded(probe, request.endpoint ?? task.endpoint) ?? sending(probe, request.endpoint ?? task.endpoint);
    },
    baseline: (mode, endpoint) => baselines.get(endpoint ?? first, mode),
    baselineRequest: (endpoint, mode) => baselines.request(endpoint ?? first, mode),
    prepare: async (endpoint, key: KeyNumber, purpose = purposeOf(endpoint.method)) => {
      const r = await resources.prepare(endpoint, key, purpose);
      return 'request' in r ? r.request : null;
    },
    authSpec: (endpoint) => authSpecFor(endpoint ?? first, security),
    url: (p) => engine.resolve(p),
    credential: (key) => run.book.slot(key)?.token ?? null,
    loginExchanges: (key) => run.book.slot(key)?.loginExchanges ?? [],
    identityName: (key) => run.book.labelOf(key),
    budgetLeft: (endpoint) => Math.min(checkBudget.left, engine.budget.left, ...(endpoint ?? task.endpoint ? [run.budgetOf((endpoint ?? task.endpoint)!).left] : [])),
    note: (m, kind) => run.note(m, kind),
    skip: (reason, code) => run.skip(task.check, reason, code, task.endpoints),
    holdBack: (reason, endpoint) => run.holdBack(endpoint ?? first, reason, CONSENT_HINT, task.check),
    slowOperations: () => engine.slowOperations(),
    provePassword: (proven) => {
      if (run.provenPasswords.some((p) => p.account === proven.account && p.password === proven.password && p.endpointId === proven.endpointId)) return;
      run.provenPasswords.push(proven);
      // Whatever a later check shows, the password itself is not: it opens another's account.
      run.redactor.add({ label: `[${proven.account}'s password]`, envVar: 'PORTCULLIS_PROVEN_PASSWORD', value: proven.password });
    },
    provenPasswords: () => run.provenPasswords,
  };
}

/**
 * A finding proven with a read sent as an identity, proven again without credentials when the API answers
 * that read the same way to anyone (anonymous-proof.ts): the endpoint's no-credential baseline when the proof
 * was its key-1 baseline, else the proof's request once more without its credential (charged to the endpoint
 * and the scan, not to the check). Any doubt, a spent budget included, keeps the finding as the check proved it.
 */
async function withAnonymousProof(run: ScanRun, task: Task, draft: FindingDraft): Promise<FindingDraft> {
  const proof = proofOf(draft);
  if (!replayableProof(task.check, draft, proof)) return draft;
  const endpoint = draft.endpoint === undefined ? task.endpoint : draft.endpoint;
  try {
    const baseline = endpoint ? await run.baselines.recorded(endpoint, 'key1') : null;
    const anonymous =
      endpoint && baseline === proof ? await run.baselines.get(endpoint, 'anonymous') : await run.engine.send(withoutCredentials(proof, run.redactor), endpoint ? [run.budgetOf(endpoint)] : []);
    return anonymous && sameAnswer(proof, anonymous) ? provenWithoutCredentials(draft, anonymous) : draft;
  } catch (err) {
    if (err instanceof AbortedError || run.signal.aborted) throw err;
    return draft;
  }
}

/** Runs the tasks with a worker pool; resolves when every task has ended or the scan was stopped. */
export async function runTasks(run: ScanRun, tasks: Task[]): Promise<void> {
  const names = new Map<number, string>();
  for (const k of [1, 2, 3, 4] as const) {
    const s = run.book.slot(k);
    if (s && s.name !== `key ${k}`) names.set(k, s.name);
  }
  const relabel = slotRelabeler(names);
  const origins: FindingOrigins = { objects: () => run.resources.created, user: (auth) => registeredUser(run.book.sessionFor(auth)) };
  const deferrals = new Deferrals();
  let scanBudgetSpent = false;

  const runChecked = async (task: Task, ctx: CheckContext) => {
    const where = task.endpoint ? ` on ${describeEndpoint(task.endpoint)}` : '';
    try {
      for await (const found of task.check.run(ctx) as AsyncIterable<FindingDraft>) {
        const draft = await withAnonymousProof(run, task, found);
        const built = buildFinding(task.check, draft, task.endpoint, run.redactor, relabel, origins);
        const at = draft.endpoint === undefined ? task.endpoint : draft.endpoint;
        if (at) run.coverage.found(task.check.id, at);
        if (deferrals.hold(draft, built)) continue;
        deferrals.record(built);
        if (await run.sink.finding(built)) run.progress.findings += 1;
      }
    } catch (err) {
      if (err instanceof AbortedError || run.signal.aborted) throw err;
      if (err instanceof BudgetExceededError) {
        if (err.budget === run.engine.budget && !scanBudgetSpent) {
          scanBudgetSpent = true;
          run.problem(`The scan's request budget (${run.engine.budget.limit} requests) ran out; the remaining checks did not run.`);
        }
        return;
      }
      if (err instanceof LocalTargetError) {
        run.stop({ status: 'failed', message: `Scans for local APIs are disabled in this environment (${err.message}).` });
        throw new AbortedError();
      }
      if (err instanceof OutOfScopeError) run.problem(`Check "${task.check.title}"${where} tried a request outside the scan's scope (refused): ${err.url}`);
      else run.problem(`Check "${task.check.title}"${where} failed: ${(err as Error).message}`);
      run.sink.logger.warn('Check failed', { scan_id: run.job.scanId, check: task.check.id, endpoint: where, error: run.redactor.redact(String((err as Error)?.message ?? err)) });
    }
  };

  const runTask = async (task: Task) => {
    run.taskStarted(task, { check: task.check.title, endpoint: task.endpoint ? describeEndpoint(task.endpoint) : null });
    const ctx = contextFor(run, task);
    started.add(task);
    try {
      // Its writes hold what they wrote until its next request (object-holds.ts): so does every request sent on its behalf.
      await runWithHolds({ holder: task, holds: run.holds }, () => runChecked(task, ctx));
      if (!run.signal.aborted) await recordTaskCoverage(run, task, ctx.sentOn, ctx.lost);
    } finally {
      run.holds.releaseAll(task);
      run.taskEnded(task);
      run.requestsByCheck[task.check.id] = (run.requestsByCheck[task.check.id] ?? 0) + ctx.spent();
    }
  };
  const started = new Set<Task>();

  // Tasks mostly wait on their own requests in sequence; the engine's semaphore bounds what is in
  // flight. Twice the concurrency keeps it full (a queue of waiting requests) without holding the live
  // state of more tasks than that, which every young-generation GC would copy (x4 measured slower).
  const workers = Math.max(4, Math.min(256, run.job.engine.concurrency * 2));
  // The bursts that may lock accounts out wait until everything else has finished, and what may wipe the API's data waits for them.
  // Checks that use a proven password wait for the `last` ones, which prove them.
  const phases = [
    tasks.filter((t) => !t.check.last && !t.check.usesProvenPasswords && !t.check.destructive),
    tasks.filter((t) => t.check.last && !t.check.usesProvenPasswords && !t.check.destructive),
    tasks.filter((t) => t.check.usesProvenPasswords && !t.check.destructive),
    tasks.filter((t) => t.check.destructive),
  ];
  for (const phase of phases) {
    if (phase.length && !run.signal.aborted) await runPool(phase, workers);
  }
  if (!run.signal.aborted) for (const built of deferrals.release()) if (await run.sink.finding(built)) run.progress.findings += 1;
  const unrun = tasks.filter((t) => !started.has(t));
  if (unrun.length) recordUnrunTasks(run, unrun, scanBudgetSpent ? `the scan's request budget (${run.engine.budget.limit} requests) was spent first` : run.stopMessage() ?? 'the scan stopped before it');

  async function runPool(list: Task[], size: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < list.length && !run.signal.aborted) {
        const task = list[next++]!;
        if (!scanBudgetSpent) {
          try {
            await runTask(task);
          } catch (err) {
            // The scan's budget can also run out outside a check's own loop (a shared baseline its coverage reads).
            if (err instanceof BudgetExceededError && err.budget === run.engine.budget) {
              if (!scanBudgetSpent) run.problem(`The scan's request budget (${run.engine.budget.limit} requests) ran out; the remaining checks did not run.`);
              scanBudgetSpent = true;
            } else {
              if (!(err instanceof AbortedError) && !run.signal.aborted) {
                run.sink.logger.error('Scan failed', { scan_id: run.job.scanId, error: run.redactor.redact(String((err as Error)?.stack ?? err)) });
                run.stop({ status: 'failed', message: `The scan stopped on an internal error: ${(err as Error).message}` });
              }
              return;
            }
          }
        }
        run.progress.done += 1;
        run.emit();
      }
    };
    // Workers never reject: every task has ended (or seen the abort) before the outcome is decided.
    await Promise.all(Array.from({ length: Math.min(size, list.length) }, worker));
  }
}
