// The operations of an API that a scan never sends without consent (probe-safety.ts), listed before a
// scan so the user can allow them on a disposable instance: Configure Scan's list and the CLI's notice.

import type { Endpoint } from '../../shared/contract';
import type { DestructiveOperation } from '../../shared/write-policy';
import { FILE_PROBES_HELD_BACK, operationLabel, wipeOperation, writesFiles } from './probe-safety';

/** Every operation that may wipe data or whose writes name files, wipes first, each once; SKIP ones are never sent and not listed. */
export function destructiveOperations(endpoints: readonly Endpoint[]): DestructiveOperation[] {
  const wipes: DestructiveOperation[] = [];
  const files: DestructiveOperation[] = [];
  const seen = new Set<string>();
  for (const e of endpoints) {
    if (e.flags.includes('SKIP')) continue;
    const operation = operationLabel(e);
    if (seen.has(operation)) continue;
    const wipe = wipeOperation(e);
    if (wipe) wipes.push({ operation, kind: 'wipe', reason: wipe });
    else if (writesFiles(e)) files.push({ operation, kind: 'files', reason: `its writes name a file on the server: ${FILE_PROBES_HELD_BACK}` });
    else continue;
    seen.add(operation);
  }
  return [...wipes, ...files];
}
