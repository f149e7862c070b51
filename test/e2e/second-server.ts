// Another `portcullis serve` started by a browser test itself (the global setup's server is the first):
// its own temp data dir, environment and port, stopped by the test.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface SecondServer {
  url: string;
  stop(): Promise<void>;
}

export async function startSecondServer(env: Record<string, string>): Promise<SecondServer> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-e2e-2-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORTCULLIS_TEST_FAST_HASHING: '1', ...env };
  delete childEnv.PORTCULLIS_PUBLIC_URL;
  delete childEnv.PORTCULLIS_SMTP_URL;
  const child = spawn(
    process.execPath,
    ['bin/portcullis.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', path.join(work, 'data'), '--web', 'dist/renderer'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`The second server did not start within 15 s:\n${out}\n${err}`)), 15_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The second server exited with ${code}:\n${out}\n${err}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
