// Runs one target of the detection benchmark end to end: its start script, the accounts its setup
// makes, each CLI scan (`portcullis scan`, in this process), its stop script. Targets that fetch URLs
// or run commands run, with this whole process, inside a network namespace with loopback only
// (`unshare -n`): the parent re-runs the benchmark's own bundle there with --inside.

import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ScanCoverage } from '../../shared/coverage';
import type { ScanInfo } from '../../shared/contract';
import { main } from '../../electron/cli';
import { withOutput } from '../../test/helpers/detect';
import { freePort } from '../../test/helpers/vampi';
import type { ScanFinding } from './findings';
import { BENCH_DIR, TARGETS_DIR, type DetectTarget } from './targets';

const run = promisify(execFile);

/** What one scan of a target left behind, for the parent to score. */
export interface ScanOutcome {
  label: string;
  basePath: string;
  exitCode: number;
  ms: number;
  findingsFile: string | null;
  /** The CLI's import warnings ("warning: ..." lines on stderr). */
  warnings: string[];
  /** The CLI's last stderr lines when it failed. */
  failure: string | null;
}

export interface TargetOutcome {
  target: string;
  /** Seconds the start script took (Juice Shop: copy and its own start-up). */
  startSeconds: number | null;
  scans: ScanOutcome[];
  /** Why the target could not be scanned, when it could not. */
  error: string | null;
}

const startScript = (t: DetectTarget) => path.join(TARGETS_DIR, t.dir, 'start.sh');

/** Whether the target's start script has `--prepare` (install what it needs; start nothing). */
export function hasPrepare(t: DetectTarget): boolean {
  return fs.readFileSync(startScript(t), 'utf8').includes('--prepare');
}

/**
 * Installs what the target needs (Debian packages, Juice Shop's npm cache) where the package mirrors are
 * reachable: outside the namespace, before it.
 */
export async function prepareTarget(t: DetectTarget): Promise<void> {
  if (!hasPrepare(t)) return;
  try {
    await run('bash', [startScript(t), '--prepare'], { timeout: 30 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`Preparing ${t.name} (${startScript(t)} --prepare) failed: ${(e.stderr ?? '').trim().split('\n').slice(-15).join('\n') || e.message}`);
  }
}

/** Runs the target and its scans in this process and namespace; never throws (the error is in the outcome). */
export async function runTarget(t: DetectTarget, outDir: string): Promise<TargetOutcome> {
  const outcome: TargetOutcome = { target: t.id, startSeconds: null, scans: [], error: null };
  fs.mkdirSync(outDir, { recursive: true });
  const state = fs.mkdtempSync(path.join(os.tmpdir(), `detect-${t.id}-`));
  const env = { ...process.env, BENCH_STATE: state };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let started = false;
  try {
    const t0 = performance.now();
    try {
      await run('bash', [startScript(t), String(port)], { env, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`${t.name} did not start: ${(e.stderr ?? '').trim().split('\n').slice(-10).join('\n') || e.message}`);
    }
    started = true;
    outcome.startSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
    log(`${t.id}: started on ${origin} in ${outcome.startSeconds} s`);
    if (t.setup) {
      try {
        await run('bash', [path.join(BENCH_DIR, t.id, 'setup.sh')], { env: { ...env, TARGET_URL: origin }, timeout: 120_000 });
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new Error(`bench/detect/${t.id}/setup.sh failed: ${(e.stderr ?? '').trim() || e.message}`);
      }
    }
    for (const [n, plan] of t.scans.entries()) {
      const dir = path.join(outDir, `scan-${n + 1}`);
      fs.mkdirSync(dir, { recursive: true });
      // The scan configurations read the target's origin as ${env:TARGET_URL} where they need it.
      process.env.TARGET_URL = origin;
      const args = [
        'scan',
        '--spec',
        path.join(TARGETS_DIR, t.dir, plan.spec),
        '--base-url',
        `${origin}${plan.basePath}`,
        '--config',
        path.join(BENCH_DIR, t.id, plan.config),
        ...plan.flags,
        // For comparisons (docs/benchmarks.md): BENCH_HAR_DIR keeps each scan's traffic and findings there,
        // BENCH_EXTRA_FLAGS adds CLI flags ("--concurrency 1"); docs/detection.md still shows the plan's flags.
        ...(process.env.BENCH_HAR_DIR ? ['--har', path.join(process.env.BENCH_HAR_DIR, `${t.id}-${n + 1}.har`)] : []),
        ...(process.env.BENCH_EXTRA_FLAGS ? process.env.BENCH_EXTRA_FLAGS.split(' ').filter(Boolean) : []),
        '--out',
        dir,
        '--quiet',
      ];
      const s0 = performance.now();
      const { result: exitCode, stderr } = await withOutput(() => main(args));
      const ms = performance.now() - s0;
      const file = path.join(dir, 'findings.json');
      const findingsFile = fs.existsSync(file) ? file : null;
      const failed = exitCode === 2 || !findingsFile;
      outcome.scans.push({
        label: plan.label,
        basePath: plan.basePath,
        exitCode,
        ms,
        findingsFile,
        warnings: stderr.split('\n').filter((l) => l.startsWith('warning: ')).map((l) => l.slice('warning: '.length)),
        failure: failed ? stderr.trim().split('\n').slice(-10).join('\n') : null,
      });
      log(`${t.id}: ${plan.label} scanned in ${(ms / 1000).toFixed(1)} s (exit ${exitCode})`);
    }
  } catch (err) {
    outcome.error = (err as Error).message;
  } finally {
    if (started) await run('bash', [path.join(TARGETS_DIR, t.dir, 'stop.sh'), String(port)], { env, timeout: 60_000 }).catch(() => undefined);
    fs.rmSync(state, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(outDir, 'outcome.json'), `${JSON.stringify(outcome, null, 2)}\n`);
  if (process.env.BENCH_HAR_DIR) for (const [n] of t.scans.entries()) fs.cpSync(path.join(outDir, `scan-${n + 1}`), path.join(process.env.BENCH_HAR_DIR, `scan-${n + 1}`), { recursive: true });
  return outcome;
}

/** The namespace command: root makes a network namespace; another user needs a user namespace around it. */
export function isolationCommand(): string[] {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return ['unshare', asRoot ? '-n' : '-rn', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"'];
}

/** Runs `runTarget` in a fresh network namespace with loopback only, through this benchmark's own bundle. */
export async function runTargetIsolated(t: DetectTarget, outDir: string): Promise<TargetOutcome> {
  fs.mkdirSync(outDir, { recursive: true });
  const [cmd, ...pre] = isolationCommand();
  const args = [...pre, process.execPath, process.argv[1]!, '--inside', t.id, '--out', outDir];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(cmd!, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve(127));
    child.on('close', (c) => resolve(c ?? 1));
  });
  const file = path.join(outDir, 'outcome.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as TargetOutcome;
  return {
    target: t.id,
    startSeconds: null,
    scans: [],
    error: `The network namespace for ${t.name} could not be made (\`${isolationCommand().slice(0, 2).join(' ')}\` exited ${code}): run the benchmark as root, or where unprivileged user namespaces are allowed.`,
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The scan's own report, as findings.json holds it. */
export interface FindingsReport {
  scan: Pick<ScanInfo, 'errors' | 'skipped_checks' | 'identities' | 'created_users' | 'requests_sent' | 'failure_reason'> & { status: string };
  findings: ScanFinding[];
  /** The scan's coverage ledger (null when it kept none). */
  coverage?: ScanCoverage | null;
}
