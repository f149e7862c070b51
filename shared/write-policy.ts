// What a scan may write, as Configure Scan shows it (issue 28 item 3, issue 31 item 6): the write
// policy, the operations that look destructive (the server tells which, with probe-safety.ts's
// reasons) and what a scan of an API on this machine or a private network will call. The texts are
// here so the renderer, the server and the tests use the same words.

import type { WritesSetting } from './identities';

/** An operation a scan never sends without consent: it may wipe data, or its writes name files. */
export interface DestructiveOperation {
  /** "GET /createdb", "Mutation.deleteAllPastes": how `destructive:` names it. */
  operation: string;
  /** wipe: it may reset or wipe the API's data; files: its writes name a file on the server. */
  kind: 'wipe' | 'files';
  /** Why it looks destructive, as a clause ("its name says it wipes or re-creates the API's data"). */
  reason: string;
}

/** `POST /api/scan/write-policy`: what Configure Scan lists under "Writes". */
export interface WritePolicyData {
  /** The API's host is this machine or a private network. */
  local: boolean;
  operations: DestructiveOperation[];
}

export const WRITE_POLICY_TEXT = {
  legend: 'Writes',
  created: 'Only objects the scan creates',
  createdHint: 'Updates and deletes touch only objects the scan created itself. Safe on any instance.',
  existing: 'Existing objects too (a disposable test instance)',
  existingHint: 'Updates and deletes may touch objects that were there before the scan, and the operations you allow below are called. Use a copy you can throw away.',
  destructiveLegend: 'Operations that look destructive',
  destructiveHint: 'Skipped unless you allow them. An allowed one is called once, after every other check.',
  noneDestructive: 'No operation of this API looks destructive.',
  seed: 'Seed (optional)',
  seedHint: 'A whole number from 0 to 4294967295. The same seed sends the same probe values and makes the same choices; empty for a new one.',
  seedInvalid: 'The seed must be a whole number from 0 to 4294967295.',
  /** A scan of a local API with wipe routes, before it starts. */
  localWipeSkipped: (n: number) =>
    `This API runs on this machine or a private network, and ${n === 1 ? 'one of its routes resets' : `${n} of its routes reset`} or wipe${n === 1 ? 's' : ''} data. The scan does not call ${n === 1 ? 'it' : 'them'} unless you allow writes to existing objects and tick ${n === 1 ? 'it' : 'them'} below.`,
  localWipeCalled: (operations: readonly string[]) =>
    `This API runs on this machine or a private network, and the scan will call ${operations.join(', ')}, which ${operations.length === 1 ? 'resets or wipes' : 'reset or wipe'} data, after every other check. Start it only on data you can lose.`,
} as const;

export type { WritesSetting };
