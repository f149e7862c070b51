// Keys at rest (issue 18, item 7), in process: every file the core keeps in its data dir is 0600 and
// the directory 0700, looser ones are tightened with a warning; a team server beyond loopback starts
// only with its key outside the data dir; and a data dir that had a generated key moves to the given
// key by re-encrypting its secrets and deleting the old key file.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core, type CoreOptions } from '../../electron/core';
import { createMemoryLogger } from '../../electron/log';
import { writeFileAtomic } from '../../electron/reports/index';
import { KEY_FILE } from '../../electron/secrets/encrypted';
import { startServer } from '../../electron/server';
import { openTransport, signUpAndLogin, tempDir, TEST_SCRYPT } from '../helpers/core';
import { miniApiInput } from '../helpers/mini-api';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const d = tempDir('portcullis-keys-');
  dirs.push(d);
  return d;
}

function open(dataDir: string, over: Partial<CoreOptions> = {}) {
  const log = createMemoryLogger('debug');
  return {
    log,
    core: createCore({ shell: 'server', dataDir, scryptCost: TEST_SCRYPT, allowLocalScans: true, logger: log, ...over }),
  };
}

/** Every entry under dir (itself included) with its permission bits. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': (fs.statSync(dir).mode & 0o777).toString(8) };
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = (fs.statSync(p).mode & 0o777).toString(8);
  }
  return out;
}

const privateOnly = (m: Record<string, string>, dir: string) =>
  Object.fromEntries(Object.entries(m).map(([name, mode]) => [name, fs.statSync(path.join(dir, name)).isDirectory() ? mode === '700' : mode === '600']));

describe('file modes in the data dir', () => {
  it('keeps the database (and its WAL), the key file and the lock 0600 and the directory 0700, and tightens looser ones', async () => {
    const dataDir = path.join(freshDir(), 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const first = open(dataDir);
    const core = await first.core;
    const t = await openTransport('http', core);
    const owner = await signUpAndLogin(t, 'owner');
    const apiId = await core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, 'http://127.0.0.1:9'), new Date());
    const created = await t.call('POST', '/api/scan/create', {
      token: owner.token,
      body: { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: 'scan-key-one', api_key_2: 'scan-key-two' },
    });
    expect(created.status).toBe(201);
    expect((await core.services.repos.secrets.list()).length).toBe(1);
    // While it runs: the WAL and its index exist and are as private as the database.
    const running = modes(dataDir);
    expect(Object.keys(running)).toEqual(expect.arrayContaining(['portcullis.db', 'portcullis.db-wal', 'portcullis.db-shm', KEY_FILE, 'portcullis.lock']));
    expect(privateOnly(running, dataDir), JSON.stringify(running)).toEqual(Object.fromEntries(Object.keys(running).map((k) => [k, true])));
    expect(first.log.lines.join('\n')).toMatch(/data directory was readable by others; its mode is now 0700/);
    await t.close();
    await core.close();

    // An older version (or a restore) left them loose, with a WAL from a crash: tightened at start, each with a warning.
    fs.chmodSync(dataDir, 0o755);
    for (const f of ['portcullis.db', KEY_FILE]) fs.chmodSync(path.join(dataDir, f), 0o644);
    for (const f of ['portcullis.db-wal', 'portcullis.db-shm']) fs.writeFileSync(path.join(dataDir, f), '', { mode: 0o644 });
    const second = open(dataDir);
    const again = await second.core;
    const after = modes(dataDir);
    expect(privateOnly(after, dataDir), JSON.stringify(after)).toEqual(Object.fromEntries(Object.keys(after).map((k) => [k, true])));
    const log = second.log.lines.join('\n');
    // (SQLite itself gives a leftover -wal/-shm the database file's mode once that is tightened.)
    for (const what of ['data directory', 'database file', 'secret key file']) {
      expect(log).toContain(`The ${what} was readable by others`);
    }
    // The secret still decrypts.
    const ref = (await again.services.repos.secrets.list())[0]!.ref;
    expect(await again.services.secrets.get(ref)).toContain('scan-key-one');
    await again.close();
  }, 60_000);
});

describe('report files', () => {
  it('are written 0600, also over an older, looser file', () => {
    const file = path.join(freshDir(), 'report.html');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeFileAtomic(file, Buffer.from('<html>findings</html>'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('<html>findings</html>');
  });
});

describe('a team server beyond loopback', () => {
  it('does not start with its key in the data dir, and starts with PORTCULLIS_SECRET_KEY (no file is created before the refusal)', async () => {
    const dataDir = path.join(freshDir(), 'data');
    await expect(open(dataDir, { listenHost: '0.0.0.0' }).core).rejects.toThrow(/needs its secret key outside the data directory/);
    expect(fs.existsSync(dataDir)).toBe(false);

    const core = await open(dataDir, { listenHost: '0.0.0.0', secretKey: crypto.randomBytes(32).toString('hex') }).core;
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
    expect(core.services.secrets.keyInDataDir).toBe(false);
    await core.close();
  }, 30_000);

  it('does not start with a weak key (32 zero bytes, a short passphrase), before any file is created', async () => {
    const dataDir = path.join(freshDir(), 'data');
    await expect(open(dataDir, { listenHost: '0.0.0.0', secretKey: Buffer.alloc(32).toString('base64') }).core).rejects.toThrow(
      /PORTCULLIS_SECRET_KEY is too weak: its 32 bytes are all the same \(0x00\).*openssl rand -base64 32/,
    );
    await expect(open(dataDir, { secretKey: 'admin-password-1' }).core).rejects.toThrow(/PORTCULLIS_SECRET_KEY is too weak: a passphrase is too short/);
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 30_000);

  it('is not served beyond loopback by a core whose key is in the data dir, even if the core was not told the host', async () => {
    const core = await open(freshDir()).core;
    try {
      expect(core.services.secrets.keyInDataDir).toBe(true);
      // Refused before binding: nothing listens.
      await expect(startServer({ core, host: '0.0.0.0', port: 0 })).rejects.toThrow(/needs its secret key outside the data directory/);
    } finally {
      await core.close();
    }
  }, 30_000);
});

describe('moving a data dir to a given key', () => {
  /** Two scans with keys, as users create them (the start-up sweep keeps only keys a scan refers to). */
  async function storeScanKeys(core: Core): Promise<string[]> {
    const t = await openTransport('ipc', core);
    const owner = await signUpAndLogin(t, 'owner');
    for (const name of ['a', 'b']) {
      const apiId = await core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, 'http://127.0.0.1:9'), new Date());
      const res = await t.call('POST', '/api/scan/create', { token: owner.token, body: { api_id: apiId, scan_profile: 'OWASP_API_10', api_key_1: `key-${name}` } });
      expect(res.status).toBe(201);
    }
    await t.close();
    return (await core.services.repos.secrets.list()).map((r) => r.ref).sort();
  }

  /** The scan key each stored secret holds. */
  const keysOf = async (core: Core, refs: string[]) =>
    (await Promise.all(refs.map(async (ref) => /key-[ab]/.exec((await core.services.secrets.get(ref)) ?? '')?.[0] ?? 'none'))).sort();

  it('re-encrypts the stored secrets with the new key in one go, deletes the old key file, and refuses to run without that key after', async () => {
    const dataDir = freshDir();
    const first = await open(dataDir).core;
    const refs = await storeScanKeys(first);
    expect(refs).toHaveLength(2);
    const before = await first.services.repos.secrets.ciphertexts('aes-256-gcm');
    await first.close();
    const oldKey = fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8');

    const newKey = crypto.randomBytes(32).toString('base64');
    const moved = open(dataDir, { listenHost: '0.0.0.0', secretKey: newKey });
    const core = await moved.core;
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
    expect(await keysOf(core, refs)).toEqual(['key-a', 'key-b']);
    const after = await core.services.repos.secrets.ciphertexts('aes-256-gcm');
    expect(after).toHaveLength(2);
    for (const row of after) expect(before.find((b) => b.ref === row.ref)!.ciphertext).not.toBe(row.ciphertext);
    const log = moved.log.lines.join('\n');
    expect(log).toMatch(/Stored secrets re-encrypted with PORTCULLIS_SECRET_KEY; the key file in the data directory was deleted count=2/);
    expect(log).not.toContain(newKey);
    expect(log).not.toContain(oldKey.trim());
    await core.close();

    // Without the key now: refused, and no new key file is generated over the secrets.
    await expect(open(dataDir).core).rejects.toThrow(/holds 2 encrypted secrets but no key for them/);
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
    // With another key: refused rather than losing every secret.
    await expect(open(dataDir, { secretKey: crypto.randomBytes(32).toString('hex') }).core).rejects.toThrow(/None of the 2 stored secrets decrypt/);
    // The same key from a file outside the data dir works.
    const keyFile = path.join(freshDir(), 'portcullis.key');
    fs.writeFileSync(keyFile, `${newKey}\n`, { mode: 0o600 });
    const fromFile = await open(dataDir, { listenHost: '0.0.0.0', secretKeyFile: keyFile }).core;
    expect(await keysOf(fromFile, refs)).toEqual(['key-a', 'key-b']);
    await fromFile.close();

    // A crash after the commit but before the old file went: the next start only deletes the file.
    fs.writeFileSync(path.join(dataDir, KEY_FILE), oldKey, { mode: 0o600 });
    const resumed = open(dataDir, { secretKey: newKey });
    await (await resumed.core).close();
    expect(resumed.log.lines.join('\n')).toMatch(/deleted count=0/);
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
  }, 60_000);

  it('changes nothing when a secret opens with neither key, and keeps the old key file', async () => {
    const dataDir = freshDir();
    const first = await open(dataDir).core;
    const refs = await storeScanKeys(first);
    // The second one altered (or encrypted with a third key).
    await first.store.db
      .updateTable('secrets')
      .set({ ciphertext: `v1:${crypto.randomBytes(40).toString('base64')}` })
      .where('ref', '=', refs[1]!)
      .execute();
    const before = await first.services.repos.secrets.ciphertexts('aes-256-gcm');
    await first.close();

    await expect(open(dataDir, { secretKey: crypto.randomBytes(32).toString('hex') }).core).rejects.toThrow(
      new RegExp(`${refs[1]} decrypts with neither .* nor PORTCULLIS_SECRET_KEY: nothing was changed`),
    );
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(true);
    const core = await open(dataDir).core;
    expect(await core.services.repos.secrets.ciphertexts('aes-256-gcm')).toEqual(before);
    // The untouched one still opens with the old key.
    expect((await keysOf(core, [refs[0]!]))[0]).toMatch(/^key-[ab]$/);
    await core.close();
  }, 60_000);
});
