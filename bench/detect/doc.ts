// docs/detection.md from the detection benchmark's kept results (bench/results/detect/<target>.json):
// a summary over every target, then per target how it was scanned, a row per documented flaw (found
// by which findings, or missed and what the scan itself said about it), the false alarms, requests
// and time.

import { TARGET_IDS } from './targets';
import type { ModeResult, TargetResult } from './result';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const secs = (s: number) => `${s.toFixed(1)} s`;

function statusOf(row: ModeResult['rows'][number], runs: number): string {
  if (row.runsFound === 0) return 'missed';
  return row.runsFound === runs ? 'found' : `found in ${row.runsFound} of ${runs} runs`;
}

function whyCell(row: ModeResult['rows'][number], hand: string | undefined): string {
  if (row.runsFound > 0 && !row.why.length) return '';
  const parts = [...row.why];
  if (hand) parts.push(`Hand note: ${hand}`);
  if (row.runsFound === 0 && !parts.length) return 'not found';
  return parts.join(' — ');
}

function flawTable(m: ModeResult, hand: Record<string, string>): string[] {
  const lines = ['| flaw | where | status | found by (check) | why missed |', '|---|---|---|---|---|'];
  for (const row of m.rows) {
    const by = row.foundBy.slice(0, 3).join('; ') + (row.foundBy.length > 3 ? `; and ${row.foundBy.length - 3} more` : '');
    lines.push(`| ${row.id} ${cell(row.name)} | ${cell(row.where.join(', '))} | ${statusOf(row, m.runs)} | ${cell(by)} | ${cell(whyCell(row, hand[row.id]))} |`);
  }
  return lines;
}

function details(summary: string, items: string[]): string[] {
  if (!items.length) return [];
  return ['<details>', `<summary>${summary}</summary>`, '', ...items.map((i) => `- ${i}`), '', '</details>', ''];
}

function modeSection(t: TargetResult, m: ModeResult, heading: string): string[] {
  const found = m.foundPerRun.join(', ');
  const start = m.startSeconds !== null ? `; the target's start took ${secs(m.startSeconds)}` : '';
  return [
    `### ${heading}: found ${m.found} of ${m.total}, ${plural(m.falseAlarms, 'false alarm')} at low or above`,
    '',
    `${plural(m.runs, 'run')}: found ${found}; ${m.requests} requests (median), ${secs(m.scanSeconds)} of scanning (median, slowest ${secs(m.maxScanSeconds)})${start}.`,
    '',
    ...(m.mode === 'secure' ? ['Rows are the flaws the secure mode keeps; the others are fixed there, and a finding on them would be a false alarm.', ''] : []),
    ...(m.failures.length ? ['**The scan did not complete:**', '', ...m.failures.map((f) => `- ${cell(f)}`), ''] : []),
    ...flawTable(m, t.handNotes),
    '',
    '**False alarms** (findings at low or above that match no documented flaw, with the scorer\'s reason):',
    '',
    ...(m.falseAlarmList.length
      ? m.falseAlarmList.map((fa) => {
          const note = falseAlarmNote(fa.text, t.handNotes);
          return `- ${cell(fa.text)}${m.runs > 1 ? ` (in ${fa.runs} of ${m.runs} runs)` : ''}${note ? ` — Hand note: ${cell(note)}` : ''}`;
        })
      : ['None.']),
    '',
    `Real weaknesses reported besides the documented flaws (not counted, not penalised): ${m.extras.length ? m.extras.join(', ') : 'none'}.`,
    '',
    ...(m.identities.length ? ['Identities, as the scan reports them:', '', ...m.identities.map((i) => `- ${cell(i)}`), ''] : []),
    ...details(`The scan's notes (${m.notes.length})`, m.notes.map(cell)),
    ...details(`Import warnings (${m.warnings.length})`, m.warnings.map(cell)),
    ...details(`Skipped checks (${m.skipped.length})`, m.skipped.map(cell)),
  ];
}

/**
 * The hand note on a false alarm: notes.json keys "false-alarm <METHOD> <path> <check id>" match the scorer's
 * line for that finding ("medium: GET /x \"Name\" (`check-id`): ...").
 */
export function falseAlarmNote(text: string, notes: Record<string, string>): string | null {
  for (const [key, note] of Object.entries(notes)) {
    const m = /^false-alarm (\S+) (\S+) (\S+)$/.exec(key);
    if (m && text.includes(`${m[1]} ${m[2]} "`) && text.includes(`(\`${m[3]}\`)`)) return note;
  }
  return null;
}

