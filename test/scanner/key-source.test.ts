// Keys at rest (issue 18, item 7): which key the encrypted store uses, decided before anything is
// created. A team server beyond loopback never keeps its key in the data dir; a key file given by the
// admin must be private (0600), outside the data dir there, and hold 32 bytes. A weak key (32 zero
// bytes, a pattern, a short or repetitive passphrase) is refused at start (issue 30, item 6).

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, keyMustLeaveDataDir, planSecretKey, SecretKeyRequiredError, type KeyPlanInput } from '../../electron/secrets/key-source';
import { assertStrongPassphrase } from '../../electron/secrets/key-strength';
import { tempDir, TEST_SHARED_SECRET_KEY } from '../helpers/core';

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

  it('refuses weak keys, saying how to make a good one: zero bytes, one byte repeated, a pattern, a short or repetitive passphrase', () => {
    const counting = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
    const fewValues = Buffer.from(Array.from({ length: 32 }, (_, i) => [0x41, 0x42, 0x43, 0x44][i % 4]!));
    const halfZero = Buffer.concat([crypto.randomBytes(16), Buffer.alloc(16)]);
    const weak: [string, RegExp][] = [
      ['00'.repeat(32), /all the same \(0x00\)/],
      [Buffer.alloc(32).toString('base64'), /all the same \(0x00\)/],
      [Buffer.alloc(32, 7).toString('base64'), /all the same \(0x07\)/],
      [counting.toString('hex'), /a few values or a pattern/],
      [fewValues.toString('base64'), /a few values or a pattern/],
      [halfZero.toString('base64'), /a few values or a pattern/],
      ['correct horse battery staple', /too short at 28 bytes \(at least 32/],
      ['hunter2hunter2', /too short/],
      ['password'.repeat(4), /repeats a few characters or a pattern/],
      ['abcdefghijklmnop'.repeat(2), /repeats a few characters or a pattern/],
    ];
    for (const [envKey, why] of weak) {
      const message = (() => {
        try {
          planSecretKey(base({ envKey }));
          return 'accepted';
        } catch (err) {
          return (err as Error).message;
        }
      })();
      expect(message, envKey).toMatch(/^PORTCULLIS_SECRET_KEY is too weak: /);
      expect(message, envKey).toMatch(why);
      expect(message, envKey).toContain('openssl rand -base64 32');
    }
    // The same for a key file (what `--secret-key-file` reads), also on loopback.
    const zeros = keyFile(freshDir(), 0o600, `${Buffer.alloc(32).toString('base64')}\n`);
    expect(() => planSecretKey(base({ keyFile: zeros, listenHost: '127.0.0.1' }))).toThrow(
      new RegExp(`The secret key file ${zeros} is too weak: its 32 bytes are all the same \\(0x00\\).*openssl rand -base64 32`),
    );
  });

  it('keeps accepting what the docs and tests generate: random bytes as base64 or hex, a long passphrase', () => {
    for (let i = 0; i < 200; i += 1) {
      const key = crypto.randomBytes(32);
      expect(planSecretKey(base({ envKey: key.toString(i % 2 ? 'hex' : 'base64') }))?.key.equals(key)).toBe(true);
    }
    // 32 random base64 characters as a passphrase (scrypt is slow: the rule alone, many times).
    for (let i = 0; i < 1000; i += 1) assertStrongPassphrase(crypto.randomBytes(24).toString('base64'), 'PORTCULLIS_SECRET_KEY');
    expect(planSecretKey(base({ envKey: 'correct horse battery staple portcullis test passphrase' }))?.key).toHaveLength(32);
    expect(planSecretKey(base({ envKey: TEST_SHARED_SECRET_KEY }))?.key).toHaveLength(32);
  });
});
