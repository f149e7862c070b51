// The shape every format reader returns before endpoints are built, and the loop that builds them:
// each operation is read on its own, so one broken operation is skipped with a warning naming it
// while the rest imports (partial import).

import type { ApiSecurity } from '../../shared/contract';
import type { NewEndpoint } from '../store/apis';
import { defaultFlags } from './default-flags';
import { SkipOperation } from './errors';
import { IMPORT_LIMITS } from './limits';
import { newBudgets, type Budgets } from './resolve-refs';
import type { ExtractedEndpoint } from './result';
import type { Warnings } from './warnings';

export interface PendingOperation {
  /** "GET /pets", or a Postman item's name: what a warning calls it. */
  label: string;
  /** JSON pointer of the operation in the file. */
  where: string;
  read(budgets: Budgets): ExtractedEndpoint;
}

export interface SpecReading {
  name: string;
  baseUrl: string;
  security: ApiSecurity;
  operations: PendingOperation[];
}

export interface BuiltEndpoints {
  endpoints: NewEndpoint[];
  skipped: number;
}

/** Called with an error no reader meant to throw (a bug), before the operation is skipped anyway. */
export type UnexpectedErrorHook = (err: unknown, operation: string) => void;

export function buildEndpoints(reading: SpecReading, warnings: Warnings, onUnexpected?: UnexpectedErrorHook): BuiltEndpoints {
  const endpoints: NewEndpoint[] = [];
  let skipped = 0;
  let shortened = 0;
  for (const op of reading.operations) {
    if (endpoints.length >= IMPORT_LIMITS.maxEndpoints) {
      warnings.add(
        op.where,
        `Only the first ${IMPORT_LIMITS.maxEndpoints.toLocaleString('en-US')} operations were imported; ${reading.operations.length - IMPORT_LIMITS.maxEndpoints} more were left out.`,
      );
      break;
    }
    const budgets = newBudgets();
    try {
      const e = op.read(budgets);
      if (e.path.length > IMPORT_LIMITS.maxPathLength) throw new SkipOperation(`the path is longer than ${IMPORT_LIMITS.maxPathLength} characters`);
      if (budgets.request.truncations || budgets.responses.truncations) shortened += 1;
      endpoints.push({ ...e, flags: defaultFlags(e, reading.security) });
    } catch (err) {
      skipped += 1;
      let reason = 'it could not be read';
      if (err instanceof SkipOperation) reason = err.message;
      else if (err instanceof RangeError) reason = 'it nests too deeply';
      else onUnexpected?.(err, op.label);
      warnings.add(op.where, `Skipped ${op.label.slice(0, 300)}: ${reason.slice(0, 300)}.`);
    }
  }
  if (shortened)
    warnings.add(
      '',
      `The schemas of ${shortened} endpoint${shortened === 1 ? '' : 's'} were shortened to keep the import small; the cut parts are marked "x-truncated".`,
    );
  return { endpoints, skipped };
}
