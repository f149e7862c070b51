// The SecretStore: AES-256-GCM with a 0600 key file or PORTCULLIS_SECRET_KEY (team server), the
// real OS keychain through a throw-away gnome-keyring (desktop), and no key ever stored in clear.

import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../electron/clock';
import { createSecretStore } from '../../electron/secrets/index';
import { createLogger } from '../../electron/log';
import { createEncryptedStore, decrypt, encrypt, KEY_FILE, keyFromEnv, keyFromFile } from '../../electron/secrets/encrypted';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { createSecretsRepo } from '../../electron/store/secrets';
import { bundle, ROOT } from '../helpers/bundle';
import { tempDir } from '../helpers/core';

describe('encrypted secret store', () => {
  let store: OpenedStore;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    store = await openStore(path.join(dir, 'db.sqlite'));
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates its key file with mode 0600 and reuses it', () => {
    const a = keyFromFile(dir);
    const b = keyFromFile(dir);
    expect(a.key.equals(b.key)).toBe(true);
    expect(fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    fs.chmodSync(path.join(dir, KEY_FILE), 0o644);
    keyFromFile(dir);
    expect(fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('keeps only ciphertext in SQLite, bound to its reference', async () => {
    const repo = createSecretsRepo(store.db);
    const { key } = keyFromFile(dir);
    const s = createEncryptedStore({ secrets: repo, clock: manualClock(), key, description: 'test' });
    const secret = JSON.stringify({ 1: 'top-secret-key-one', 2: 'top-secret-key-two' });
    await s.set('scan:a', secret);
    expect(await s.get('scan:a')).toBe(secret);
    const row = await repo.get('scan:a');
    expect(row?.ciphertext).toMatch(/^v1:/);
    expect(row?.ciphertext).not.toContain('top-secret');
    // A row moved to another reference does not decrypt.
    await repo.put('scan:b', 'aes-256-gcm', row!.ciphertext, new Date());
    await expect(s.get('scan:b')).rejects.toThrow(/could not be decrypted/);
    // Nor does one made with another key.
    expect(() => decrypt(keyFromEnv(crypto.randomBytes(32).toString('hex')), 'scan:a', row!.ciphertext!)).toThrow(/could not be decrypted/);
    await s.delete('scan:a');
    expect(await s.get('scan:a')).toBeNull();
  });

  it('is what "auto" picks in the CLI and on the server, with no word about a keychain', async () => {
    const warnings: string[] = [];
    const logger = { ...createLogger({ level: 'error' }), warn: (msg: string) => void warnings.push(msg) };
    for (const shell of ['cli', 'server'] as const) {
      const own = tempDir();
      const opened = await openStore(path.join(own, 'db.sqlite'));
      try {
        const s = await createSecretStore({ shell, choice: 'auto', dataDir: own, givenKey: null, secrets: createSecretsRepo(opened.db), clock: manualClock(new Date()), logger });
        expect(s.backend, shell).toBe('aes-256-gcm');
      } finally {
        await opened.close();
        fs.rmSync(own, { recursive: true, force: true });
      }
    }
    expect(warnings).toEqual([]);
  });

  it('takes PORTCULLIS_SECRET_KEY as hex, base64 or a long passphrase', () => {
    const random = crypto.randomBytes(32);
    expect(keyFromEnv(random.toString('hex'))).toEqual(random);
    expect(keyFromEnv(random.toString('base64'))).toEqual(random);
    const pass = keyFromEnv('correct horse battery staple portcullis test passphrase');
    expect(pass).toHaveLength(32);
    expect(decrypt(pass, 'r', encrypt(pass, 'r', 'x'))).toBe('x');
    expect(() => keyFromEnv('short')).toThrow(/too short/);
  });
});

const hasDbus = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { encoding: 'utf8' }).status === 0;

describe('OS keychain (a real, throw-away gnome-keyring)', () => {
  it.skipIf(!hasDbus)('stores the keys in the keychain, not in SQLite, and scans with them', async () => {
    const script = await bundle('test/scanner/fixtures/keychain-child.ts', 'keychain-child');
    // The keyring's control socket lives in XDG_RUNTIME_DIR, and a socket path longer than 107
    // bytes cannot be bound: under a deep checkout the temp dir is too long, so use /tmp there.
    let home = tempDir('portcullis-keyring-');
    if (path.join(home, 'run', 'keyring', 'control').length > 100) {
      fs.rmSync(home, { recursive: true, force: true });
      home = fs.mkdtempSync('/tmp/pk-');
    }
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      XDG_RUNTIME_DIR: path.join(home, 'run'),
      TMPDIR: process.env.TMPDIR ?? '/tmp',
      // The desktop core starts its import worker: the bundle of it this test run made (test/setup/import-worker.ts).
      ...(process.env.PORTCULLIS_IMPORT_WORKER_FILE ? { PORTCULLIS_IMPORT_WORKER_FILE: process.env.PORTCULLIS_IMPORT_WORKER_FILE } : {}),
    };
    fs.mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
    const dataDir = path.join(home, 'portcullis');
    const res = spawnSync(
      'dbus-run-session',
      ['--', 'sh', '-c', `echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "${process.execPath}" "${script}" "${dataDir}"`],
      { env, cwd: ROOT, encoding: 'utf8', timeout: 45_000 },
    );
    expect(res.status, `${res.error?.message ?? ''}\n${res.stderr}`).toBe(0);
    const out = JSON.parse(res.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(out).toMatchObject({
      backend: 'keychain',
      keychainEntry: true,
      registryCiphertext: null,
      registryBackend: 'keychain',
      status: 'completed',
      dbHasKey: false,
      logHasKey: false,
    });
    expect(out.findings).toBeGreaterThan(0);
    expect(out.requestsWithKey1).toBeGreaterThan(0);
    // The keyring itself lives in the temp HOME, not the machine's.
    expect(fs.readdirSync(path.join(env.XDG_DATA_HOME, 'keyrings')).length).toBeGreaterThan(0);
    fs.rmSync(home, { recursive: true, force: true });
  }, 60_000);
});
