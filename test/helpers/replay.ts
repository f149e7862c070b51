// Replays a finding's curl text as a reader of the report would (issue 29, item 4): with bash, as
// written, the variables it reads filled with the reader's own credentials, and checks the answer shows
// the proof again: the proof's status and a marker taken from the proof's answer in the evidence.

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { curlVariables } from '../../shared/curl-variables';
import type { BuiltFinding } from '../../electron/scanner/findings';

const run = promisify(execFile);

/** What a finding's evidence says its proof answered: a status and, where the answer has one, a marker text. */
export interface Proof {
  status: number;
  marker: string | null;
}

interface Answer {
  title: string;
  request: string;
  status: number;
  body: string;
}

/** Every exchange of an evidence text: its section title, its request line and body, its answer's status and body. */
function answersOf(evidence: string): Answer[] {
  const out: Answer[] = [];
  let title = '';
  let request: string[] = [];
  let response: { status: number; lines: string[]; inBody: boolean } | null = null;
  const close = () => {
    if (response) out.push({ title, request: request.join('\n'), status: response.status, body: response.lines.join('\n') });
    response = null;
  };
  for (const line of evidence.split('\n')) {
    const section = /^== (.*) ==$/.exec(line);
    if (section) {
      close();
      title = section[1]!;
      request = [];
      continue;
    }
    if (line.startsWith('> ')) {
      if (response) {
        close();
        request = [];
      }
      request.push(line.slice(2));
      continue;
    }
    const status = /^< HTTP (\d{3})\b/.exec(line);
    if (status) {
      close();
      response = { status: Number(status[1]), lines: [], inBody: false };
      continue;
    }
    if (response && line.startsWith('<')) {
      if (line === '<') response.inBody = true;
      else if (response.inBody) response.lines.push(line.slice(2));
      continue;
    }
    close();
  }
  close();
  return out;
}

// Values that differ from one answer to the next (times, generated ids and tokens), never a marker.
const VOLATILE_KEY = /(^|_)(id|ids|uuid|token|jwt|nonce|csrf|etag|date|time|timestamp|expires?|exp|iat|nbf|jti|created_?at|updated_?at|issued_?at|request_?id|trace_?id|took|elapsed|duration|ms)$|At$|Id$/i;
const VOLATILE_VALUE = /\d{4}-\d{2}-\d{2}T|\[[^\]]*(key|token|password|hidden|alice|bob|admin|carol|created|generated)[^\]]*\]|…/i;
const JSON_PAIR = /"([^"\\]{1,40})":\s*("(?:[^"\\]|\\.){0,80}"|-?\d+(?:\.\d+)?|true|false)/g;

/**
 * The proof a finding states: the status of the answer that proves it (the sequence step marked
 * "<- the proof", else the exchange the single command repeats, else the last) and a marker from that
 * answer's body: a JSON member the attack sent and the answer kept (a value that stuck, an echoed
 * payload), else its first stable member, else the body's first line.
 */
export function proofOf(f: Pick<BuiltFinding, 'evidence' | 'curl'>): Proof | null {
  const answers = answersOf(f.evidence);
  if (!answers.length) return null;
  const proofTitle = /^# \d+\. (.*) <- the proof$/m.exec(f.curl)?.[1];
  const byTitle = proofTitle ? answers.filter((a) => a.title === proofTitle) : [];
  const single = /-X (\S+)\b[^\n]*'(?:https?:\/\/[^/']+)([^?' ]*)/.exec(f.curl);
  const byRequest = !proofTitle && single ? answers.filter((a) => a.request.startsWith(`${single[1]} ${single[2]}`)) : [];
  const proof = byTitle.at(-1) ?? byRequest.at(-1) ?? answers.at(-1)!;
  const pairs = [...proof.body.matchAll(JSON_PAIR)].filter((m) => !VOLATILE_KEY.test(m[1]!) && !VOLATILE_VALUE.test(m[2]!) && m[2] !== '""');
  const sent = pairs.find((m) => m[2]!.length > 3 && f.curl.includes(m[0]));
  // A number the attack did not send (a count, a memory figure, a generated question) changes between two instances.
  const stable = pairs.find((m) => !/^-?\d/.test(m[2]!) && !/\d{3}/.test(m[2]!));
  const marker = sent?.[0] ?? stable?.[0] ?? (pairs.length ? null : proof.body.split('\n')[0]?.trim().slice(0, 40) || null);
  return { status: proof.status, marker: marker && !VOLATILE_VALUE.test(marker) ? marker : null };
}

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
  proof: Proof | null;
  ok: boolean;
  /** Why it did not replay (empty when it did). */
  why: string;
}

/** Whether `out` (what the curl text printed) shows `proof` again. */
export function showsProof(out: string, proof: Proof, curl: string): string {
  // An answer's body need not end in a newline: the next command's status line then follows it on the same line.
  const statuses = [...out.matchAll(/(?:^|(?<=[^\w/]))HTTP\/[\d.]+ (\d{3})\b/gm)].map((m) => Number(m[1]));
  // A sequence whose proof step keeps only a value of its answer (OBJECT_ID=$(curl -s …)) prints no status for it.
  const proofLine = curl.split('\n').findIndex((l) => / <- the proof$/.test(l));
  const captured = proofLine >= 0 && /^\w+=\$\(curl -s /.test(curl.split('\n')[proofLine + 1] ?? '');
  if (!captured && !statuses.includes(proof.status)) return `the proof answered ${proof.status}; the replay answered ${statuses.join(', ') || `nothing${/\[bash failed: (.*)\]/.exec(out)?.[1] ? ` (${/\[bash failed: (.*)\]/.exec(out)![1]})` : ''}`}`;
  if (proof.marker && !out.includes(proof.marker)) return `the answer lacks ${proof.marker}`;
  return '';
}

/**
 * Replays findings: `fill` gives each variable's value (or null when the reader could not have one);
 * findings whose every request reads run `parallel` at a time, the others one after another (a write of
 * one must not meet another's), each `shiftMs` into the future.
 */
export async function replayFindings(
  findings: readonly BuiltFinding[],
  fill: (name: string, meaning: string) => string | null,
  opts: { shiftMs?: number; parallel?: number } = {},
): Promise<ReplayResult[]> {
  const one = async (f: BuiltFinding): Promise<ReplayResult> => {
    const proof = proofOf(f);
    if (!f.curl) return { finding: f, proof, ok: false, why: 'the finding has no curl text' };
    if (!proof) return { finding: f, proof, ok: false, why: 'the evidence holds no answer to compare with' };
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
  // On a loaded machine a command can time out: such a replay says nothing about the evidence, so it runs once more, alone.
  for (const [i, r] of results.entries()) if (/answered nothing|bash failed/.test(r.why)) results[i] = await one(r.finding);
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
  const failed = results.filter((r) => !r.ok);
  return [
    `${label}: ${results.length - failed.length} of ${results.length} findings replay from their curl text.`,
    ...failed.map((r) => `  ${r.finding.check_id} ${r.finding.method} ${r.finding.path}${r.finding.parameter ? ` [${r.finding.parameter}]` : ''}: ${r.why}`),
  ].join('\n');
}
