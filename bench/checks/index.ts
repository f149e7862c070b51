// Check budgets (issue 5): the check tests together run in <= 3 minutes; reported alongside, a whole
// scan with every registered check of the hardened twin and of the vulnerable target (time,
// requests, findings by severity). Run: npm run bench -- checks

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECKS } from '../../electron/scanner/checks/index';
import { scanChecks } from '../../test/helpers/check-scan';
import { startTarget, type TargetOptions } from '../../test/targets';
import { writeResult } from '../lib/results';

const CHECK_TESTS = ['test/scanner/checks-', 'electron/scanner/checks/'];
const LIMIT_S = 180;

// 1. The check tests, as `npx vitest run` runs them.
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-checks-')), 'vitest.json');
const t0 = performance.now();
const run = spawnSync('npx', ['vitest', 'run', ...CHECK_TESTS, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`], { stdio: ['ignore', 'ignore', 'inherit'] });
const testSeconds = (performance.now() - t0) / 1000;
const results = JSON.parse(fs.readFileSync(report, 'utf8')) as { numTotalTests: number; numPassedTests: number; numTotalTestSuites: number };
console.log(`check tests: ${results.numPassedTests}/${results.numTotalTests} passed in ${results.numTotalTestSuites} suites, ${testSeconds.toFixed(1)} s (budget ${LIMIT_S} s)`);

// 2. Whole scans with every registered check.
const scans: Record<string, unknown>[] = [];
for (const [label, options] of [
  ['hardened twin, HTTP', { mode: 'hardened' }],
  ['hardened twin, HTTPS', { mode: 'hardened', tls: true }],
  ['vulnerable target, HTTP', { mode: 'vulnerable' }],
] as [string, TargetOptions][]) {
  const t = await startTarget(options);
  const s0 = performance.now();
  const s = await scanChecks(t, CHECKS, { tlsVerify: false });
  const seconds = (performance.now() - s0) / 1000;
  await t.close();
  const bySeverity: Record<string, number> = {};
  for (const f of s.findings) bySeverity[f.severity] = (bySeverity[f.severity] ?? 0) + 1;
  const entry = { label, seconds: Number(seconds.toFixed(2)), requests: s.outcome.progress.requestsSent, checksRun: s.outcome.checksRun.length, findings: s.findings.length, bySeverity };
  scans.push(entry);
  console.log(`${label}: ${entry.requests} requests in ${entry.seconds} s, ${entry.checksRun} checks run, findings ${JSON.stringify(bySeverity)}`);
}

writeResult('checks', { checkTests: { seconds: Number(testSeconds.toFixed(1)), limit: LIMIT_S, tests: results.numTotalTests, passed: results.numPassedTests, ok: run.status === 0 }, checks: CHECKS.length, scans });
process.exit(run.status === 0 && testSeconds <= LIMIT_S ? 0 : 1);
