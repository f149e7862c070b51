// The coverage ledger of a scan (issue 26, shared/coverage.ts): every exchange the engine completes is
// counted on the operation it addressed, as the identity it spoke as, by how it ended; every check's
// run on an operation is recorded as ran, found or skipped with a reason. Kept as the scan runs, built
// into the stored coverage at its end.

import type { Endpoint } from '../../shared/contract';
import {
  COVERAGE_REASONS,
  summarizeCoverage,
  type CoverageOperation,
  type CoverageReason,
  type ScanCoverage,
  type StatusClass,
} from '../../shared/coverage';
import { graphqlOperationName } from '../../shared/display';
import type { Exchange } from './http/exchange';

/** One path template as segments: a literal, or null for a {parameter}. */
type Pattern = (string | null)[];

interface OperationState {
  endpoint: Endpoint;
  pattern: Pattern | null;
  identities: Map<string, { requests: number; classes: Partial<Record<StatusClass, number>> }>;
  ran: Set<string>;
  found: Set<string>;
  skipped: Map<string, { reason: CoverageReason; detail: string }>;
}

function segments(pathname: string): string[] {
  return pathname.split('/').filter(Boolean);
}

/** How an exchange ended. */
export function statusClass(ex: Exchange): StatusClass {
  if (!ex.response) return ex.error === 'timeout' ? 'timeout' : 'failed';
  const s = ex.status;
  return s >= 500 ? '5xx' : s >= 400 ? '4xx' : s >= 300 ? '3xx' : '2xx';
}

export class CoverageLedger {
  private readonly ops = new Map<string, OperationState>();
  /** REST operations by method and segment count, for exchanges no operation was named for (guesses, rewritten paths). */
  private readonly byShape = new Map<string, OperationState[]>();
  private readonly matched = new Map<string, OperationState | null>();

  /**
   * `endpoints`: the scanned operations; `basePath` the API's base path ("/api"), which the request
   * paths carry before the spec's paths.
   */
  constructor(
    endpoints: readonly Endpoint[],
    private readonly basePath: string,
  ) {
    this.add(endpoints);
  }

