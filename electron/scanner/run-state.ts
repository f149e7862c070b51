// The state one scan shares between its phases (identities, tasks, finish): the engine with the
// identities as its credentials, budgets, shared objects and baselines, the redactor, notes and
// skipped checks, progress, and the outcome it ends with.

import { ObjectHolds } from './object-holds';
import { setMaxListeners } from 'node:events';
import type { LoginFailure, ScanCurrent, SkippedCheck } from '../../shared/contract';
import type { Endpoint } from '../../shared/contract';
import type { IdentityReport } from '../../shared/identities';
import { Baselines } from './baselines';
import { ChallengeFiller } from './challenge-fill';
import { describeEndpoint } from './checks/common/helpers';
import type { Check, Identities, ProvenPassword, ScanApi } from './checks/types';
import { Budget, HttpEngine, type RegistrationOperation } from './http/engine';
import type { PaceChange } from './http/pace';
import type { Exchange } from './http/exchange';
import type { Accounts } from './identities/accounts';
import { IdentityBook } from './identities/book';
import type { CreatedAccount } from './identities/session';
import { loginOrigins, type ScanSecurity } from './identities/placement';
import type { OobListener } from './oob';
import { generatePassword } from './passwords';
import { Redactor } from './redact';
import { ANONYMOUS_NAME } from '../../shared/identities';
import type { CoverageReason } from '../../shared/coverage';
import type { NoteKind } from '../../shared/scan-notes';
import { CoverageLedger } from './coverage-ledger';
import type { RequestAuth } from './http/exchange';
import { operationLabel } from './probe-safety';
import { registeredAccount, registrationOperation, registrationOperations } from './registrations';
import { ResourcePool } from './resources';
import { declaredIds } from './declared-objects';
import { TrafficRecorder } from './traffic';
import type { ScanJob, ScanOutcome, ScanProgress, ScanSink, StopReason } from './run';

const PROGRESS_INTERVAL_MS = 250;
/** The coverage column of the users the scan registered for its account checks. */
const REGISTERED_USERS = 'registered users';
/** Users registered by the checks' requests that a scan lists (and keeps the passwords of). */
const MAX_RECORDED_REGISTRATIONS = 200;
const MAX_ERRORS = 50;
/** Changes of pace listed one by one in the notes; the rest are counted. */
const MAX_PACE_NOTES = 12;

function isStopReason(x: unknown): x is StopReason {
  return !!x && typeof x === 'object' && 'status' in x && 'message' in x;
}

export class ScanRun {
  readonly controller = new AbortController();
  readonly redactor = new Redactor([]);
  readonly errors: string[] = [];
  /** The notes among `errors` that are problems (shared/scan-notes.ts), not information. */
  readonly problems = new Set<string>();
  readonly skipped: SkippedCheck[] = [];
  readonly failures = new Map<string, number>();
  private readonly heldBack = new Map<string, { operations: Set<string>; hint: string }>();
  readonly requestsByCheck: Record<string, number> = {};
  readonly checksRun: ScanOutcome['checksRun'] = [];
  /** Every endpoint but the SKIP ones (and those withheld). */
  readonly active: Endpoint[];
  /** Operations that register users, not scanned because sign-up is off. */
  readonly withheld: Endpoint[];
  /** The scan's own copy: the health check may record which scheme key 1 works with. */
  readonly security: ScanSecurity;
  readonly api: ScanApi;
  readonly book = new IdentityBook();
  readonly engine: HttpEngine;
  readonly resources: ResourcePool;
  readonly baselines: Baselines;
  /** Which task holds which object it wrote, until it has read it back (object-holds.ts). */
  readonly holds: ObjectHolds;
  /** What the scan tested: every exchange by operation and identity, every check's run by operation (issue 26). */
  readonly coverage: CoverageLedger;
  /** The requests the scan sent, the last ones within bounds: its HAR when it ends (traffic.ts). */
  readonly traffic = new TrafficRecorder();
  readonly progress: ScanProgress = { done: 0, total: 0, requestsSent: 0, findings: 0 };
  /** What the scan does outside the tasks (signing in); the tasks in flight take its place. */
  phase: ScanCurrent | null = null;
  /** Tasks in flight, oldest first: the oldest is what a live view names as "checking now". */
  private readonly inFlight = new Map<object, ScanCurrent>();
  identities: Identities | null = null;
  accounts: Accounts | null = null;
  /** The identity whose login stopped the scan, and what the API answered (issue 31). */
  loginFailure: LoginFailure | null = null;
  /** Every identity logged in and was verified: the setup works (the service keeps it for the API). */
  signedIn = false;
  /** Users the checks' own requests registered (sign-up on): the scan's as much as the Accounts service's. */
  readonly registered: CreatedAccount[] = [];
  /** Passwords the weak-credential checks proved: the checks that run after them may use them. */
  readonly provenPasswords: ProvenPassword[] = [];
  private registeredBeyond = 0;
  oob: OobListener | null = null;
  /** Refresh tokens the identities were handed (OAuth2 rotates them): the service stores them for the next scan. */
  readonly rotated = new Map<string, string>();
  private readonly endpointBudgets = new Map<string, Budget>();
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly onOuterAbort: () => void;
  private lastEmit = 0;
  private unique = 0;
  /** Checks that had no verdict on an operation (answers lost after retries), and the answers lost. */
  private readonly open = { tasks: 0, checks: new Set<string>(), timeout: 0, throttled: 0, failed: 0, slow: 0 };
  /** Changes of pace the notes do not list one by one. */
  private paceUnlisted = 0;
  private paceNotes = 0;

