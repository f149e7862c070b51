// After each task, the coverage ledger learns what the check did on each of its operations: found
// something, tested it (sent requests of its own, or read a baseline it had), or could not — and why,
// from what the scan itself saw: the safety rule's block, the object rule's, key 1's answer to the
// unchanged request (refused, invalid, failing, too slow), a budget spent. A task that never ran
// (the scan's budget or time ran out) is recorded at the end.

import type { Endpoint } from '../../shared/contract';
import type { CoverageReason } from '../../shared/coverage';
import type { Check } from './checks/types';
import { answerExcerpt } from './identities/answers';
import type { ScanRun } from './run-state';

export interface CoverageTask {
  check: Check;
  endpoints: readonly Endpoint[];
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

/** Records a finished task: per operation, ran (own requests, a finding, a passive read) or skipped with a reason. */
export async function recordTaskCoverage(run: ScanRun, task: CoverageTask, sentOn: ReadonlyMap<string, number>): Promise<void> {
  for (const e of task.endpoints) {
    if ((sentOn.get(e.id) ?? 0) > 0) {
      run.coverage.ran(task.check.id, e);
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