  /** Operations that join the scan after it started (routes found by discovery): rows like the others. */
  add(endpoints: readonly Endpoint[]): void {
    const base = segments(this.basePath);
    for (const e of endpoints) {
      if (this.ops.has(e.id)) continue;
      const pattern = e.graphql ? null : [...base, ...segments(e.path).map((s) => (/^\{[^}]*\}$/.test(s) ? null : s))];
      const state: OperationState = { endpoint: e, pattern, identities: new Map(), ran: new Set(), found: new Set(), skipped: new Map() };
      this.ops.set(e.id, state);
      if (!pattern) continue;
      const k = `${e.method.toUpperCase()} ${pattern.length}`;
      const list = this.byShape.get(k);
      if (list) list.push(state);
      else this.byShape.set(k, [state]);
    }
    this.matched.clear();
  }

  private static fits(pattern: Pattern, segs: string[]): number {
    if (pattern.length !== segs.length) return -1;
    let literal = 0;
    for (let i = 0; i < pattern.length; i += 1) {
      const p = pattern[i];
      if (p === null) continue;
      if (p !== segs[i]) return -1;
      literal += 1;
    }
    return literal;
  }

  /** The operation a request addressed: the one it was prepared for when its path still fits, else the best fitting template. */
  private operationOf(ex: Exchange): OperationState | null {
    let pathname: string;
    try {
      pathname = new URL(ex.request.url).pathname;
    } catch {
      return null;
    }
    const segs = segments(pathname).map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    const tagged = ex.request.operation ? this.ops.get(ex.request.operation) : undefined;
    if (tagged && (!tagged.pattern || CoverageLedger.fits(tagged.pattern, segs) >= 0)) return tagged;
    const method = ex.request.method.toUpperCase();
    const key = `${method} ${pathname}`;
    if (this.matched.has(key)) return this.matched.get(key)!;
    let best: OperationState | null = null;
    let bestLiteral = -1;
    for (const state of this.byShape.get(`${method} ${segs.length}`) ?? []) {
      const literal = CoverageLedger.fits(state.pattern!, segs);
      if (literal > bestLiteral) {
        best = state;
        bestLiteral = literal;
      }
    }
    if (this.matched.size > 20_000) this.matched.clear();
    this.matched.set(key, best);
    return best;
  }

  /** Counts an exchange on its operation, as `identity` (null: a forged or other credential, not counted per identity). */
  observe(ex: Exchange, identity: string | null): void {
    if (identity === null || ex.error?.startsWith('not sent')) return;
    const op = this.operationOf(ex);
    if (!op) return;
    let t = op.identities.get(identity);
    if (!t) op.identities.set(identity, (t = { requests: 0, classes: {} }));
    t.requests += 1;
    const c = statusClass(ex);
    t.classes[c] = (t.classes[c] ?? 0) + 1;
    if (ex.response) {
      let seen = this.statuses.get(op.endpoint.id);
      if (!seen) this.statuses.set(op.endpoint.id, (seen = new Set()));
      seen.add(ex.status);
    }
  }

  ran(checkId: string, endpoint: Endpoint): void {
    const op = this.ops.get(endpoint.id);
    if (!op) return;
    op.ran.add(checkId);
    op.skipped.delete(checkId);
  }

  found(checkId: string, endpoint: Endpoint): void {
    const op = this.ops.get(endpoint.id);
    if (!op) return;
    op.found.add(checkId);
    this.ran(checkId, endpoint);
  }

  /** The check did not exercise the operation (a later run or finding on it wins); false when it was not recorded (it ran, or was skipped already). */
  skipped(checkId: string, endpoint: Endpoint, reason: CoverageReason, detail = ''): boolean {
    const op = this.ops.get(endpoint.id);
    if (!op || op.ran.has(checkId) || op.skipped.has(checkId)) return false;
    op.skipped.set(checkId, { reason, detail: detail.slice(0, 300) });
    return true;
  }

  /**
   * Whether the scan reached the API at all (a 2xx or a redirect), and if not what every answer had in common: the same 404
   * (a wrong base URL), a refusal (credentials that do not work), or nothing sent (every operation blocked).
   */
  reach(): { reached: number; sent: number; notFound: number; refused: number; operations: number } {
    let reached = 0;
    let sent = 0;
    let notFound = 0;
    let refused = 0;
    for (const op of this.ops.values()) {
      const all = [...op.identities.values()];
      if (!all.length) continue;
      sent += 1;
      // A redirect is an answer the operation meant (a link shortener, a login hop): reached for this rule.
      if (all.some((t) => (t.classes['2xx'] ?? 0) + (t.classes['3xx'] ?? 0) > 0)) reached += 1;
      else if (this.only(op, 404)) notFound += 1;
      else if (this.only(op, 401, 403)) refused += 1;
    }
    return { reached, sent, notFound, refused, operations: this.ops.size };
  }

  private readonly statuses = new Map<string, Set<number>>();

  /** Every answer the operation got had one of these statuses. */
  private only(op: OperationState, ...codes: number[]): boolean {
    const seen = this.statuses.get(op.endpoint.id);
    return !!seen && seen.size > 0 && [...seen].every((s) => codes.includes(s));
  }

  /** Requests the operation got as an identity, by status class. */
  traffic(endpoint: Endpoint): ReadonlyMap<string, { requests: number; classes: Partial<Record<StatusClass, number>> }> {
    return this.ops.get(endpoint.id)?.identities ?? new Map();
  }

  /** The stored coverage: operations in the scan's order, identities as given (anonymous last), redacted details. */
  build(identities: readonly string[], redact: (s: string) => string): ScanCoverage {
    const operations: CoverageOperation[] = [...this.ops.values()].map((op) => ({
      method: op.endpoint.method,
      path: op.endpoint.path,
      operation: op.endpoint.graphql ? graphqlOperationName(op.endpoint.graphql) : null,
      ...(op.endpoint.discovered ? { discovered: op.endpoint.discovered } : {}),
      identities: Object.fromEntries([...op.identities.entries()].map(([name, t]) => [name, { requests: t.requests, classes: { ...t.classes } }])),
      ran: [...op.ran].sort(),
      found: [...op.found].sort(),
      skipped: [...op.skipped.entries()]
        .map(([check_id, s]) => ({ check_id, reason: s.reason, detail: redact(s.detail || COVERAGE_REASONS[s.reason].label) }))
        .sort((a, b) => a.check_id.localeCompare(b.check_id)),
    }));
    return { summary: summarizeCoverage(operations, identities), operations };
  }
}
