// Detection on a real API this project did not write (issue 16): VAmPI in its vulnerable and its
// secure mode, each scanned through the CLI `--runs` times (default 3) and scored against its
// documented flaws. Writes bench/results/detect.json (the CI floor test reads the found count from
// it) and docs/detection.md: a row per known flaw, false alarms, requests, time.
// Budget: a full scan of VAmPI stays under 60 s at 100 requests/s.
// Run: npm run bench -- detect [--runs N]

import fs from 'node:fs';
import { detectAvailable, detectVampi, VAMPI_SCAN_CONFIG, type DetectMode, type DetectRun } from '../../test/helpers/detect';
import { writeResult } from '../lib/results';
import { detectionDoc } from './doc';

const SCAN_BUDGET_S = 60;

const argRuns = process.argv.indexOf('--runs');
const RUNS = argRuns > 0 ? Number(process.argv[argRuns + 1]) : 3;
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error('--runs takes a whole number of runs (at least 1).');
  process.exit(2);
}
if (!detectAvailable()) {
  console.error('VAmPI (../shared/targets/vampi) or the scorer (../shared/detect/score.mjs) is not here: nothing to measure.');
  process.exit(2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const runs: Record<DetectMode, DetectRun[]> = { vulnerable: [], secure: [] };
for (const mode of ['vulnerable', 'secure'] as const) {
  for (let i = 0; i < RUNS; i += 1) {
    const r = await detectVampi(mode);
    if (r.status !== 'completed') throw new Error(`The ${mode} scan did not complete: ${r.failureReason ?? r.status}`);
    runs[mode].push(r);
    console.log(`${mode} run ${i + 1}: found ${r.summary.found}/${r.summary.total}, ${r.summary.false} false alarms, ${r.requests} requests, ${(r.ms / 1000).toFixed(1)} s`);
  }
}

const figures = Object.fromEntries(
  (['vulnerable', 'secure'] as const).map((mode) => {
    const rs = runs[mode];
    return [
      mode,
      {
        runs: rs.length,
        /** The floor: the fewest flaws found in any run. */
        found: Math.min(...rs.map((r) => r.summary.found)),
        total: rs[0]!.summary.total,
        foundPerRun: rs.map((r) => r.summary.found),
        /** The most false alarms (low or above) in any run. */
        falseAlarms: Math.max(...rs.map((r) => r.summary.false)),
        requests: median(rs.map((r) => r.requests)),
        scanSeconds: Number((median(rs.map((r) => r.ms)) / 1000).toFixed(1)),
        maxScanSeconds: Number((Math.max(...rs.map((r) => r.ms)) / 1000).toFixed(1)),
      },
    ];
  }),
);
writeResult('detect', { target: 'vampi', rps: 100, budgetSeconds: SCAN_BUDGET_S, ...figures });
fs.writeFileSync('docs/detection.md', detectionDoc(runs, VAMPI_SCAN_CONFIG, new Date()));
console.log('wrote docs/detection.md');
const slow = Object.values(runs).flat().find((r) => r.ms > SCAN_BUDGET_S * 1000);
if (slow) {
  console.error(`Over budget: a ${slow.mode} scan took ${(slow.ms / 1000).toFixed(1)} s (budget ${SCAN_BUDGET_S} s).`);
  process.exit(1);
}
