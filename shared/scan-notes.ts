// A scan's notes in two kinds (issue 31 item 1): problems, where something went wrong and part of the
// scan did not happen as asked (a login or a check that failed, a budget that ran out, a request the
// scope guard refused, answers that never came, a result that could not be stored), and information
// (what the scan did or chose not to do by design: pace, renewals, routes found, checks that did not apply).
// The scanner records the kind of each note (`ScanInfo.problems`); scans from before that have only the
// texts, which are sorted here by the wording the scanner has used for problems.

export type NoteKind = 'problem' | 'info';

/** The headings of the two kinds, as the scan page and every report show them ("Problems (2)"). */
export const NOTE_HEADINGS: Record<NoteKind, string> = { problem: 'Problems', info: 'Information' };

/** What problems mean for the results: the line under the "Problems" heading everywhere. */
export const PROBLEMS_LEAD = 'Parts of the scan did not run as asked; its results may miss what they would have found.';

/** "Problems (2)", "Information (5)". */
export function noteHeading(kind: NoteKind, count: number): string {
  return `${NOTE_HEADINGS[kind]} (${count})`;
}

/**
 * Wordings of problems: something failed, ran out, was refused by the scope guard, went unanswered or
 * could not be done. "could not be told" is a finding about the target, not a failure of the scan.
 */
const PROBLEM_WORDING = [
  /\bfailed\b/i,
  /\bran out\b/i,
  /\bcould not (?!be told\b)/i,
  /\bdid not answer\b/i,
  /\bwithout a response\b/i,
  /\boutside the scan's scope\b/i,
  /\bstopped early\b/i,
];

/** The kind of a note known only by its text (a scan recorded before notes had kinds). */
export function noteKindOfText(text: string): NoteKind {
  return PROBLEM_WORDING.some((re) => re.test(text)) ? 'problem' : 'info';
}

/**
 * The notes of a scan as problems and information, each in the scan's order. `problems` is the
 * scanner's own list (texts among `notes`); without it (older scans) each note's wording decides.
 */
export function splitNotes(notes: readonly string[], problems?: readonly string[] | null): { problems: string[]; info: string[] } {
  const known = problems ? new Set(problems) : null;
  const out = { problems: [] as string[], info: [] as string[] };
  for (const n of notes) {
    const kind: NoteKind = known ? (known.has(n) ? 'problem' : 'info') : noteKindOfText(n);
    (kind === 'problem' ? out.problems : out.info).push(n);
  }
  return out;
}
