// What the detection benchmark keeps of a target's runs (bench/results/detect/<target>.json), so that
// docs/detection.md can be written again from every target after a run of only some of them.

import fs from 'node:fs';
import path from 'node:path';
import type { SkippedCheck } from '../../shared/contract';
import type { ScanCoverage } from '../../shared/coverage';
import type { IdentityReport } from '../../shared/identities';
import { ROOT } from '../../test/helpers/bundle';
import type { DetectMode, ReportedFinding, ScoreSummary } from '../../test/helpers/detect';
import { missReasons, type ImportedOperation, type TruthEntry } from './why';
import type { TargetId } from './targets';

export const RESULTS_DIR = path.join(ROOT, 'bench/results/detect');
export const TRUTH_DIR = path.resolve(ROOT, '../shared/detect/truth');

/** One scored run of a target in one mode, whatever way it was scanned. */
export interface ScoredRun {
  summary: ScoreSummary;
  findings: ReportedFinding[];
  requests: number;
  /** The scans' time together, without the target's start. */
  ms: number;
  startSeconds: number | null;
  notes: string[];
  skipped: SkippedCheck[];
  /** The scans' coverage ledgers, each with the base path its operations sit under. */
  coverage?: { basePath: string; coverage: ScanCoverage }[];
  identities: IdentityReport[];
  warnings: string[];
  /** A scan that did not complete, or a target that did not start. */
  failures: string[];
}

export interface FlawRow {
  id: string;
  name: string;
  where: string[];
  runsFound: number;
  /** The findings the scorer credited, as "name (`check`)". */
  foundBy: string[];
  /** From the scan's own report, in the runs that missed it. */
  why: string[];
}

export interface ModeResult {
  mode: DetectMode;
  runs: number;
  foundPerRun: number[];
  /** The floor: the fewest flaws found in any run. */
  found: number;
  total: number;
  /** The most false alarms (low or above) in any run. */
  falseAlarms: number;
  falseAlarmList: { text: string; runs: number }[];
  extras: string[];
  requests: number;
  scanSeconds: number;
  maxScanSeconds: number;
  startSeconds: number | null;
  rows: FlawRow[];
  identities: string[];
  notes: string[];
  skipped: string[];
  warnings: string[];
  failures: string[];
}

export interface ScanHow {
  label: string;
  command: string;
  config: string;
  configText: string;
  flagsWhy?: string;
}

export interface TargetResult {
  target: TargetId;
  name: string;
  title: string;
  at: string;
  isolated: boolean;
  setup: string | null;
  how: ScanHow[];
  modes: ModeResult[];
  /** bench/detect/<target>/notes.json: hand notes on flaws, shown beside the scan's own reasons. */
  handNotes: Record<string, string>;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function readTruth(target: string): { title: string; entries: TruthEntry[] } {
  return JSON.parse(fs.readFileSync(path.join(TRUTH_DIR, `${target}.json`), 'utf8')) as { title: string; entries: TruthEntry[] };
}

export function findingLabel(f: ReportedFinding): string {
  const op = f.graphql?.operation ? `, ${f.graphql.operation}` : '';
  return `${f.vulnerability_name} (\`${f.check_id}\`${op})`;
}

function identityLine(i: IdentityReport): string {
  const who = i.verified_as ? `verified as ${i.verified_as}` : 'not verified';
  return `${i.name} (${i.role}${i.created ? ', created by the scan' : ''}): ${i.obtained}; ${who}; ${i.failures} failed login${i.failures === 1 ? '' : 's'}`;
}

const union = (lists: string[][]) => [...new Set(lists.flat())];

/** A mode's runs, folded into what the doc and detect.json show. */
export function aggregate(mode: DetectMode, runs: ScoredRun[], truth: TruthEntry[], imported: ImportedOperation[]): ModeResult {
  const first = runs[0]!;
  const rows: FlawRow[] = [];
  for (const row of first.summary.rows) {
    if (row.role !== 'required') continue;
    const labels = new Set<string>();
    const why: string[][] = [];
    let runsFound = 0;
    for (const r of runs) {
      const mine = r.summary.rows.find((x) => x.id === row.id);
      if (mine && mine.findings.length) {
        runsFound += 1;
        for (const i of mine.findings) if (r.findings[i]) labels.add(findingLabel(r.findings[i]));
      } else {
        const entry = truth.find((e) => e.id === row.id);
        if (entry) why.push(missReasons(entry, { imported, notes: r.notes, skipped: r.skipped, coverage: r.coverage ?? [] }));
      }
    }
    rows.push({ id: row.id, name: row.name, where: row.where, runsFound, foundBy: [...labels], why: union(why) });
  }
  const falseAlarms = new Map<string, number>();
  for (const r of runs) {
    for (const fa of r.summary.falseAlarms) {
      const f = r.findings[fa.index];
      const key = `${fa.severity}: ${fa.where} "${fa.name}"${f ? ` (\`${f.check_id}\`${f.graphql?.operation ? `, ${f.graphql.operation}` : ''})` : ''}: ${fa.why}`;
      falseAlarms.set(key, (falseAlarms.get(key) ?? 0) + 1);
    }
  }
  const extras = new Set<string>();
  for (const r of runs) for (const np of r.summary.notPenalised) extras.add(`${np.entry} (${r.findings[np.index]?.vulnerability_name ?? np.where})`);
  const starts = runs.map((r) => r.startSeconds).filter((s): s is number => s !== null);
  return {
    mode,
    runs: runs.length,
    foundPerRun: runs.map((r) => r.summary.found),
    found: Math.min(...runs.map((r) => r.summary.found)),
    total: first.summary.total,
    falseAlarms: Math.max(...runs.map((r) => r.summary.false)),
    falseAlarmList: [...falseAlarms].map(([text, n]) => ({ text, runs: n })),
    extras: [...extras].sort(),
    requests: median(runs.map((r) => r.requests)),
    scanSeconds: Number((median(runs.map((r) => r.ms)) / 1000).toFixed(1)),
    maxScanSeconds: Number((Math.max(...runs.map((r) => r.ms)) / 1000).toFixed(1)),
    startSeconds: starts.length ? median(starts) : null,
    rows,
    identities: union(runs.map((r) => r.identities.map(identityLine))),
    notes: union(runs.map((r) => r.notes)),
    skipped: union(runs.map((r) => r.skipped.map((s) => `${s.title}: ${s.reason}`))),
    warnings: union(runs.map((r) => r.warnings)),
    failures: union(runs.map((r) => r.failures)),
  };
}

export function readHandNotes(benchDir: string): Record<string, string> {
  const file = path.join(benchDir, 'notes.json');
  if (!fs.existsSync(file)) return {};
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${file} must hold an object: flaw id -> note.`);
  const notes: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k.startsWith('$')) continue;
    if (typeof v !== 'string') throw new Error(`${file}: the note for ${k} must be text.`);
    notes[k] = v;
  }
  return notes;
}

export function writeTargetResult(r: TargetResult): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${r.target}.json`), `${JSON.stringify(r, null, 2)}\n`);
}

export function readTargetResults(): TargetResult[] {
  if (!fs.existsSync(RESULTS_DIR)) return [];
  return fs
    .readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, f), 'utf8')) as TargetResult);
}
