// Replays a finding's curl text as a reader of the report would (issue 29, item 4): with bash, as
// written, the variables it reads filled with the reader's own credentials, and checks the answer shows
// the finding's `proof` again: one of its statuses and its marker.

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { curlVariables } from '../../shared/curl-variables';
import type { FindingProof } from '../../shared/contract';
import type { BuiltFinding } from '../../electron/scanner/findings';

const run = promisify(execFile);

/** The variables a curl text reads, each with what its "Set first" lines say it holds ("the token of alice"). */
export function variablesOf(curl: string): { name: string; meaning: string }[] {
  return curlVariables(curl).map((name) => ({ name, meaning: new RegExp(`^#\\s+(?:Set first: )?${name}: (.*)$`, 'm').exec(curl)?.[1] ?? '' }));
}

// The child processes the curl text starts (a forging step's Node) see the same moved clock as the target.
const shiftDir = mkdtempSync(path.join(os.tmpdir(), 'portcullis-replay-clock-'));
const SHIFT = path.join(shiftDir, 'shift-clock.cjs');
writeFileSync(SHIFT, 'const real = Date.now; const by = Number(process.env.CLOCK_SHIFT_MS); Date.now = () => real() + by;\n');

/** Runs a curl text with bash as written, with `env` as the only variables besides PATH and HOME. */
export async function runCurlText(curl: string, env: Record<string, string>, shiftMs = 0): Promise<string> {
  try {
    // --norc: a stdin that is a socket (Node's pipes) makes bash read ~/.bashrc as under sshd, which can take seconds.
    const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', curl], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.homedir(), ...env, CLOCK_SHIFT_MS: String(shiftMs), NODE_OPTIONS: `--require ${SHIFT}` },
      timeout: 30_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    return `${(err as { stdout?: string }).stdout ?? ''}\n[bash failed: ${(err as Error).message.split('\n')[0]}]`;
  }
}

export interface ReplayResult {
  finding: BuiltFinding;
  proof: FindingProof | null;
  ok: boolean;
  /** Why it did not replay (empty when it did). */
  why: string;
  /** Its check's proofs cannot replay from curl alone (an out-of-band callback): not run, `why` says why. */
  excepted?: boolean;
}

/** Whether `out` (what the curl text printed) shows `proof` again. */
export function showsProof(out: string, proof: FindingProof, curl: string): string {
  // An answer's body need not end in a newline: the next command's status line then follows it on the same line.
  const statuses = [...out.matchAll(/(?:^|(?<=[^\w/]))HTTP\/[\d.]+ (\d{3})\b/gm)].map((m) => Number(m[1]));
  // A sequence whose proof step keeps only a value of its answer (OBJECT_ID=$(curl -s …)) prints no status for it.
  const lines = curl.split('\n');
  const stepLine = lines.findIndex((l) => l.startsWith(`# ${proof.step}. `));
  const captured = stepLine >= 0 && /^\w+=\$\(curl -s /.test(lines[stepLine + 1] ?? '');
  if (!captured && !statuses.some((s) => proof.status.includes(s))) {
    const failed = /\[bash failed: (.*)\]/.exec(out)?.[1];
    return `the proof answered ${proof.status.join(' or ')}; the replay answered ${statuses.join(', ') || `nothing${failed ? ` (${failed})` : ''}`}`;
  }
  if (proof.marker && !out.includes(proof.marker)) return `the answer lacks ${proof.marker}`;
  return '';
}

/**
 * Replays findings: `fill` gives each variable's value (or null when the reader could not have one);
 * findings whose every request reads run `parallel` at a time, the others one after another (a write of
 * one must not meet another's), each `shiftMs` into the future. Findings of the checks in `exceptions`
 * (check id -> why their proofs cannot replay from curl alone) are listed with that reason, not run.
 */
export async function replayFindings(
  findings: readonly BuiltFinding[],
  fill: (name: string, meaning: string) => string | null,
  opts: { shiftMs?: number; parallel?: number; exceptions?: Readonly<Record<string, string>> } = {},
): Promise<ReplayResult[]> {
  const one = async (f: BuiltFinding): Promise<ReplayResult> => {
    const proof = f.proof ?? null;
    const exception = opts.exceptions?.[f.check_id];
    if (exception) return { finding: f, proof, ok: false, why: exception, excepted: true };
    if (!f.curl) return { finding: f, proof, ok: false, why: 'the finding has no curl text' };
    if (!proof) return { finding: f, proof, ok: false, why: 'the finding has no proof (its proving request got no answer)' };
    const env: Record<string, string> = {};
    for (const v of variablesOf(f.curl)) {
      const value = fill(v.name, v.meaning);
      if (value === null) return { finding: f, proof, ok: false, why: `no value for ${v.name} (${v.meaning || 'not described'})` };
      env[v.name] = value;
    }
    const out = await runCurlText(f.curl, env, opts.shiftMs ?? 0);
    const why = showsProof(out, proof, f.curl);
    return { finding: f, proof, ok: !why, why };
  };
  const writes = (f: BuiltFinding) => /-X (POST|PUT|PATCH|DELETE)\b|--data/.test(f.curl);
  const reads = findings.filter((f) => !writes(f));
  const results: ReplayResult[] = [...(await inPool(reads, opts.parallel ?? 6, one))];
  for (const f of findings.filter(writes)) results.push(await one(f));
  // On a loaded machine a command can time out, or the target's own time limit answer a 5xx the proof did not have: such a
  // replay says nothing about the evidence, so it runs once more, alone.
  const overloaded = (r: ReplayResult) =>
    /answered nothing|bash failed/.test(r.why) || (/the replay answered .*\b5\d\d\b/.test(r.why) && !r.proof?.status.some((s) => s >= 500));
  for (const [i, r] of results.entries()) if (overloaded(r)) results[i] = await one(r.finding);
  return results;
}

/** `work` on each item, at most `size` at a time (a new one starts as soon as one ends); results in the items' order. */
export async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}

/** "12 of 14 replay" and one line per finding that did not, for the test's output and its failure message. */
export function replayReport(label: string, results: readonly ReplayResult[]): string {
  const line = (r: ReplayResult) => `  ${r.finding.check_id} ${r.finding.method} ${r.finding.path}${r.finding.parameter ? ` [${r.finding.parameter}]` : ''}: ${r.why}`;
  const failed = results.filter((r) => !r.ok && !r.excepted);
  const excepted = results.filter((r) => r.excepted);
  return [
    `${label}: ${results.filter((r) => r.ok).length} of ${results.length} findings replay from their curl text${excepted.length ? `; ${excepted.length} cannot from curl alone` : ''}.`,
    ...failed.map(line),
    ...(excepted.length ? ['Cannot replay from curl alone:', ...excepted.map(line)] : []),
  ].join('\n');
}
