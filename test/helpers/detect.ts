// Detection on a real third-party API: VAmPI (../shared/targets/vampi) scanned through the CLI with
// two login identities and the scan's own users, then scored against its documented flaws with
// ../shared/detect/score.mjs. Shared by the detection benchmark (bench/detect) and its CI floor test.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ScanCoverage } from '../../shared/coverage';
import type { SkippedCheck } from '../../shared/contract';
import type { IdentityReport } from '../../shared/identities';
import { main } from '../../electron/cli';
import { ROOT } from './bundle';
import { tempDir } from './core';
import { startVampi, VAMPI_SPEC, vampiAvailable } from './vampi';

const run = promisify(execFile);

export const SCORER = path.resolve(ROOT, '../shared/detect/score.mjs');
export const DETECT_RESULT = path.join(ROOT, 'bench/results/detect.json');

export type DetectMode = 'vulnerable' | 'secure';

/** What score.mjs --json writes. */
export interface ScoreSummary {
  target: string;
  mode: DetectMode;
  findings: number;
  found: number;
  total: number;
  missed: number;
  false: number;
  rows: { id: string; role: string; status: string; where: string[]; findings: number[]; name: string }[];
  falseAlarms: { index: number; severity: string; where: string; name: string; why: string }[];
  notPenalised: { index: number; entry: string; where: string }[];
  problems: string[];
}

export interface ReportedFinding {
  check_id: string;
  vulnerability_name: string;
  severity: string;
  method: string;
  path: string;
  graphql?: { operation?: string } | null;
}

export interface DetectRun {
  mode: DetectMode;
  summary: ScoreSummary;
  findings: ReportedFinding[];
  status: string;
  failureReason: string | null;
  requests: number;
  /** Wall time of the scan alone (not VAmPI's start). */
  ms: number;
  /** The scan's own notes and skipped checks (findings.json `scan.errors`, `scan.skipped_checks`). */
  notes: string[];
  skipped: SkippedCheck[];
  identities: IdentityReport[];
  /** The scan's coverage ledger (findings.json `coverage`); null when it kept none. */
  coverage: ScanCoverage | null;
}

export function detectAvailable(): boolean {
  return vampiAvailable() && fs.existsSync(SCORER);
}

/** The scan configuration: VAmPI's two seeded users by their login operation, and sign-up on. */
export const VAMPI_SCAN_CONFIG = [
  'identities:',
  '  - name: alice',
  '    login:',
  '      request: { method: POST, path: /users/v1/login, json: { username: name1, password: pass1 } }',
  '      token: { from: body, pointer: /auth_token }',
  '  - name: bob',
  '    login:',
  '      request: { method: POST, path: /users/v1/login, json: { username: name2, password: pass2 } }',
  '      token: { from: body, pointer: /auth_token }',
  'signup: auto',
  '',
].join('\n');

/** Starts VAmPI in `mode`, scans it with the CLI (`portcullis scan`), stops it and scores the findings. */
export async function detectVampi(mode: DetectMode): Promise<DetectRun> {
  const dir = tempDir('portcullis-detect-');
  const vampi = await startVampi({ vulnerable: mode === 'vulnerable' });
  try {
    fs.writeFileSync(path.join(dir, 'scan.yaml'), VAMPI_SCAN_CONFIG);
    const t0 = performance.now();
    await quietly(() => main(['scan', '--spec', VAMPI_SPEC, '--base-url', vampi.url, '--config', path.join(dir, 'scan.yaml'), '--rps', '100', '--out', dir, '--quiet']));
    const ms = performance.now() - t0;
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as {
      scan: { status: string; failure_reason: string | null; requests_sent: number; errors: string[]; skipped_checks: SkippedCheck[]; identities: IdentityReport[] };
      findings: ReportedFinding[];
      coverage?: ScanCoverage | null;
    };
    const summary = await scoreFindings('vampi', path.join(dir, 'findings.json'), mode);
    return {
      mode,
      summary,
      findings: report.findings,
      status: report.scan.status,
      failureReason: report.scan.failure_reason,
      requests: report.scan.requests_sent,
      ms,
      notes: report.scan.errors,
      skipped: report.scan.skipped_checks,
      identities: report.scan.identities,
      coverage: report.coverage ?? null,
    };
  } finally {
    await vampi.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Scores a findings file against `target`'s known flaws with ../shared/detect/score.mjs. */
export async function scoreFindings(target: string, findingsFile: string, mode: DetectMode = 'vulnerable'): Promise<ScoreSummary> {
  const summaryFile = path.join(path.dirname(findingsFile), `score-${target}-${mode}.json`);
  const args = [SCORER, '--target', target, '--findings', findingsFile, ...(mode === 'secure' ? ['--mode', mode] : []), '--json', summaryFile];
  await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as ScoreSummary;
}

/** The CLI writes its summary to stderr even with --quiet; the benchmark and the test keep theirs clean. */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  return (await withOutput(fn)).result;
}

/** Runs `fn` with what it writes to stdout and stderr captured (and shown only when it throws). */
export async function withOutput<T>(fn: () => Promise<T>): Promise<{ result: T; stdout: string; stderr: string }> {
  const writeErr = process.stderr.write.bind(process.stderr);
  const writeOut = process.stdout.write.bind(process.stdout);
  let stderr = '';
  let stdout = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await fn();
    return { result, stdout, stderr };
  } catch (err) {
    writeErr(stdout + stderr);
    throw err;
  } finally {
    process.stderr.write = writeErr;
    process.stdout.write = writeOut;
  }
}
