// Check budgets (issue 5): the check tests together run in <= 3 minutes; reported alongside, a whole
// scan with every registered check of the hardened twin and of the vulnerable target (time,
// requests, findings by severity), and what path discovery adds to a scan (issue 16: at most 300
// requests). Run: npm run bench -- checks

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
/** The checks that guess paths the spec does not list: discovery proper, debug surfaces, docs, consoles. */
const DISCOVERY = new Set(['api9-undocumented-endpoints', 'api9-debug-endpoints', 'api9-exposed-docs', 'api8-debug-console']);
const DISCOVERY_LIMIT = 300;

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
  const discovery = CHECKS.filter((c) => DISCOVERY.has(c.id)).reduce((n, c) => n + s.sent(c), 0);
  const entry = { label, seconds: Number(seconds.toFixed(2)), requests: s.outcome.progress.requestsSent, checksRun: s.outcome.checksRun.length, findings: s.findings.length, bySeverity, discoveryRequests: discovery };
  scans.push(entry);
  console.log(`${label}: ${entry.requests} requests in ${entry.seconds} s, ${entry.checksRun} checks run, findings ${JSON.stringify(bySeverity)}, discovery ${discovery} requests (budget ${DISCOVERY_LIMIT})`);
}

writeResult('checks', { checkTests: { seconds: Number(testSeconds.toFixed(1)), limit: LIMIT_S, tests: results.numTotalTests, passed: results.numPassedTests, ok: run.status === 0 }, checks: CHECKS.length, scans });
const overDiscovery = scans.some((s) => (s.discoveryRequests as number) > DISCOVERY_LIMIT);
process.exit(run.status === 0 && testSeconds <= LIMIT_S && !overDiscovery ? 0 : 1);
