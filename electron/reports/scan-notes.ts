// How reports name what the engine keeps in a scan's "errors" list. The engine writes every remark
// there through one `note()` call: real failures ("Check X failed: ..."), but also plain notes ("Key 1
// works with the "bearer" security scheme", "Credentials were renewed 2 times"). Nothing in the stored
// list tells them apart, and guessing from the wording would mislabel the next new message, so the
// reports call them all notes, in neutral words, and never "errors".

import { plural } from './format';

export const NOTES_HEADING = 'Notes from the scan';

/** The summary's sentence about the notes. */
export function notesLead(notes: string[]): string {
  return `The scan recorded ${plural(notes.length, 'note')} (see ${NOTES_HEADING.toLowerCase()} in About this scan): some say how the scan ran, others that a check could not finish, so read them before relying on a clean result.`;
}
