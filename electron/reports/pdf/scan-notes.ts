// A scan's notes in the PDFs, as the scan page shows them: its problems in a warning box under
// "Problems (n)" with the page's lead sentence, its information as a plain list under "Information (n)".

import { noteHeading, PROBLEMS_LEAD } from '../../../shared/scan-notes';
import { STYLES, THEME, type Flow, type TextStyle } from './layout';

/** At most `cap` notes, then a line for the rest (the executive report lists 50). */
function bullets(flow: Flow, notes: readonly string[], cap: number, style: TextStyle, at: { x?: number; width?: number } = {}): void {
  for (const n of notes.slice(0, cap)) flow.paragraph(`• ${n}`, style, { ...at, gapAfter: 2 });
  if (notes.length > cap) flow.paragraph(`… and ${notes.length - cap} more (see the technical report).`, STYLES.small, at);
}

/** The scan's problems in a warning box; nothing when it had none. */
export function problemsPdf(flow: Flow, problems: readonly string[], cap = Infinity): void {
  if (!problems.length) return;
  flow.panel({ fill: THEME.warningBg, stroke: THEME.warningBorder }, (x, width) => {
    flow.paragraph(noteHeading('problem', problems.length), { ...STYLES.h3, color: THEME.warning }, { x, width, gapAfter: 2 });
    flow.paragraph(PROBLEMS_LEAD, { ...STYLES.small, color: THEME.ink }, { x, width, gapAfter: 4 });
    bullets(flow, problems, cap, { ...STYLES.small, color: THEME.ink }, { x, width });
  });
}

/** The scan's informational notes; nothing when it had none. */
export function infoNotesPdf(flow: Flow, info: readonly string[], cap = Infinity): void {
  if (!info.length) return;
  flow.heading(noteHeading('info', info.length), STYLES.h3, { keepWith: 30 });
  bullets(flow, info, cap, STYLES.small);
}
