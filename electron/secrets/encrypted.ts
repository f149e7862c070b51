// Secrets encrypted with AES-256-GCM for the team server (often headless, no keychain). The key
// comes from PORTCULLIS_SECRET_KEY (32 bytes as hex or base64, or a passphrase stretched with
// scrypt), from a key file the admin keeps outside the data dir (key-source.ts), or from a key file
// created with mode 0600 in the data dir (loopback only for a team server). The ciphertext is bound to
// its reference (AAD), so rows cannot be swapped between scans.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { SecretsRepo } from '../store/secrets';
import { assertStrongKey, assertStrongPassphrase } from './key-strength';
import { SecretStoreError, type SecretStore } from './types';

export const KEY_FILE = 'secret.key';
const VERSION = 'v1';

/** 32 bytes written as hex or base64 (what `openssl rand -hex 32` / `-base64 32` print), else null. */
export function parseKey(value: string): Buffer | null {
  const v = value.trim();
  if (/^[0-9a-f]{64}$/i.test(v)) return Buffer.from(v, 'hex');
  const b64 = /^[A-Za-z0-9+/_-]{43}=?$/.test(v) ? Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64') : null;
  return b64?.length === 32 ? b64 : null;
}

/**
 * A 32-byte key from the environment value: hex or base64 of 32 bytes, else a passphrase (scrypt).
 * A weak one (key-strength.ts) is refused.
 */
export function keyFromEnv(value: string): Buffer {
  const v = value.trim();
  const raw = parseKey(v);
  if (raw) {
    assertStrongKey(raw, 'PORTCULLIS_SECRET_KEY');
    return raw;
  }
  assertStrongPassphrase(v, 'PORTCULLIS_SECRET_KEY');
  return crypto.scryptSync(v, 'portcullis/secret-store/v1', 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
}

/** Reads the key file, creating it (0600) on first use; tightens its mode if someone loosened it. */
export function keyFromFile(dataDir: string, logger?: Logger): { key: Buffer; file: string } {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (process.platform !== 'win32') {
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) {
      fs.chmodSync(file, 0o600);
      logger?.warn('The secret key file was readable by others; its mode is now 0600', { file });
    }
  }
  return { key: readDataDirKey(file), file };
}

/** The data dir's key file as it is (no creation, no chmod): for moving its secrets to a new key. */
export function readDataDirKey(file: string): Buffer {
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new SecretStoreError(`The secret key file ${file} is damaged (expected 32 bytes of base64).`);
  return key;
}

export function encrypt(key: Buffer, ref: string, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(ref, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

export function decrypt(key: Buffer, ref: string, stored: string): string {
  const [version, data] = stored.split(':', 2);
  if (version !== VERSION || !data) throw new SecretStoreError('Unknown secret format.');
  const raw = Buffer.from(data, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(ref, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretStoreError('A stored secret could not be decrypted: the secret key changed or the data was altered.');
  }
}

export function createEncryptedStore(deps: { secrets: SecretsRepo; clock: Clock; key: Buffer; description: string; keyInDataDir?: boolean }): SecretStore {
  return {
    backend: 'aes-256-gcm',
    description: deps.description,
    keyInDataDir: deps.keyInDataDir ?? false,
    async set(ref, value) {
      await deps.secrets.put(ref, 'aes-256-gcm', encrypt(deps.key, ref, value), deps.clock.now());
    },
    async get(ref) {
      const row = await deps.secrets.get(ref);
      if (!row?.ciphertext || row.backend !== 'aes-256-gcm') return null;
      return decrypt(deps.key, ref, row.ciphertext);
    },
    async delete(ref) {
      await deps.secrets.delete(ref);
    },
  };
}