  constructor(
    readonly job: ScanJob,
    readonly sink: ScanSink,
  ) {
    // Every request in flight listens on the scan's signal.
    setMaxListeners(0, this.controller.signal);
    this.onOuterAbort = () => this.stop(isStopReason(job.signal.reason) ? job.signal.reason : { status: 'cancelled', message: 'Cancelled.' });
    if (job.signal.aborted) this.onOuterAbort();
    job.signal.addEventListener('abort', this.onOuterAbort, { once: true });

    const scanned = job.endpoints.filter((e) => !e.flags.includes('SKIP'));
    // Sign-up off: the scan registers nobody, so the operations that register users are not scanned at all.
    const signup = job.identities?.signup ?? 'off';
    const registering = registrationOperations(scanned, signup === 'off' ? 'auto' : signup);
    this.withheld = signup === 'off' ? registering : [];
    this.active = scanned.filter((e) => !this.withheld.includes(e));
    if (signup === 'off' && registering.length) {
      this.note(`Sign-up is off, so the scan registers nobody: no request was sent to ${registering.map((e) => registrationOperation(e).label).join(', ')}, which register${registering.length === 1 ? 's' : ''} users.`);
    }
    this.security = { schemes: job.api.security.schemes, default: job.api.security.default };
    this.api = { ...job.api, security: this.security };
    const identities = job.identities?.identities ?? [];
    this.engine = new HttpEngine({
      baseUrl: job.api.baseUrl,
      concurrency: job.engine.concurrency,
      rps: job.engine.rps,
      timeoutMs: job.engine.timeoutMs,
      retries: job.engine.retries,
      maxBodyBytes: job.engine.maxBodyBytes,
      maxRequests: job.engine.maxRequestsPerScan,
      allowLocal: job.engine.allowLocal,
      tlsVerify: job.engine.tlsVerify,
      credentials: this.book,
      loginOrigins: loginOrigins(job.api.baseUrl, identities, job.api.security),
      skipped: job.endpoints.filter((e) => e.flags.includes('SKIP')),
      scanned: this.active,
      registrations: {
        operations: registering.map(registrationOperation),
        allowed: signup !== 'off',
        answered: (op, ex) => this.recordRegistration(op, ex),
      },
      newPassword: () => {
        const password = generatePassword();
        this.redactor.add({ label: '[a generated password]', envVar: 'PORTCULLIS_PASSWORD', value: password });
        return password;
      },
      signal: this.controller.signal,
      proxy: job.engine.proxy ?? null,
      onPaceChange: (origin, change) => this.paceChanged(origin, change),
      onExchange: (ex) => {
        this.traffic.record(ex);
        if (ex.error) this.failures.set(ex.error, (this.failures.get(ex.error) ?? 0) + 1);
        this.book.observe(ex);
        this.coverage.observe(ex, this.identityOf(ex.request.auth));
      },
    });
    this.holds = new ObjectHolds(this.controller.signal);
    // Writes guarded by a challenge (CAPTCHA) get a fresh challenge's id and answer before each send, whichever check sends them.
    this.engine.solveChallenges(
      new ChallengeFiller({
        endpoints: this.active,
        base: (p) => this.engine.resolve(p),
        send: (request) => this.engine.send(request),
        note: (m) => this.note(m),
      }),
    );
    // Operations withheld because they register users (sign-up off) are rows too: nothing reaches them, and the ledger says why.
    this.coverage = new CoverageLedger([...this.active, ...this.withheld], new URL(job.api.baseUrl).pathname);
    const tag = job.scanId.replace(/-/g, '').slice(0, 8);
    this.resources = new ResourcePool({
      engine: this.engine,
      security: this.security,
      endpoints: this.active,
      budgetsFor: (e) => [this.budgetOf(e)],
      nextUnique: () => `${tag}${(++this.unique).toString(36)}`,
      allowExistingObjects: job.options.allowExistingObjects,
      namedOperations: job.options.namedOperations ?? [],
      hasKey: (k) => this.book.slot(k) !== null,
      declaredIds: (k, path, param) => declaredIds(this.book.slot(k)?.config.objects, path, param),
    });
    this.baselines = new Baselines({ engine: this.engine, resources: this.resources, budgetsFor: (e) => [this.budgetOf(e)], hasKey: (k) => this.book.slot(k) !== null });
    this.ticker = setInterval(() => this.emit(), 500);
    this.ticker.unref?.();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get hasKey2(): boolean {
    return this.book.slot(2) !== null;
  }

  budgetOf(e: Endpoint): Budget {
    let b = this.endpointBudgets.get(e.id);
    if (!b) {
      b = new Budget(describeEndpoint(e), this.job.engine.maxRequestsPerEndpoint);
      this.endpointBudgets.set(e.id, b);
    }
    return b;
  }

  /** A check's request to a sign-up operation was answered: the user it registered, if any, is recorded with its password. */
  private recordRegistration(op: RegistrationOperation, ex: Exchange): void {
    const account = registeredAccount(op, ex, `registered by a check's request to ${op.label}`);
    if (!account) return;
    if (this.registered.length < MAX_RECORDED_REGISTRATIONS) this.registered.push(account);
    else this.registeredBeyond += 1;
  }

  /** Every user the scan registered: the Accounts service's, then those the checks' requests made. */
  private createdAccounts(): CreatedAccount[] {
    return [...(this.accounts?.created ?? []), ...this.registered];
  }

  /** A change of pace toward a target: a note (the first ones; the rest counted), and the live view at once. */
  private paceChanged(origin: string, c: PaceChange): void {
    if (this.paceNotes >= MAX_PACE_NOTES) this.paceUnlisted += 1;
    else {
      this.paceNotes += 1;
      const toward = origin === new URL(this.job.api.baseUrl).origin ? '' : ` toward ${origin}`;
      const rate = c.rps ? ` and ${Math.round(c.rps * 10) / 10} requests per second` : '';
      const verb = c.to < c.from ? 'slowed down' : 'sped up';
      this.note(`Pace${toward}: at ${Math.round(c.atMs / 1000)} s the scan ${verb} to ${c.to} request${c.to === 1 ? '' : 's'} in flight (from ${c.from})${rate}: ${c.reason}.`);
    }
    this.emit(true);
  }

  /** A check could not conclude on an operation: answers it needed never came, after retries (the coverage says which). */
  inconclusive(check: Check, lost: { timeout: number; throttled: number; failed: number; slow: number }): void {
    this.open.tasks += 1;
    this.open.checks.add(check.id);
    this.open.timeout += lost.timeout;
    this.open.throttled += lost.throttled;
    this.open.failed += lost.failed;
    this.open.slow += lost.slow;
  }

  /**
   * A note in the scan's errors list (redacted, de-duplicated, bounded): information by default; a
   * problem when part of the scan did not happen as asked (a failure, a refusal, a limit reached).
   */
  note(message: string, kind: NoteKind = 'info'): void {
    const m = this.redactor.redact(message);
    if (this.errors.length < MAX_ERRORS && !this.errors.includes(m)) this.errors.push(m);
    if (kind === 'problem' && this.errors.includes(m)) this.problems.add(m);
  }

  /** A note of something that went wrong: a problem, shown apart from the information. */
  problem(message: string): void {
    this.note(message, 'problem');
  }

  /**
   * A check did not send some of its probes to an operation because of the safety rule
   * (probe-safety.ts): one note per reason at the end, listing the operations and what the user can do;
   * the coverage ledger says it for the check on the operation.
   */
  holdBack(endpoint: Endpoint, reason: string, hint: string, check?: Check): void {
    if (check) this.coverage.skipped(check.id, endpoint, 'unsafe', reason);
    let entry = this.heldBack.get(reason);
    if (!entry) this.heldBack.set(reason, (entry = { operations: new Set(), hint }));
    entry.operations.add(operationLabel(endpoint));
  }

  /** The check is skipped for the scan; on `endpoints` (those it applies to) the coverage ledger says why. */
  skip(check: Check, reason: string, code: CoverageReason = 'not-applicable', endpoints: readonly Endpoint[] = []): void {
    if (!this.skipped.some((s) => s.check_id === check.id)) this.skipped.push({ check_id: check.id, title: check.title, reason: this.redactor.redact(reason), owasp: check.owasp, code });
    for (const e of endpoints) this.coverage.skipped(check.id, e, code, reason);
  }

  /** The identity an exchange spoke as, for the coverage ledger: a slot's name, a created user's, anonymous; null for a forged credential. */
  identityOf(auth: RequestAuth): string | null {
    // The users the scan registers (a slot it fills, victims, attackers) share one column.
    if (auth.kind === 'key') return this.book.slot(auth.key)?.account ? REGISTERED_USERS : this.book.labelOf(auth.key);
    if (auth.kind === 'identity') {
      const session = this.book.sessions.find((s) => s.name === auth.name);
      return session && !session.account ? auth.name : REGISTERED_USERS;
    }
    if (auth.kind === 'none') return ANONYMOUS_NAME;
    return null;
  }

  /** The identity names of the coverage table: the scan's identities in order, the users it registered (one column), anonymous last. */
  coverageIdentities(): string[] {
    const registered = this.createdAccounts().length > 0 || this.book.sessions.some((s) => s.account);
    const names = [...this.book.sessions.filter((s) => !s.account).map((s) => s.name), ...(registered ? [REGISTERED_USERS] : [])];
    return [...new Set([...names.filter((n) => n !== ANONYMOUS_NAME), ANONYMOUS_NAME])];
  }

  stop(reason: StopReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  stopped(): ScanOutcome['status'] | null {
    if (!this.controller.signal.aborted) return null;
    const r = this.controller.signal.reason;
    return isStopReason(r) ? r.status : 'cancelled';
  }

  stopMessage(): string {
    const r = this.controller.signal.reason;
    return isStopReason(r) ? r.message : 'Cancelled.';
  }

  emit(force = false): void {
    const now = performance.now();
    if (!force && now - this.lastEmit < PROGRESS_INTERVAL_MS) return;
    this.lastEmit = now;
    this.progress.requestsSent = this.engine.requestsSent;
    this.sink.progress({ ...this.progress }, this.current(), this.engine.paceView());
  }

  taskStarted(task: object, current: ScanCurrent): void {
    this.inFlight.set(task, current);
  }

  taskEnded(task: object): void {
    this.inFlight.delete(task);
  }

  /** The oldest task still running, else the phase. */
  current(): ScanCurrent | null {
    for (const c of this.inFlight.values()) return c;
    return this.phase;
  }

  identityReports(): IdentityReport[] {
    return this.book.reports();
  }

  async finish(status: ScanOutcome['status'], failureReason: string | null): Promise<ScanOutcome> {
    clearInterval(this.ticker);
    this.job.signal.removeEventListener('abort', this.onOuterAbort);
    await this.engine.close();
    await this.oob?.close();
    for (const s of this.engine.slowOperations().filter((o) => o.alone)) {
      const e = this.active.find((x) => x.id === s.operation);
      if (!e) continue;
      this.problem(
        `${operationLabel(e)} took ${(s.ms / 1000).toFixed(1)} s to answer with nothing else in flight (past ${Math.round(this.engine.slowOperationMs / 1000)} s): the scan sent it no more ` +
          'requests, so that it would not hold the API (and every request queued behind it). The checks it kept from testing the operation are in the Coverage tab.',
      );
    }
    if (this.open.tasks) {
      const o = this.open;
      const parts = [
        o.timeout && `${o.timeout} timed out`,
        o.throttled && `${o.throttled} got 429 (too many requests)`,
        o.failed && `${o.failed} lost their connection`,
        o.slow && `${o.slow} were not sent to an operation that answers too slowly`,
      ].filter(Boolean);
      this.problem(
        `${o.checks.size} check${o.checks.size === 1 ? '' : 's'} could not conclude on ${o.tasks} operation${o.tasks === 1 ? '' : 's'}: requests they needed went unanswered${o.slow < o.timeout + o.throttled + o.failed + o.slow ? ' even after retries' : ''} (${parts.join(', ')}). ` +
          'The Coverage tab lists them as inconclusive; slow the scan down (--rps, --concurrency) or raise the request timeout, and scan again.',
      );
    }
    if (this.paceUnlisted) this.note(`The pace changed ${this.paceUnlisted} more time${this.paceUnlisted === 1 ? '' : 's'} than the notes above list.`);
    if (this.failures.size) {
      const parts = [...this.failures.entries()].map(([k, n]) => `${k}: ${n}`);
      this.problem(`Requests without a response: ${parts.join(', ')}.`);
    }
    for (const [reason, { operations, hint }] of this.heldBack) {
      const ops = [...operations];
      const list = ops.length > 6 ? `${ops.slice(0, 6).join(', ')} and ${ops.length - 6} more` : ops.join(', ');
      this.note(`Not sent, for the target's safety: ${reason}. Held back on ${ops.length} operation${ops.length === 1 ? '' : 's'} (${list}); ${hint}.`);
    }
    for (const s of this.book.sessions) {
      if (s.failures) this.problem(`Logging in as ${s.name} failed ${s.failures} time${s.failures === 1 ? '' : 's'} during the scan (the Identities table counts them).`);
    }
    for (const s of this.book.sessions) {
      const next = s.credential?.refreshToken;
      // Only an identity that starts from a refresh token needs the newest one next time.
      if (next && !s.account && s.config.oauth2?.grant === 'refresh_token' && next !== s.config.oauth2.refresh_token) this.rotated.set(s.name, next);
    }
    this.progress.requestsSent = this.engine.requestsSent;
    this.phase = null;
    this.inFlight.clear();
    this.emit(true);
    const ran = this.checksRun.filter((c) => !this.skipped.some((s) => s.check_id === c.check_id));
    const created = this.createdAccounts();
    if (this.registeredBeyond) this.note(`The checks' requests registered ${this.registeredBeyond} more users than the ${MAX_RECORDED_REGISTRATIONS} listed; their passwords were random and are not kept.`);
    return {
      status,
      failureReason: failureReason ? this.redactor.redact(failureReason) : null,
      errors: this.errors,
      problems: this.errors.filter((e) => this.problems.has(e)),
      skipped: this.skipped,
      progress: { ...this.progress },
      requestsByCheck: this.requestsByCheck,
      checksRun: ran,
      identities: this.redactor.redactDeep(this.identityReports()),
      coverage: this.coverage.build(this.coverageIdentities(), (t) => this.redactor.redact(t)),
      createdUsers: this.redactor.redactDeep(created.map((a) => ({ username: a.username, email: a.email, operation: a.operation, purpose: a.purpose }))),
      createdUserSecrets: created.map((a) => ({ username: a.username, email: a.email, operation: a.operation, purpose: a.purpose, password: a.password })),
      refreshes: this.book.refreshes,
      rotatedRefreshTokens: Object.fromEntries(this.rotated),
      traffic: this.traffic.size ? this.traffic.toLog(this.redactor) : null,
      loginFailure: status === 'failed' && this.loginFailure ? this.redactor.redactDeep(this.loginFailure) : null,
      signedIn: this.signedIn,
    };
  }
}
