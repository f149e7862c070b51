// Detection on real APIs this project did not write (issues 16 and 28): VAmPI in its vulnerable and
// secure modes, vAPI, Tiredful-API, OWASP Juice Shop and DVGA, each started from its own script in
// ../shared/targets, scanned through the CLI with its own description file and the identities its own
// documentation gives (bench/detect/<target>/), and scored against its documented flaws with
// ../shared/detect/score.mjs. vAPI, Tiredful-API, Juice Shop and DVGA run, with the scanner, inside a
// network namespace with loopback only. Writes bench/results/detect.json (the VAmPI CI floor test reads
// its figures), bench/results/detect/<target>.json and docs/detection.md.
// Budget: a full scan of VAmPI stays under 60 s at 100 requests/s.
// Run: npm run bench -- detect [--target vampi,vapi,tiredful,juice-shop,dvga] [--runs N] [--doc-only]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SkippedCheck } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import { importApiDocument } from '../../electron/importer/index';
import { DETECT_RESULT, detectVampi, SCORER, scoreFindings, VAMPI_SCAN_CONFIG, type DetectRun, type ReportedFinding } from '../../test/helpers/detect';
import { VAMPI_SPEC, vampiAvailable } from '../../test/helpers/vampi';
import { writeResult } from '../lib/results';
import { detectionDoc } from './doc';
import { mergeFindings } from './findings';
import { aggregate, readHandNotes, readTargetResults, readTruth, writeTargetResult, type ModeResult, type ScoredRun, type TargetResult } from './result';
import { prepareTarget, runTarget, runTargetIsolated, type FindingsReport, type TargetOutcome } from './run-target';
import { BENCH_DIR, externalTarget, TARGET_IDS, TARGETS_DIR, type DetectTarget, type TargetId } from './targets';
import type { ImportedOperation } from './why';

const SCAN_BUDGET_S = 60;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    target: { type: 'string' },
    inside: { type: 'string' },
    'doc-only': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
  strict: true,
});

// Inside the network namespace: run one target and leave its outcome in --out for the parent.
if (values.inside) {
  const t = externalTarget(values.inside as TargetId);
  if (!t || !values.out) {
    console.error('--inside takes a target id and --out a directory.');
    process.exit(2);
  }
  const outcome = await runTarget(t, values.out);
  process.exit(outcome.error ? 1 : 0);
}

