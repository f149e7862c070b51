// Replays a finding's curl text as a reader of the report would (issue 29, item 4): with bash, as
// written, the variables it reads filled with the reader's own credentials, and checks the answer shows
// the finding's `proof` again: one of its statuses and its marker.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
 * The reader's own listener for out-of-band proofs (`proof.listener`): a loopback HTTP server that
 * records the paths it is asked for.
 */
export class ReplayListener {
  private readonly seen = new Set<string>();
  private readonly waiting = new Map<string, () => void>();
  private readonly server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    this.seen.add(path);
    this.waiting.get(path)?.();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('reader listener');
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** A fresh address of this listener. */
  address(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/replay-${randomBytes(6).toString('hex')}`;
  }

  /** Whether a request for the address arrives within `ms`. */
  async received(address: string, ms: number): Promise<boolean> {
    const path = new URL(address).pathname;
    if (this.seen.has(path)) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(this.seen.has(path)), ms);
      this.waiting.set(path, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Replays findings: `fill` gives each variable's value (or null when the reader could not have one);
 * findings whose every request reads run `parallel` at a time, the others one after another (a write of
 * one must not meet another's), each `shiftMs` into the future. An out-of-band proof (`proof.listener`)
 * gets the address of a listener of the reader's own and must reach it.
 */
export async function replayFindings(
  findings: readonly BuiltFinding[],
  fill: (name: string, meaning: string) => string | null,
  opts: { shiftMs?: number; parallel?: number } = {},
): Promise<ReplayResult[]> {
  const listener = findings.some((f) => f.proof?.listener) ? new ReplayListener() : null;
  await listener?.start();
  try {
    return await replayAll(findings, fill, opts, listener);
  } finally {
    await listener?.close();
  }
}

async function replayAll(
  findings: readonly BuiltFinding[],
  fill: (name: string, meaning: string) => string | null,
  opts: { shiftMs?: number; parallel?: number },
  listener: ReplayListener | null,
): Promise<ReplayResult[]> {
  const one = async (f: BuiltFinding): Promise<ReplayResult> => {
    const proof = f.proof ?? null;
    if (!f.curl) return { finding: f, proof, ok: false, why: 'the finding has no curl text' };
    if (!proof) return { finding: f, proof, ok: false, why: 'the finding has no proof (its proving request got no answer)' };
    const env: Record<string, string> = {};
    // An out-of-band proof: the reader points the variable at a listener of their own and watches it.
    const address = proof.listener && listener ? listener.address() : null;
    if (address) env[proof.listener!] = address;
    for (const v of variablesOf(f.curl)) {
      if (v.name in env) continue;
      const value = fill(v.name, v.meaning);
      if (value === null) return { finding: f, proof, ok: false, why: `no value for ${v.name} (${v.meaning || 'not described'})` };
      env[v.name] = value;
    }
    const out = await runCurlText(f.curl, env, opts.shiftMs ?? 0);
    const why = showsProof(out, proof, f.curl) || (address && !(await listener!.received(address, 5_000)) ? `the listener at $${proof.listener} received no request` : '');
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
  return [`${label}: ${results.filter((r) => r.ok).length} of ${results.length} findings replay from their curl text.`, ...results.filter((r) => !r.ok).map(line)].join('\n');
}
