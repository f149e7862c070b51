// Keys at rest (issue 18, item 7), through the real `portcullis serve`: beyond loopback it refuses to
// start, before it binds or creates a file, unless its secret key comes from outside the data dir
// (PORTCULLIS_SECRET_KEY or --secret-key-file, a private file outside the data dir); on loopback it
// says where its generated key is; and every file it leaves in the data dir is 0600, the dir 0700.
// Every server started here binds 127.0.0.1; the 0.0.0.0 runs are refused before they bind.

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_FILE } from '../../electron/secrets/encrypted';
import { signUpAndLogin, tempDir, type Transport } from '../helpers/core';
import { ensureCliBuilt, ROOT, startServe } from '../helpers/serve-process';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const d = tempDir('portcullis-keys-cli-');
  dirs.push(d);
  return d;
}

function writeKeyFile(dir: string, mode: number, body = `${crypto.randomBytes(32).toString('base64')}\n`): string {
  const file = path.join(dir, 'portcullis.key');
  fs.writeFileSync(file, body, { mode });
  fs.chmodSync(file, mode);
  return file;
}

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.PORTCULLIS_SECRET_KEY;
  delete env.PORTCULLIS_SECRET_KEY_FILE;
  delete env.PORTCULLIS_SECRET_STORE;
  return env;
};

/** `serve` expected to refuse: it must exit by itself (a server that listened would be killed at the timeout). */
function serveRefused(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stderr: string; stdout: string } {
  ensureCliBuilt();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'portcullis.js'), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...cleanEnv(), ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('portcullis serve beyond loopback', () => {
  it('refuses --host 0.0.0.0 without a key outside the data dir, before it listens or creates anything', () => {
    const dataDir = path.join(freshDir(), 'data');
    const r = serveRefused(['--host', '0.0.0.0', '--data-dir', dataDir]);
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('listening');
    expect(r.stderr).toContain('A team server listening on 0.0.0.0 (beyond loopback) needs its secret key outside the data directory');
    expect(r.stderr).toContain('PORTCULLIS_SECRET_KEY');
    expect(r.stderr).toContain('--secret-key-file');
    expect(r.stderr).toContain('openssl rand -base64 32');
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 30_000);

  it('refuses a key file inside the data dir, one readable by others, and a damaged one', () => {
    const dataDir = freshDir();
    const inside = writeKeyFile(dataDir, 0o600);
    const r1 = serveRefused(['--host', '0.0.0.0', '--data-dir', dataDir, '--secret-key-file', inside]);
    expect(r1.status).toBe(2);
    expect(r1.stderr).toContain(`The secret key file ${inside} is inside the data directory`);

    const loose = writeKeyFile(freshDir(), 0o644);
    const r2 = serveRefused(['--host', '0.0.0.0', '--data-dir', freshDir(), '--secret-key-file', loose]);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain(`The secret key file ${loose} is readable by others (mode 0644): run \`chmod 600 ${loose}\``);

    // The environment variable is read the same way.
    const damaged = writeKeyFile(freshDir(), 0o600, 'hunter2\n');
    const r3 = serveRefused(['--host', '0.0.0.0', '--data-dir', freshDir()], { PORTCULLIS_SECRET_KEY_FILE: damaged });
    expect(r3.status).toBe(2);
    expect(r3.stderr).toContain(`The secret key file ${damaged} is damaged`);
    for (const r of [r1, r2, r3]) expect(r.stdout).not.toContain('listening');
  }, 60_000);
});

describe('portcullis serve on loopback', () => {
  it('uses a key file given outside the data dir (no key in the data dir), and keeps every file 0600 and the dir 0700', async () => {
    const dataDir = path.join(freshDir(), 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const keyFile = writeKeyFile(freshDir(), 0o600);
    const srv = await startServe(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--secret-key-file', keyFile], cleanEnv());
    try {
      const t: Transport = {
        name: 'http',
        async call(method, p, options = {}) {
          const res = await fetch(`${srv.url}${p}`, {
            method,
            headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
            body: options.body === undefined ? undefined : JSON.stringify(options.body),
          });
          const body = new Uint8Array(await res.arrayBuffer());
          const text = new TextDecoder().decode(body);
          return { status: res.status, headers: res.headers, text, body, json: text ? JSON.parse(text) : undefined };
        },
        close: async () => {},
      };
      await signUpAndLogin(t, 'owner');
      expect(srv.stderr()).toContain(`Stored secrets are encrypted with the key file ${keyFile}`);
      const entries = fs.readdirSync(dataDir);
      expect(entries).toEqual(expect.arrayContaining(['portcullis.db', 'portcullis.db-wal', 'portcullis.db-shm', 'portcullis.lock']));
      expect(entries).not.toContain(KEY_FILE);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const e of entries) expect([e, fs.statSync(path.join(dataDir, e)).mode & 0o777]).toEqual([e, 0o600]);
    } finally {
      expect(await srv.stop()).toBe(0);
    }
    for (const e of fs.readdirSync(dataDir)) expect([e, fs.statSync(path.join(dataDir, e)).mode & 0o777]).toEqual([e, 0o600]);
  }, 60_000);

  it('without a key, generates one in the data dir (0600) and says where it is', async () => {
    const dataDir = path.join(freshDir(), 'data');
    const srv = await startServe(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], cleanEnv());
    try {
      expect(srv.stderr()).toMatch(/Stored secrets are encrypted with a key file in the data directory.*file=\S*secret\.key/);
      expect(fs.statSync(path.join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'portcullis.db')).mode & 0o777).toBe(0o600);
    } finally {
      expect(await srv.stop()).toBe(0);
    }
  }, 60_000);
});
