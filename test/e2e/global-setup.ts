// Starts the real team server for the browser tests: `node bin/portcullis.js serve --port 0` on a
// temp data dir, serving dist/renderer. Its URL comes from stdout; stderr (where the password-reset
// links are logged) goes to a file the tests read. Builds nothing: run `npm run build` first.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const built of ['dist/core/cli.js', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(root, built))) {
      throw new Error(`${built} is missing: run \`npm run build\` before the browser tests.`);
    }
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-e2e-'));
  const dataDir = path.join(work, 'data');
  const logFile = path.join(work, 'server.log');
  fs.mkdirSync(dataDir);
  const log = fs.openSync(logFile, 'a');

  // Links must point at this server, and no reset email may leave the machine.
  const env = { ...process.env };
  delete env.PORTCULLIS_PUBLIC_URL;
  delete env.PORTCULLIS_SMTP_URL;
  const child = spawn(
    process.execPath,
    ['bin/portcullis.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--web', 'dist/renderer'],
    { cwd: root, stdio: ['ignore', 'pipe', log], env },
  );

  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`The server did not start within 15 s:\n${out}`)), 15_000);
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
      reject(new Error(`The server exited with ${code} before listening:\n${out}\n${fs.readFileSync(logFile, 'utf8')}`));
    });
  });

  // Workers inherit the environment of the runner.
  process.env.PORTCULLIS_E2E_URL = url;
  process.env.PORTCULLIS_E2E_LOG = logFile;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.closeSync(log);
    fs.rmSync(work, { recursive: true, force: true });
  };
}
