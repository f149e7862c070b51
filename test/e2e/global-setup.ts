// Starts the real team server for the browser tests: `node bin/portcullis.js serve --port 0` on a
// temp data dir, serving dist/renderer, with local scans allowed (the test target runs on 127.0.0.1).
// Its URL comes from stdout; stderr (where the password-reset links are logged) goes to a file the
// tests read. Also starts the deliberately vulnerable test target (dist/targets/serve.js) for the scan
// journey. Builds nothing: run `npm run build && npm run build:targets` first.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const built of ['dist/core/cli.js', 'dist/renderer/index.html', 'dist/targets/serve.js']) {
    if (!fs.existsSync(path.join(root, built))) {
      throw new Error(`${built} is missing: run \`npm run build && npm run build:targets\` before the browser tests.`);
    }
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-e2e-'));
  const dataDir = path.join(work, 'data');
  const logFile = path.join(work, 'server.log');
  fs.mkdirSync(dataDir);
  const log = fs.openSync(logFile, 'a');

  // Links must point at this server, and no reset email may leave the machine.
  // Every browser test signs its users up from 127.0.0.1: lift the per-address sign-up limit.
  const env: NodeJS.ProcessEnv = { ...process.env, PORTCULLIS_ALLOW_LOCAL_SCANS: '1', PORTCULLIS_SIGNUP_LIMIT: '10000' };
  // Hundreds of sign-ups and sign-ins: hashed at a test cost, not queued behind 128 MB OWASP-cost hashes.
  env.PORTCULLIS_TEST_FAST_HASHING = '1';
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

  const target = spawn(process.execPath, ['dist/targets/serve.js', '--vulnerable', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', log],
  });
  const stopServer = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  const targetInfo = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`The test target did not start within 15 s:\n${out}`)), 15_000);
    target.stdout!.setEncoding('utf8');
    target.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (!out.includes('TARGET_READY')) return;
      clearTimeout(timer);
      const info: Record<string, string> = {};
      for (const line of out.split('\n')) {
        const m = /^(TARGET_[A-Z_]+)=(.*)$/.exec(line);
        if (m) info[m[1]!] = m[2]!;
      }
      resolve(info);
    });
    target.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The test target exited with ${code} before it was ready:\n${out}`));
    });
  }).catch((err: unknown) => {
    stopServer();
    throw err;
  });

  // Workers inherit the environment of the runner.
  process.env.PORTCULLIS_E2E_URL = url;
  process.env.PORTCULLIS_E2E_LOG = logFile;
  process.env.PORTCULLIS_E2E_TARGET = JSON.stringify({
    url: targetInfo.TARGET_URL,
    baseUrl: targetInfo.TARGET_BASE_URL,
    spec: targetInfo.TARGET_SPEC,
    users: JSON.parse(targetInfo.TARGET_USERS ?? '{}') as unknown,
  });

  return async () => {
    if (target.exitCode === null) {
      const exited = new Promise((r) => target.once('exit', r));
      target.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (target.exitCode === null) target.kill('SIGKILL');
    }
    if (targetInfo.TARGET_SPEC) fs.rmSync(path.dirname(targetInfo.TARGET_SPEC), { recursive: true, force: true });
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
