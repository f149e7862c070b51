// Where the encrypted store's key comes from, decided before the core creates a file or the server
// binds: PORTCULLIS_SECRET_KEY, a key file the admin keeps outside the data dir
// (PORTCULLIS_SECRET_KEY_FILE or `serve --secret-key-file`), or a key file generated in the data dir.
// The last one is refused for a team server that listens beyond loopback: whoever copies that data dir
// would hold both the ciphertexts and their key.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Shell } from '../config';
import type { SecretStoreChoice } from './index';
import { keyFromEnv, parseKey } from './encrypted';
import { assertStrongKey, KEY_HELP } from './key-strength';
import { SecretStoreError } from './types';

/** A key given from outside the data dir (or, on loopback, a key file the admin pointed at inside it). */
export interface GivenKey {
  key: Buffer;
  /** For logs and messages: "PORTCULLIS_SECRET_KEY" or "the key file /etc/portcullis/secret.key". */
  label: string;
  /** The key file, when the key came from one. */
  file?: string;
}


/** Thrown when a team server beyond loopback has no key outside its data dir. */
export class SecretKeyRequiredError extends SecretStoreError {
  constructor(host: string) {
    super(
      `A team server listening on ${host} (beyond loopback) needs its secret key outside the data directory: ` +
        'anyone with a copy of the data directory could otherwise decrypt every stored scan key. ' +
        'Set PORTCULLIS_SECRET_KEY to the key, or keep the key in a file outside the data directory (mode 0600) and ' +
        `pass --secret-key-file <file> (or set PORTCULLIS_SECRET_KEY_FILE). ${KEY_HELP}`,
    );
    this.name = 'SecretKeyRequiredError';
  }
}

/** Thrown when a team server on a shared database (PostgreSQL) has no key given from outside. */
export class SharedKeyRequiredError extends SecretStoreError {
  constructor() {
    super(
      'A team server on PostgreSQL needs its secret key given from outside: every node of the database must decrypt the same ' +
        'stored scan keys, so a key file generated in one node\'s data directory will not do. Set PORTCULLIS_SECRET_KEY to the key ' +
        `on every node, or pass --secret-key-file <file> (or set PORTCULLIS_SECRET_KEY_FILE). ${KEY_HELP}`,
    );
    this.name = 'SharedKeyRequiredError';
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped loopback) and localhost; anything else, 0.0.0.0 and :: included, is not. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (net.isIPv4(h)) return h.split('.')[0] === '127';
  if (net.isIPv6(h)) {
    if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
    // An IPv4-mapped address (::ffff:127.0.0.1) is loopback when its IPv4 part is.
    const mapped = h.startsWith('::ffff:') ? h.slice(7) : '';
    return net.isIPv4(mapped) && mapped.split('.')[0] === '127';
  }
  return false;
}

/** The real path when the target exists, else the resolved one (so a symlinked data dir is recognised). */
function real(target: string): string {
  try {
    return fs.realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

export function isInside(file: string, dir: string): boolean {
  const rel = path.relative(real(dir), real(file));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Reads a key file given by the admin: it must exist, be a regular file readable by its owner only, and hold 32 bytes that are not a weak key. */
export function readGivenKeyFile(file: string): GivenKey {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SecretStoreError(
      code === 'ENOENT'
        ? `The secret key file ${file} does not exist. Create it with \`openssl rand -base64 32 > ${file} && chmod 600 ${file}\`.`
        : `The secret key file ${file} cannot be read (${code ?? (err as Error).message}).`,
    );
  }
  if (!stat.isFile()) throw new SecretStoreError(`The secret key file ${file} is not a file.`);
  if (process.platform !== 'win32' && stat.mode & 0o077) {
    throw new SecretStoreError(
      `The secret key file ${file} is readable by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): run \`chmod 600 ${file}\` and start again.`,
    );
  }
  const key = parseKey(fs.readFileSync(file, 'utf8'));
  if (!key) {
    throw new SecretStoreError(
      `The secret key file ${file} is damaged: it must hold 32 random bytes as base64 or hex (\`openssl rand -base64 32 > ${file}\`).`,
    );
  }
  assertStrongKey(key, `The secret key file ${file}`);
  return { key, label: `the key file ${file}`, file };
}

export interface KeyPlanInput {
  shell: Shell;
  choice: SecretStoreChoice;
  dataDir: string;
  /** PORTCULLIS_SECRET_KEY. */
  envKey: string | undefined;
  /** PORTCULLIS_SECRET_KEY_FILE or --secret-key-file, resolved. */
  keyFile: string | undefined;
  /** The address the team server will bind; undefined for the desktop and the CLI. */
  listenHost: string | undefined;
  /** The store is a database shared by several nodes (PostgreSQL): each must hold the same key. */
  sharedDatabase?: boolean;
}

/** Does this core have to keep its key outside the data dir? A team server, beyond loopback, with the encrypted store. */
export function keyMustLeaveDataDir(input: Pick<KeyPlanInput, 'shell' | 'choice' | 'listenHost'>): boolean {
  if (input.shell !== 'server' || input.listenHost === undefined || isLoopbackHost(input.listenHost)) return false;
  // 'auto' on the team server is the encrypted store; the keychain keeps its keys out of the data dir.
  return input.choice !== 'keychain';
}

/**
 * The key given from outside, or null to use the data dir's own key file. Throws, before anything is
 * created, when the key is missing where it is required, given twice, damaged, or readable by others.
 */
export function planSecretKey(input: KeyPlanInput): GivenKey | null {
  if (input.choice === 'keychain') return null;
  const envKey = input.envKey?.trim() ? input.envKey : undefined;
  if (envKey && input.keyFile) {
    throw new SecretStoreError('Both PORTCULLIS_SECRET_KEY and a secret key file are given: keep one of them.');
  }
  const mustLeave = keyMustLeaveDataDir(input);
  if (envKey) return { key: keyFromEnv(envKey), label: 'PORTCULLIS_SECRET_KEY' };
  if (input.keyFile) {
    if (mustLeave && isInside(input.keyFile, input.dataDir)) {
      throw new SecretStoreError(
        `The secret key file ${input.keyFile} is inside the data directory ${input.dataDir}: a team server listening on ${input.listenHost} ` +
          'needs its key elsewhere (a copy of the data directory would carry the key). Move the file out of the data directory, or use PORTCULLIS_SECRET_KEY.',
      );
    }
    return readGivenKeyFile(input.keyFile);
  }
  if (mustLeave) throw new SecretKeyRequiredError(input.listenHost!);
  if (input.sharedDatabase) throw new SharedKeyRequiredError();
  return null;
}
