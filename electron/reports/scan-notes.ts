// How reports speak of a scan's notes. The scanner records which notes are problems (part of the scan
// did not run as asked) and which are information; the loader splits them with the scan page's own
// splitNotes (shared/scan-notes.ts), and every report shows "Problems (n)" first, with the scan page's
// lead sentence, and "Information (n)" after. Only problems are worth a sentence in the summary.

import { NOTE_HEADINGS } from '../../shared/scan-notes';
import { plural } from './format';

/** The summary's sentence about the scan's problems; null when it had none (information alone is no warning). */
export function problemsLead(problems: readonly string[]): string | null {
  if (!problems.length) return null;
  const one = problems.length === 1;
  return `The scan recorded ${plural(problems.length, 'problem')} (see ${NOTE_HEADINGS.problem} in About this scan): ${one ? 'part' : 'parts'} of the scan did not run as asked, so read ${one ? 'it' : 'them'} before relying on a clean result.`;
}
