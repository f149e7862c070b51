// What a scan actually tested (issue 26): per operation, the requests each identity sent and the status
// classes the API answered; per check and operation, whether it ran, found something, or could not
// exercise the operation — with one reason from a closed list and the one thing the user can do about
// it. Shared by the engine that keeps the ledger, the store, the reports, the CLI and the scan page.

/** How an answer ended: its status class, a timeout, or another transport failure. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'failed';
export const STATUS_CLASSES: readonly StatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'timeout', 'failed'];

/** Why a check did not exercise an operation: a closed list, each with what the user can do. */
export type CoverageReason =
  | 'no-object'
  | 'existing-object'
  | 'needs-second-identity'
  | 'needs-role'
  | 'refused'
  | 'validation'
  | 'server-error'
  | 'budget'
  | 'timeout'
  | 'rate-limited'
  | 'flags'
  | 'unsafe'
  | 'signup-off'
  | 'not-applicable';

export const COVERAGE_REASONS: Record<CoverageReason, { label: string; fix: string }> = {
  'no-object': {
    label: 'no object could be created',
    fix: 'make the create operation succeed (its answer is in the scan notes), or allow writes to existing objects (`writes: existing`) on a disposable instance',
  },
  'existing-object': {
    label: 'would write to an object the scan did not create',
    fix: 'allow writes to existing objects (`writes: existing`, Configure Scan) on a disposable instance',
  },
  'needs-second-identity': {
    label: 'needs a second identity',
    fix: 'add a second identity, or let the scan register its own users (`signup: auto`)',
  },
  'needs-role': {
    label: 'needs a role',
    fix: 'add an identity with the `privileged` or `lower` role',
  },
  refused: {
    label: 'refused by the API (401/403)',
    fix: "check the identity's credential and where it goes (Test in Configure Scan); an operation for another role needs an identity with that role",
  },
  validation: {
    label: 'validation failed',
    fix: "give the operation's parameters valid example values in the API description (the API's message says which)",
  },
  'server-error': {
    label: 'the API failed (5xx, or a dropped connection)',
    fix: "read the API's answer in the scan notes; fix the example values or the API",
  },
  budget: {
    label: 'out of budget',
    fix: 'raise the request budget or the time limit, or scan fewer endpoints',
  },
  timeout: {
    label: 'timed out',
    fix: 'raise the request timeout (--timeout-ms) or slow the scan down (--rps, --concurrency)',
  },
  'rate-limited': {
    label: "refused by the API's rate limit (429)",
    fix: "lower the request rate (--rps, Configure Scan), or ask for the scanner's address to be exempt from the rate limit on the instance you scan",
  },
  flags: {
    label: 'excluded by flags',
    fix: "turn the check's flag on for the operation (Configure Flags)",
  },
  unsafe: {
    label: 'held back for the target\'s safety',
    fix: 'on a disposable instance, set `writes: existing` and name the operation under `destructive:`',
  },
  'signup-off': {
    label: 'sign-up is off (the operation registers users)',
    fix: 'let the scan register its own test users (`signup: auto`) on an instance where that is fine',
  },
  'not-applicable': {
    label: 'not applicable',
    fix: 'nothing to do: the operation has nothing this check tests',
  },
};

/** The reasons that say the user could get more tested (not-applicable says nothing is missing). */
export const ACTIONABLE_REASONS: readonly CoverageReason[] = (Object.keys(COVERAGE_REASONS) as CoverageReason[]).filter((r) => r !== 'not-applicable');

export interface IdentityTraffic {
  requests: number;
  classes: Partial<Record<StatusClass, number>>;
}

export interface CoverageSkip {
  check_id: string;
  reason: CoverageReason;
  /** The particular: the API's validation message, the create that failed, the budget that ran out. */
  detail: string;
}

export interface CoverageOperation {
  method: string;
  path: string;
  /** A GraphQL operation's name ("Mutation.uploadPaste"); null for REST. */
  operation: string | null;
  /** Set on routes the scan found beyond the API description (not imported): where it found them. */
  discovered?: string;
  /** By identity name ("alice", "anonymous"): requests the scan sent this operation as it, and how they ended. */
  identities: Record<string, IdentityTraffic>;
  /** Checks that tested the operation (finding or not). */
  ran: string[];
  /** Checks that reported a finding here. */
  found: string[];
  skipped: CoverageSkip[];
}

