// After each task, the coverage ledger learns what the check did on each of its operations: found
// something, tested it (sent requests of its own, or read a baseline it had), or could not — and why,
// from what the scan itself saw: the safety rule's block, the object rule's, key 1's answer to the
// unchanged request (refused, invalid, failing, too slow), a budget spent. A task that never ran
// (the scan's budget or time ran out) is recorded at the end.

import type { Endpoint } from '../../shared/contract';
import type { CoverageReason } from '../../shared/coverage';
import type { Check } from './checks/types';
import { NOT_SENT_SLOW } from './http/engine';
import type { Exchange } from './http/exchange';
import { answerExcerpt } from './identities/answers';
import type { ScanRun } from './run-state';

export interface CoverageTask {
  check: Check;
  endpoints: readonly Endpoint[];
}

type LostKind = 'timeout' | 'throttled' | 'failed' | 'slow';
// A slow operation's time budget is spent: the requests were not sent (http/engine.ts timeOperation).
const LOST_REASON: Record<LostKind, CoverageReason> = { timeout: 'timeout', throttled: 'rate-limited', failed: 'server-error', slow: 'budget' };
const LOST_WORDS: Record<LostKind, [string, string]> = {
  timeout: ['timeout', 'timeouts'],
  throttled: ['429', '429s'],
  failed: ['dropped connection', 'dropped connections'],
  slow: ['request not sent: the operation answers too slowly', 'requests not sent: the operation answers too slowly'],
};

/**
 * A task's answers that never came, by operation: a timeout, a 429 or a transport failure that the engine's
 * retries did not get past. A check missing one of them has no verdict on the operation (issue 27, item 2).
 */
export class LostAnswers {
  private readonly byOperation = new Map<string, Record<LostKind, number>>();

  /**
   * Counts the final exchange of a request the check sent. A probe with its own time limit measures slowness: its
   * timeout is an answer; so is a 429 to a check that measures throttling.
   */
  observe(endpoint: Endpoint, ex: Exchange, how: { ownTimeLimit: boolean; throttleIsAnswer: boolean }): void {
    let kind: LostKind | null = null;
    if (ex.response) kind = ex.status === 429 && !how.throttleIsAnswer ? 'throttled' : null;
    else if (ex.error === 'timeout') kind = how.ownTimeLimit ? null : 'timeout';
    else if (ex.error?.startsWith(NOT_SENT_SLOW)) kind = 'slow';
    else if (ex.error && !ex.error.startsWith('not sent')) kind = 'failed';
    if (!kind) return;
    let counts = this.byOperation.get(endpoint.id);
    if (!counts) this.byOperation.set(endpoint.id, (counts = { timeout: 0, throttled: 0, failed: 0, slow: 0 }));
    counts[kind] += 1;
  }

  /** The reason and "inconclusive: 3 timeouts" for an operation that lost answers; null when none was lost. */
  verdict(endpoint: Endpoint): { reason: CoverageReason; detail: string; counts: Record<LostKind, number> } | null {
    const counts = this.byOperation.get(endpoint.id);
    if (!counts) return null;
    const kinds = (Object.keys(counts) as LostKind[]).filter((k) => counts[k] > 0).sort((a, b) => counts[b] - counts[a]);
    const parts = kinds.map((k) => `${counts[k]} ${LOST_WORDS[k][counts[k] === 1 ? 0 : 1]}`);
    const retried = kinds.some((k) => k !== 'slow') ? ' (after retries)' : '';
    return { reason: LOST_REASON[kinds[0]!], detail: `inconclusive: ${parts.join(', ')}${retried}`, counts };
  }
}

/** Why the check could not exercise the operation, from what the scan saw of it. */
async function reasonFor(run: ScanRun, endpoint: Endpoint): Promise<{ reason: CoverageReason; detail: string }> {
  const block = run.baselines.block(endpoint);
  if (block) return { reason: block.code, detail: block.reason };
  const ex = await run.baselines.recorded(endpoint, 'key1');
  if (ex) {
    if (!ex.response) return { reason: ex.error === 'timeout' ? 'timeout' : 'server-error', detail: `the unchanged request as ${run.book.labelOf(1)} got no answer (${ex.error ?? 'no response'})` };
    if (ex.status === 401 || ex.status === 403) return { reason: 'refused', detail: `${run.book.labelOf(1)}'s unchanged request was refused: ${answerExcerpt(ex)}` };
    if (ex.status === 400 || ex.status === 422) return { reason: 'validation', detail: `the API refused the unchanged request's values: ${answerExcerpt(ex, 200)}` };
    if (ex.status >= 500) return { reason: 'server-error', detail: `the unchanged request failed: ${answerExcerpt(ex)}` };
  }
  if (run.budgetOf(endpoint).left <= 0) return { reason: 'budget', detail: `the operation's request budget (${run.budgetOf(endpoint).limit} requests) was spent` };
  if (run.engine.budget.left <= 0) return { reason: 'budget', detail: `the scan's request budget (${run.engine.budget.limit} requests) was spent` };
  return { reason: 'not-applicable', detail: '' };
}

/**
 * Records a finished task: per operation, ran (own requests, a finding, a passive read), inconclusive (answers it
 * needed never came: skipped with the reason, unless it found something there) or skipped with a reason.
 */
export async function recordTaskCoverage(run: ScanRun, task: CoverageTask, sentOn: ReadonlyMap<string, number>, lost?: LostAnswers): Promise<void> {
  for (const e of task.endpoints) {
    if ((sentOn.get(e.id) ?? 0) > 0) {
      const open = lost?.verdict(e);
      if (open) {
        // A finding on the operation already made it "ran": then this is a no-op.
        if (run.coverage.skipped(task.check.id, e, open.reason, open.detail)) run.inconclusive(task.check, open.counts);
      } else run.coverage.ran(task.check.id, e);
      continue;
    }
    if (task.check.kind === 'passive') {
      const ex = await run.baselines.recorded(e, 'key1');
      if (ex?.response) {
        run.coverage.ran(task.check.id, e);
        continue;
      }
    }
    const { reason, detail } = await reasonFor(run, e);
    run.coverage.skipped(task.check.id, e, reason, detail);
  }
}

/** Tasks that never ran: the scan stopped before them (its request budget, its time limit, a cancel). */
export function recordUnrunTasks(run: ScanRun, tasks: readonly CoverageTask[], why: string): void {
  for (const t of tasks) for (const e of t.endpoints) run.coverage.skipped(t.check.id, e, 'budget', why);
}
