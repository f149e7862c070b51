// A `command` identity's process: its output is the token, and when it runs too long (or the scan
// stops) the whole process group goes, so nothing it started keeps running behind the scanner.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { obtainCredential, ObtainError, runCommand } from './obtain';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function pidFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-command-'));
  dirs.push(dir);
  return path.join(dir, 'child.pid');
}

/** Running (a zombie waiting to be reaped counts as gone: it runs nothing). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    if (process.platform === 'linux') return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readPid(file: string): Promise<number> {
  for (let i = 0; i < 100 && !(fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 20));
  return Number(fs.readFileSync(file, 'utf8').trim());
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !alive(pid);
}

describe.runIf(process.platform !== 'win32')('a command identity', () => {
  it('prints the token as its last line', async () => {
    const c = await obtainCredential({ name: 'ci', role: 'user', command: 'echo "a notice first"; echo tok-0123456789' }, { send: () => Promise.reject(new Error('no request')), resolve: (p) => new URL(p, 'http://x'), specTokenUrl: null, allowCommand: true, signal: new AbortController().signal });
    expect(c.token).toBe('tok-0123456789');
  });

  it('that times out is stopped with every process it started', async () => {
    const file = pidFile();
    const started = runCommand(`sleep 30 & echo $! > '${file}'; wait`, new AbortController().signal, 400);
    const pid = await readPid(file);
    expect(alive(pid)).toBe(true);
    await expect(started).rejects.toThrow(new ObtainError("The identity's command did not finish within 0.4 s."));
    expect(await goneWithin(pid, 2000), `the child ${pid} still runs`).toBe(true);
  });

  it('is stopped with every process it started when the scan stops', async () => {
    const file = pidFile();
    const controller = new AbortController();
    const started = runCommand(`sleep 30 & echo $! > '${file}'; wait`, controller.signal, 30_000);
    const pid = await readPid(file);
    controller.abort();
    await expect(started).rejects.toThrow(/was stopped with the scan/);
    expect(await goneWithin(pid, 2000), `the child ${pid} still runs`).toBe(true);
  });

  it('that fails says how, with the last line it wrote to stderr', async () => {
    await expect(runCommand('echo "no such profile" >&2; exit 3', new AbortController().signal, 5000)).rejects.toThrow("The identity's command failed (exit code 3): no such profile.");
  });
});