export interface CoverageReasonCount {
  reason: CoverageReason;
  /** (check, operation) pairs with this reason. */
  count: number;
  label: string;
  fix: string;
}

export interface CoverageSummary {
  operations: number;
  /** Operations that answered a 2xx to some identity (anonymous included). */
  reached: number;
  /** Operations some check could not exercise, for a reason the user can act on. */
  not_exercised: number;
  /** Distinct checks that could not exercise some operation (actionable reasons). */
  checks_not_run: number;
  /** Commonest actionable reasons first. */
  reasons: CoverageReasonCount[];
  /** The identity names, in the scan's order (anonymous last). */
  identities: string[];
}

export interface ScanCoverage {
  summary: CoverageSummary;
  operations: CoverageOperation[];
}

/** Operations that answered a 2xx to some identity. */
export function reachedOperation(op: Pick<CoverageOperation, 'identities'>): boolean {
  return Object.values(op.identities).some((t) => (t.classes['2xx'] ?? 0) > 0);
}

/** The actionable skips of an operation. */
export function actionableSkips(op: Pick<CoverageOperation, 'skipped'>): CoverageSkip[] {
  return op.skipped.filter((s) => s.reason !== 'not-applicable');
}

/** The summary of a list of operations: what the header line, the CLI and --min-coverage read. */
export function summarizeCoverage(operations: readonly CoverageOperation[], identities: readonly string[]): CoverageSummary {
  const counts = new Map<CoverageReason, number>();
  const checks = new Set<string>();
  let notExercised = 0;
  for (const op of operations) {
    const skips = actionableSkips(op);
    if (skips.length) notExercised += 1;
    for (const s of skips) {
      checks.add(s.check_id);
      counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
    }
  }
  const reasons = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, count]) => ({ reason, count, ...COVERAGE_REASONS[reason] }));
  return {
    operations: operations.length,
    reached: operations.filter(reachedOperation).length,
    not_exercised: notExercised,
    checks_not_run: checks.size,
    reasons,
    identities: [...identities],
  };
}

/** "reached 41 of 57 operations with a 2xx as some identity; 12 operations not exercised by 9 checks" */
export function coverageHeadline(s: Pick<CoverageSummary, 'operations' | 'reached' | 'not_exercised' | 'checks_not_run'>): string {
  const ops = (n: number) => `${n} operation${n === 1 ? '' : 's'}`;
  const reached = `reached ${s.reached} of ${ops(s.operations)} with a 2xx as some identity`;
  // Nothing reached: no claim about the checks (a scan that failed before them exercised nothing).
  if (!s.not_exercised) return s.reached ? `${reached}; every check exercised every operation it applies to` : reached;
  return `${reached}; ${ops(s.not_exercised)} not exercised by ${s.checks_not_run} check${s.checks_not_run === 1 ? '' : 's'}`;
}

/** The share of operations reached, in percent (100 for an API with none). */
export function reachedPercent(s: Pick<CoverageSummary, 'operations' | 'reached'>): number {
  return s.operations ? (100 * s.reached) / s.operations : 100;
}

/** The operation's label in tables: "Mutation.uploadPaste" for GraphQL, "GET /path" otherwise. */
export function coverageLabel(op: Pick<CoverageOperation, 'method' | 'path' | 'operation'>): string {
  return op.operation ?? `${op.method} ${op.path}`;
}

/** Operations reached (2xx) in `before` and not in `after`: lost coverage, by label. */
export function lostCoverage(before: readonly CoverageOperation[], after: readonly CoverageOperation[]): string[] {
  const now = new Map(after.map((o) => [coverageLabel(o), o]));
  return before.filter((o) => reachedOperation(o) && !(now.has(coverageLabel(o)) && reachedOperation(now.get(coverageLabel(o))!))).map(coverageLabel);
}
