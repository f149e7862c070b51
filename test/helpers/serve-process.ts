// Starts the real `portcullis serve` as a child process (as a user would), for end-to-end tests.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'dist', 'core', 'cli.js');

/** Builds the bundled CLI when it is missing or older than the sources it bundles. */
export function ensureCliBuilt(): void {
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true, recursive: true }).reduce((max, e) => {
      if (!e.isFile() || !/\.(ts|cts)$/.test(e.name)) return max;
      return Math.max(max, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
    }, 0);
  const built = fs.existsSync(CLI) ? fs.statSync(CLI).mtimeMs : 0;
  if (built < Math.max(newest(path.join(ROOT, 'electron')), newest(path.join(ROOT, 'shared')))) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-core.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Milliseconds from spawn to the "listening" line. */
  startupMs: number;
  stop(): Promise<number | null>;
}

export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  ensureCliBuilt();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'portcullis.js'), 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}\n${err}`)), 15_000);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
    let seen = false;
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = seen ? null : /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        seen = true;
        clearTimeout(timer);
        const startupMs = performance.now() - started;
        child.removeAllListeners('exit');
        resolve({
          url: m[1]!,
          child,
          startupMs,
          stdout: () => out,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

export type Envelope<T> = { success: boolean; message: string; data: T };

/** One JSON call to a running serve process, with an optional session token. */
export async function callServe<T>(node: ServeProcess, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: Envelope<T> }> {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Envelope<T> };
}