const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error('--runs takes a whole number of runs (at least 1).');
  process.exit(2);
}
const selected = (values.target ?? TARGET_IDS.join(',')).split(',').map((s) => s.trim()) as TargetId[];
const unknown = selected.filter((s) => !TARGET_IDS.includes(s));
if (unknown.length) {
  console.error(`Unknown target ${unknown.join(', ')}: choose from ${TARGET_IDS.join(', ')}.`);
  process.exit(2);
}
if (!values['doc-only'] && !fs.existsSync(SCORER)) {
  console.error('The scorer (../shared/detect/score.mjs) is not here: nothing to measure.');
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-detect-'));
const problems: string[] = [];

/** The operations a description file gives, at their paths on the target's origin. */
function importedOperations(spec: string, basePath: string): ImportedOperation[] {
  const doc = importApiDocument(new Uint8Array(fs.readFileSync(spec)), { filename: path.basename(spec) });
  return doc.endpoints.map((e) => ({ method: e.method, path: `${basePath}${e.path}`, ...(e.graphql ? { operation: graphqlOperationName(e.graphql) } : {}) }));
}

const rel = (p: string) => path.relative(process.cwd(), p);

function scanCommand(t: DetectTarget, plan: DetectTarget['scans'][number]): string {
  return [
    'node bin/portcullis.js scan',
    `--spec ${rel(path.join(TARGETS_DIR, t.dir, plan.spec))}`,
    `--base-url http://127.0.0.1:<port>${plan.basePath}`,
    `--config bench/detect/${t.id}/${plan.config}`,
    ...plan.flags.reduce<string[]>((acc, f, i, all) => (f.startsWith('--') ? [...acc, `${f}${all[i + 1] && !all[i + 1]!.startsWith('--') ? ` ${all[i + 1]}` : ''}`] : acc), []),
  ].join(' \\\n  ');
}

// VAmPI: both modes through the same helper as its CI floor test.
function vampiScored(r: DetectRun): ScoredRun {
  return {
    summary: r.summary,
    findings: r.findings,
    requests: r.requests,
    ms: r.ms,
    startSeconds: null,
    notes: r.notes,
    skipped: r.skipped,
    coverage: r.coverage ? [{ basePath: '', coverage: r.coverage }] : [],
    identities: r.identities,
    warnings: [],
    failures: r.status === 'completed' ? [] : [`The scan ended ${r.status}: ${r.failureReason ?? 'no reason given'}`],
  };
}

async function benchVampi(): Promise<TargetResult | null> {
  if (!vampiAvailable()) {
    problems.push('VAmPI (../shared/targets/vampi) is not here.');
    return null;
  }
  const truth = readTruth('vampi');
  const imported = importedOperations(VAMPI_SPEC, '');
  const modes: ModeResult[] = [];
  for (const mode of ['vulnerable', 'secure'] as const) {
    const runs: ScoredRun[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const r = await detectVampi(mode);
      if (r.status !== 'completed') problems.push(`VAmPI's ${mode} scan did not complete: ${r.failureReason ?? r.status}`);
      if (r.ms > SCAN_BUDGET_S * 1000) problems.push(`Over budget: a VAmPI ${mode} scan took ${(r.ms / 1000).toFixed(1)} s (budget ${SCAN_BUDGET_S} s).`);
      runs.push(vampiScored(r));
      console.log(`vampi ${mode} run ${i + 1}: found ${r.summary.found}/${r.summary.total}, ${r.summary.false} false alarms, ${r.requests} requests, ${(r.ms / 1000).toFixed(1)} s`);
    }
    modes.push(aggregate(mode, runs, truth.entries, imported));
  }
  return {
    target: 'vampi',
    name: 'VAmPI',
    title: truth.title,
    at: new Date().toISOString(),
    isolated: false,
    setup: null,
    how: [
      {
        label:
          "The spec VAmPI ships; `start.sh <port>` (and `VAMPI_VULNERABLE=0` for the secure mode; 60-second tokens, as upstream), then two login identities and the scan's own users (the configuration is `VAMPI_SCAN_CONFIG` in test/helpers/detect.ts, which the CI test scans with too)",
        command: `node bin/portcullis.js scan \\\n  --spec ${rel(VAMPI_SPEC)} \\\n  --base-url http://127.0.0.1:<port> \\\n  --config scan.yaml \\\n  --rps 100`,
        config: 'scan.yaml',
        configText: VAMPI_SCAN_CONFIG,
      },
    ],
    modes,
    handNotes: readHandNotes(path.join(BENCH_DIR, 'vampi')),
  };
}

/** A check skipped by one part of a target's scan but run by another was not skipped for the target. */
function skippedEverywhere(parts: SkippedCheck[][]): SkippedCheck[] {
  const [first, ...rest] = parts;
  return (first ?? []).filter((s) => rest.every((p) => p.some((x) => x.check_id === s.check_id)));
}

/** One run of an external target: its scans' findings merged, scored. */
async function scoredRun(t: DetectTarget, outcome: TargetOutcome, dir: string): Promise<ScoredRun> {
  const reports = outcome.scans.map((s) => ({ s, report: s.findingsFile ? (JSON.parse(fs.readFileSync(s.findingsFile, 'utf8')) as FindingsReport) : null }));
  const merged = mergeFindings(reports.map(({ s, report }) => ({ basePath: s.basePath, findings: report?.findings ?? [] })));
  const file = path.join(dir, 'findings.json');
  fs.writeFileSync(file, `${JSON.stringify({ findings: merged }, null, 2)}\n`);
  const summary = await scoreFindings(t.id, file);
  const failures = [
    ...(outcome.error ? [outcome.error] : []),
    ...reports.flatMap(({ s, report }) =>
      report && report.scan.status === 'completed' ? [] : [`${s.label}: the scan ended ${report?.scan.status ?? 'without a report'}: ${report?.scan.failure_reason ?? s.failure ?? 'no reason given'}`],
    ),
  ];
  return {
    summary,
    findings: merged as ReportedFinding[],
    requests: reports.reduce((n, { report }) => n + (report?.scan.requests_sent ?? 0), 0),
    ms: outcome.scans.reduce((n, s) => n + s.ms, 0),
    startSeconds: outcome.startSeconds,
    notes: reports.flatMap(({ s, report }) => (report?.scan.errors ?? []).map((n) => (outcome.scans.length > 1 ? `${s.label}: ${n}` : n))),
    skipped: skippedEverywhere(reports.map(({ report }) => report?.scan.skipped_checks ?? [])),
    coverage: reports.flatMap(({ s, report }) => (report?.coverage ? [{ basePath: s.basePath, coverage: report.coverage }] : [])),
    identities: reports.flatMap(({ report }) => report?.scan.identities ?? []),
    warnings: outcome.scans.flatMap((s) => s.warnings.map((w) => (outcome.scans.length > 1 ? `${s.label}: ${w}` : w))),
    failures,
  };
}

async function benchExternal(t: DetectTarget): Promise<TargetResult | null> {
  const truth = readTruth(t.id);
  try {
    await prepareTarget(t);
  } catch (err) {
    problems.push((err as Error).message);
    return null;
  }
  const runs: ScoredRun[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const dir = path.join(work, `${t.id}-${i + 1}`);
    const outcome = t.isolate ? await runTargetIsolated(t, dir) : await runTarget(t, dir);
    if (outcome.error) problems.push(`${t.name}: ${outcome.error}`);
    if (!outcome.scans.length) continue;
    const r = await scoredRun(t, outcome, dir);
    runs.push(r);
    console.log(`${t.id} run ${i + 1}: found ${r.summary.found}/${r.summary.total}, ${r.summary.false} false alarms, ${r.requests} requests, ${(r.ms / 1000).toFixed(1)} s`);
  }
  if (!runs.length) return null;
  const imported = t.scans.flatMap((p) => importedOperations(path.join(TARGETS_DIR, t.dir, p.spec), p.basePath));
  return {
    target: t.id,
    name: t.name,
    title: truth.title,
    at: new Date().toISOString(),
    isolated: t.isolate,
    setup: t.setup ? `bench/detect/${t.id}/setup.sh` : null,
    how: t.scans.map((p) => ({
      label: p.label,
      command: scanCommand(t, p),
      config: `bench/detect/${t.id}/${p.config}`,
      configText: fs.readFileSync(path.join(BENCH_DIR, t.id, p.config), 'utf8'),
      ...(p.flagsWhy ? { flagsWhy: p.flagsWhy } : {}),
    })),
    modes: [aggregate('vulnerable', runs, truth.entries, imported)],
    handNotes: readHandNotes(path.join(BENCH_DIR, t.id)),
  };
}

// --doc-only writes docs/detection.md and detect.json again from the kept results, with the hand notes as they are now.
if (values['doc-only']) {
  for (const r of readTargetResults()) writeTargetResult({ ...r, handNotes: readHandNotes(path.join(BENCH_DIR, r.target)) });
} else {
  for (const id of selected) {
    const result = id === 'vampi' ? await benchVampi() : await benchExternal(externalTarget(id)!);
    if (result) writeTargetResult(result);
  }
}

// detect.json: VAmPI's figures where the CI floor test reads them, every target's beside them.
const results = readTargetResults();
const figuresOf = (m: ModeResult) => ({
  runs: m.runs,
  found: m.found,
  total: m.total,
  foundPerRun: m.foundPerRun,
  falseAlarms: m.falseAlarms,
  requests: m.requests,
  scanSeconds: m.scanSeconds,
  maxScanSeconds: m.maxScanSeconds,
});
const vampi = results.find((r) => r.target === 'vampi');
const vulnerableOf = (r: TargetResult) => r.modes.find((m) => m.mode === 'vulnerable')!;
const perTarget = Object.fromEntries(
  TARGET_IDS.flatMap((id) => {
    const r = results.find((x) => x.target === id);
    return r ? [[id, { at: r.at, isolated: r.isolated, startSeconds: vulnerableOf(r).startSeconds, ...figuresOf(vulnerableOf(r)) }]] : [];
  }),
);
const counted = results.map(vulnerableOf);
/** Before VAmPI has a kept result, the figures detect.json already holds for it (the CI floor). */
function previousVampiFigures(): Record<string, unknown> {
  if (!fs.existsSync(DETECT_RESULT)) return {};
  const prev = JSON.parse(fs.readFileSync(DETECT_RESULT, 'utf8')) as { figures?: Record<string, unknown> };
  return Object.fromEntries(['vulnerable', 'secure'].flatMap((k) => (prev.figures?.[k] ? [[k, prev.figures[k]]] : [])));
}
writeResult('detect', {
  target: 'vampi',
  rps: 100,
  budgetSeconds: SCAN_BUDGET_S,
  ...(vampi ? Object.fromEntries(vampi.modes.map((m) => [m.mode, figuresOf(m)])) : previousVampiFigures()),
  targets: perTarget,
  total: {
    targets: counted.length,
    found: counted.reduce((n, m) => n + m.found, 0),
    total: counted.reduce((n, m) => n + m.total, 0),
    falseAlarms: counted.reduce((n, m) => n + m.falseAlarms, 0),
    requests: counted.reduce((n, m) => n + m.requests, 0),
    scanSeconds: Number(counted.reduce((n, m) => n + m.scanSeconds, 0).toFixed(1)),
  },
});
fs.writeFileSync('docs/detection.md', `${detectionDoc(results)}\n`);
console.log('wrote docs/detection.md');

if (problems.length) {
  console.error(`\n${problems.join('\n')}\nRun files kept in ${work}.`);
  process.exit(1);
}
fs.rmSync(work, { recursive: true, force: true });
