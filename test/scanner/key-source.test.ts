// Keys at rest (issue 18, item 7): which key the encrypted store uses, decided before anything is
// created. A team server beyond loopback never keeps its key in the data dir; a key file given by the
// admin must be private (0600), outside the data dir there, and hold 32 bytes.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, keyMustLeaveDataDir, planSecretKey, SecretKeyRequiredError, type KeyPlanInput } from '../../electron/secrets/key-source';
import { tempDir } from '../helpers/core';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const d = tempDir('portcullis-keysrc-');
  dirs.push(d);
  return d;
}

function keyFile(dir: string, mode = 0o600, body = `${crypto.randomBytes(32).toString('base64')}\n`): string {
  const file = path.join(dir, 'portcullis.key');
  fs.writeFileSync(file, body, { mode });
  fs.chmodSync(file, mode);
  return file;
}

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, ::1 and localhost, and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1', 'app.localhost']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '', '10.0.0.5', '192.168.1.2', '::ffff:10.0.0.1', 'portcullis.example.com', '128.0.0.1', 'localhost.example.com']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
});

describe('planSecretKey', () => {
  const base = (over: Partial<KeyPlanInput>): KeyPlanInput => ({
    shell: 'server',
    choice: 'auto',
    dataDir: freshDir(),
    envKey: undefined,
    keyFile: undefined,
    listenHost: '0.0.0.0',
    ...over,
  });

  it('refuses a team server beyond loopback without a key, naming both ways and how to make a key', () => {
    const input = base({});
    expect(() => planSecretKey(input)).toThrow(SecretKeyRequiredError);
    const message = (() => {
      try {
        planSecretKey(input);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toContain('PORTCULLIS_SECRET_KEY');
    expect(message).toContain('--secret-key-file');
    expect(message).toContain('openssl rand -base64 32');
    // Nothing was created.
    expect(fs.readdirSync(input.dataDir)).toEqual([]);
  });

  it('keeps the data dir key on loopback, for the desktop and the CLI, and with the keychain', () => {
    expect(planSecretKey(base({ listenHost: '127.0.0.1' }))).toBeNull();
    expect(planSecretKey(base({ listenHost: '::1' }))).toBeNull();
    expect(planSecretKey(base({ shell: 'desktop', listenHost: undefined }))).toBeNull();
    expect(planSecretKey(base({ shell: 'cli', listenHost: undefined }))).toBeNull();
    expect(planSecretKey(base({ choice: 'keychain' }))).toBeNull();
    expect(keyMustLeaveDataDir({ shell: 'server', choice: 'encrypted', listenHost: '192.168.1.10' })).toBe(true);
    expect(keyMustLeaveDataDir({ shell: 'server', choice: 'auto', listenHost: undefined })).toBe(false);
  });

  it('accepts PORTCULLIS_SECRET_KEY or a private key file outside the data dir', () => {
    const hex = crypto.randomBytes(32);
    expect(planSecretKey(base({ envKey: hex.toString('hex') }))).toMatchObject({ key: hex, label: 'PORTCULLIS_SECRET_KEY' });
    const file = keyFile(freshDir());
    const given = planSecretKey(base({ keyFile: file }));
    expect(given?.file).toBe(file);
    expect(given?.key.equals(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'))).toBe(true);
    // hex works too (openssl rand -hex 32).
    expect(planSecretKey(base({ keyFile: keyFile(freshDir(), 0o600, hex.toString('hex')) }))?.key.equals(hex)).toBe(true);
  });

  it('refuses a key file inside the data dir beyond loopback, and allows it on loopback', () => {
    const dataDir = freshDir();
    const inside = keyFile(dataDir);
    expect(() => planSecretKey(base({ dataDir, keyFile: inside }))).toThrow(/inside the data directory/);
    expect(planSecretKey(base({ dataDir, keyFile: inside, listenHost: '127.0.0.1' }))?.file).toBe(inside);
    // Through a symlink to the data dir as well.
    const link = path.join(freshDir(), 'data-link');
    fs.symlinkSync(dataDir, link);
    expect(() => planSecretKey(base({ dataDir: link, keyFile: inside }))).toThrow(/inside the data directory/);
  });

  it('refuses a key file readable by others (chmod 600), a missing or damaged one, and two keys at once', () => {
    const loose = keyFile(freshDir(), 0o644);
    expect(() => planSecretKey(base({ keyFile: loose }))).toThrow(`run \`chmod 600 ${loose}\``);
    expect(() => planSecretKey(base({ keyFile: keyFile(freshDir(), 0o640) }))).toThrow(/readable by others \(mode 0640\)/);
    expect(() => planSecretKey(base({ keyFile: path.join(freshDir(), 'nope.key') }))).toThrow(/does not exist.*openssl rand -base64 32/);
    expect(() => planSecretKey(base({ keyFile: keyFile(freshDir(), 0o600, 'not a key\n') }))).toThrow(/is damaged/);
    expect(() => planSecretKey(base({ keyFile: keyFile(freshDir(), 0o600, '') }))).toThrow(/is damaged/);
    expect(() => planSecretKey(base({ keyFile: freshDir() }))).toThrow(/is not a file/);
    expect(() => planSecretKey(base({ envKey: 'a'.repeat(64), keyFile: keyFile(freshDir()) }))).toThrow(/keep one of them/);
  });
});