function howSection(t: TargetResult): string[] {
  const out: string[] = [];
  if (t.setup) out.push(`Accounts: \`${t.setup}\` makes them after the start, as the target's own documentation describes.`, '');
  for (const h of t.how) {
    out.push(`${h.label}:`, '', '```sh', h.command, '```', '');
    if (h.flagsWhy) out.push(h.flagsWhy, '');
    out.push(`\`${h.config}\`:`, '', '```yaml', h.configText.trimEnd(), '```', '');
  }
  return out;
}

function targetSection(t: TargetResult): string[] {
  const where = t.isolated ? ' Target and scanner ran in a network namespace with loopback only (`unshare -n`).' : '';
  const out = [`## ${t.title}, ${t.at.slice(0, 10)}`, '', `How it was scanned.${where}`, '', ...howSection(t)];
  const vulnerable = t.modes.find((m) => m.mode === 'vulnerable');
  const secure = t.modes.find((m) => m.mode === 'secure');
  if (vulnerable) out.push(...modeSection(t, vulnerable, secure ? 'Vulnerable mode' : 'Result'));
  if (secure) out.push(...modeSection(t, secure, 'Secure mode (most flaws fixed)'));
  return out;
}

function summaryTable(results: TargetResult[]): string[] {
  const lines = ['| target | documented flaws found | false alarms (low or above) | requests | scan time | runs |', '|---|---|---|---|---|---|'];
  let found = 0;
  let total = 0;
  let fas = 0;
  let requests = 0;
  let seconds = 0;
  for (const t of results) {
    const m = t.modes.find((x) => x.mode === 'vulnerable');
    if (!m) continue;
    found += m.found;
    total += m.total;
    fas += m.falseAlarms;
    requests += m.requests;
    seconds += m.scanSeconds;
    lines.push(`| [${t.name}](#${anchor(t)}) | ${m.found} of ${m.total} | ${m.falseAlarms} | ${m.requests} | ${secs(m.scanSeconds)} | ${m.runs} |`);
  }
  lines.push(`| **Total** | **${found} of ${total}** | **${fas}** | ${requests} | ${secs(seconds)} | |`);
  const vampiSecure = results.find((t) => t.target === 'vampi')?.modes.find((m) => m.mode === 'secure');
  if (vampiSecure) {
    lines.push(
      '',
      `VAmPI's secure mode (not in the total): found ${vampiSecure.found} of the ${vampiSecure.total} flaws it keeps, ${plural(vampiSecure.falseAlarms, 'false alarm')}, ` +
        `${vampiSecure.requests} requests, ${secs(vampiSecure.scanSeconds)}.`,
    );
  }
  return lines;
}

/** GitHub's heading anchor. */
function anchor(t: TargetResult): string {
  return `${t.title}, ${t.at.slice(0, 10)}`
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

export function detectionDoc(results: TargetResult[]): string {
  const ordered = TARGET_IDS.map((id) => results.find((r) => r.target === id)).filter((r): r is TargetResult => !!r);
  return [
    '# Detection on real APIs',
    '',
    '<!-- Written by `npm run bench -- detect` (bench/detect). Do not edit by hand. -->',
    '',
    'Measured on five deliberately vulnerable APIs this project did not write (`../shared/targets`), each',
    'scanned through the CLI the way a security engineer would: its own description file, identities from',
    'its own documentation (`bench/detect/<target>/scan.yaml`), and scored with `../shared/detect/score.mjs`',
    'against its documented flaws. The scanner is also measured on other real APIs that are not in this',
    "repository: no rule is keyed to one target's paths, names or messages. vAPI, Tiredful-API, Juice Shop and",
    'DVGA run, with the scan, inside a network namespace with loopback only (`unshare -n`): three of them fetch',
    'URLs or run commands. The CI test `test/cli/detect-vampi.test.ts` scans VAmPI only and fails when a scan',
    'finds fewer flaws than the floor recorded here (`bench/results/detect.json`) or raises a false alarm.',
    '',
    'A row\'s "why missed" quotes what the scan itself reported about that flaw\'s route or technique (its',
    'notes, its skipped checks, a route missing from the imported description) and, marked as such, hand notes',
    'from `bench/detect/<target>/notes.json`; "not found" means the scan said nothing that explains the miss.',
    '',
    '## Summary',
    '',
    ...summaryTable(ordered),
    '',
    ...ordered.flatMap(targetSection),
  ].join('\n');
}
