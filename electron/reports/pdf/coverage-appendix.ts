// The technical PDF's coverage appendix (issue 26): the header line, the commonest reasons with their
// fix, a table of the operations the scan did not reach or could not fully exercise, and the names of
// the operations it reached and exercised with every check that applies (docs/report-formats.md says
// why those are not rows).

import { plural, shorten } from '../format';
import type { ReportInput } from '../model';
import {
  COVERAGE_APPENDIX_TITLE,
  coverageAppendix,
  DETAIL_CHARS,
  MAX_IDENTITY_COLUMNS,
  PDF_CHECKS_PER_REASON,
  STATUS_TONE_COLORS,
  type CoverageRow,
  type SkipGroup,
} from '../operations-coverage';
import { CONTENT_WIDTH, STYLES, THEME, type Cell, type Column, type Flow } from './layout';
import type { FontName } from './typeset';

/** Room for the identity columns together; past it, one "Answers by identity" column too. */
const IDENTITY_ROOM = 230;
const TABLE_SIZE = 7;
/** A table cell's padding on each side (Flow.table). */
const CELL_PAD = 4;

/**
 * The operation's label in lines that break after a path segment ("POST /auth/password-reset" then
 * "/confirm"), never inside one, unless a segment alone is wider than the column.
 */
function labelLines(flow: Flow, label: string, font: FontName, width: number): string {
  const fits = (t: string) => flow.ts.width(t, font, TABLE_SIZE) <= width;
  if (fits(label)) return label;
  const lines: string[] = [];
  let line = '';
  for (const piece of label.split(/(?=\/)/)) {
    if (line && !fits(line + piece)) {
      lines.push(line.trimEnd());
      line = piece;
    } else line += piece;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** An identity column as wide as its name and its widest status, within bounds. */
function identityWidth(flow: Flow, name: string, rows: CoverageRow[], i: number): number {
  let w = flow.ts.width(name, 'bold', TABLE_SIZE);
  for (const r of rows) for (const p of r.identities[i]!.parts) w = Math.max(w, flow.ts.width(p, 'sans', TABLE_SIZE));
  return Math.min(84, Math.max(40, Math.ceil(w) + CELL_PAD * 2 + 1));
}

function skipCell(groups: SkipGroup[]): Cell {
  if (!groups.length) return { text: '—', color: THEME.muted };
  const parts: NonNullable<Cell['parts']> = [];
  for (const g of groups) {
    const more = g.checks.length > PDF_CHECKS_PER_REASON ? ` and ${g.checks.length - PDF_CHECKS_PER_REASON} more` : '';
    parts.push({ text: `${g.label}: ${plural(g.checks.length, 'check')}`, font: 'bold' });
    parts.push({ text: `${g.checks.slice(0, PDF_CHECKS_PER_REASON).join(', ')}${more}` });
    for (const d of g.details.slice(0, 2)) parts.push({ text: shorten(d, DETAIL_CHARS), color: THEME.muted });
  }
  return { text: '', parts };
}

function statusCell(s: CoverageRow['identities'][number]): Cell {
  return { text: s.parts.length ? s.parts.join('\n') : '—', color: STATUS_TONE_COLORS[s.tone] };
}

/** One "Answers" cell for many identities: "alice: 2xx 14, 4xx 3" per identity that sent the operation anything. */
function answersCell(columns: string[], row: CoverageRow): Cell {
  const parts = columns.flatMap((name, i) => {
    const s = row.identities[i]!;
    return s.parts.length ? [{ text: `${name}: ${s.parts.join(', ')}`, color: STATUS_TONE_COLORS[s.tone] }] : [];
  });
  return parts.length ? { text: '', parts } : { text: '—', color: STATUS_TONE_COLORS.none };
}

export function coverageAppendixPdf(flow: Flow, input: ReportInput): void {
  const cov = input.operations_coverage;
  if (!cov) return;
  const a = coverageAppendix(cov);
  flow.heading(`Appendix. ${COVERAGE_APPENDIX_TITLE}`, STYLES.h1, { toc: 0, rule: true });
  flow.paragraph(a.sentence, STYLES.strong);
  flow.paragraph(
    'For each operation of the API: how the requests each identity sent it ended, which checks tested it and which found something, and why a check could not exercise it. ' +
      '“registered users” are the users the scan registered for itself; “anonymous” requests carry no credentials.',
    STYLES.small,
  );
  if (a.reasons.length) {
    flow.heading(`The commonest ${a.reasons.length === 1 ? 'reason' : 'reasons'}, and what to do`, STYLES.h3, { keepWith: 40 });
    for (const r of a.reasons) flow.rich(`**${r.label}**, ${r.count === 1 ? 'once' : `${r.count} times`}: ${r.fix}.`, STYLES.body, { gapAfter: 3 });
    flow.space(4);
  }

  if (a.attention.length) {
    flow.heading(`Operations not reached or not fully exercised (${a.attention.length})`, STYLES.h3, { keepWith: 80 });
    flow.paragraph(
      `A status such as “2xx 14” counts the requests an identity sent the operation and how they ended; “—” means it sent none; an operation in bold answered no identity with a 2xx. Ran / found: the checks that tested the operation, and those that found something. ` +
        `Up to ${PDF_CHECKS_PER_REASON} checks are named per reason, with the API’s answer where there was one; the JSON export (operations_coverage) lists every one.`,
      STYLES.small,
    );
    const opW = 118;
    const ranHeader = 'Ran / found';
    const ranW = Math.ceil(flow.ts.width(ranHeader, 'bold', TABLE_SIZE)) + CELL_PAD * 2 + 2;
    const widths = a.columns.map((name, i) => identityWidth(flow, name, a.attention, i));
    // Many identities would leave each column too narrow for its name: one column lists those that sent anything.
    const split = a.columns.length <= MAX_IDENTITY_COLUMNS && widths.reduce((n, w) => n + w, 0) <= IDENTITY_ROOM;
    const idCols: Column[] = split ? a.columns.map((name, i) => ({ header: name, width: widths[i]! })) : [{ header: 'Answers by identity', width: 118 }];
    const used = opW + ranW + idCols.reduce((n, c) => n + c.width, 0);
    const columns: Column[] = [{ header: 'Operation', width: opW, font: 'mono' }, ...idCols, { header: ranHeader, width: ranW, align: 'right' }, { header: 'Not exercised, and why', width: CONTENT_WIDTH - used }];
    flow.table(
      columns,
      a.attention.map((row) => [
        { text: labelLines(flow, row.label, row.reached ? 'mono' : 'monoBold', opW - CELL_PAD * 2), font: row.reached ? 'mono' : 'monoBold' },
        ...(split ? row.identities.map(statusCell) : [answersCell(a.columns, row)]),
        `${row.ran} / ${row.found}`,
        skipCell(row.skips),
      ]),
      { size: TABLE_SIZE },
    );
  }

  if (a.exercised.length) {
    flow.heading(`Reached and exercised by every check that applies (${a.exercised.length})`, STYLES.h3, { keepWith: 40 });
    flow.paragraph('Each with the checks that ran and found something, as “(ran/found)”.', STYLES.small, { gapAfter: 2 });
    // No-break spaces keep each operation and its counts on one line; the list wraps between operations.
    flow.paragraph(a.exercised.map((r) => `${r.label} (${r.ran}/${r.found})`.replace(/ /g, '\u00a0')).join('\u00a0· '), { font: 'mono', size: TABLE_SIZE, color: THEME.ink, leading: 1.5 });
  }
}
