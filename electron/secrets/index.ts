// Picks the SecretStore for this shell: the OS keychain on the desktop, AES-256-GCM on the team server
// and in the CLI (a run's keys live only as long as the run, mostly on CI runners without a Secret
// Service: the keychain would add nothing but a warning). "auto" on the desktop falls back to the
// encrypted store (with a warning) where the keychain cannot be used.

import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock';
import type { Shell } from '../config';
import type { Logger } from '../log';
import type { SecretsRepo } from '../store/secrets';
import { createEncryptedStore, KEY_FILE, keyFromFile } from './encrypted';
import { checkKeyOpensStore, moveOffDataDirKey, refuseNewKeyOverSecrets } from './key-migration';
import { isInside, type GivenKey } from './key-source';
import { createKeychainStore, keychainUsable } from './keychain';
import type { SecretStore } from './types';

export type SecretStoreChoice = 'auto' | 'keychain' | 'encrypted';

export interface SecretStoreDeps {
  shell: Shell;
  choice: SecretStoreChoice;
  dataDir: string;
  /** The key from PORTCULLIS_SECRET_KEY or a key file (planSecretKey); null: the data dir's own key file. */
  givenKey: GivenKey | null;
  secrets: SecretsRepo;
  clock: Clock;
  logger: Logger;
}

async function encryptedStore(deps: SecretStoreDeps): Promise<SecretStore> {
  const dataDirKey = path.join(deps.dataDir, KEY_FILE);
  const given = deps.givenKey;
  // A key file the admin pointed at inside the data dir (allowed on loopback only) is no move.
  if (given && !(given.file && isInside(given.file, deps.dataDir))) {
    if (fs.existsSync(dataDirKey)) await moveOffDataDirKey({ secrets: deps.secrets, oldFile: dataDirKey, given, logger: deps.logger });
    else await checkKeyOpensStore({ secrets: deps.secrets, key: given.key, label: given.label, logger: deps.logger });
    deps.logger.info(`Stored secrets are encrypted with ${given.label}`);
    return createEncryptedStore({ secrets: deps.secrets, clock: deps.clock, key: given.key, description: `AES-256-GCM with ${given.label}`, keyInDataDir: false });
  }
  if (given) {
    await checkKeyOpensStore({ secrets: deps.secrets, key: given.key, label: given.label, logger: deps.logger });
    deps.logger.info(`Stored secrets are encrypted with ${given.label}, inside the data directory`);
    return createEncryptedStore({ secrets: deps.secrets, clock: deps.clock, key: given.key, description: `AES-256-GCM with ${given.label}`, keyInDataDir: true });
  }
  if (!fs.existsSync(dataDirKey)) await refuseNewKeyOverSecrets(deps.secrets);
  const { key, file } = keyFromFile(deps.dataDir, deps.logger);
  await checkKeyOpensStore({ secrets: deps.secrets, key, label: `the key file ${file}`, logger: deps.logger });
  // Fine on one machine; a team server beyond loopback refuses this (planSecretKey).
  deps.logger.info('Stored secrets are encrypted with a key file in the data directory; to serve beyond loopback, give PORTCULLIS_SECRET_KEY or --secret-key-file', { file });
  return createEncryptedStore({ secrets: deps.secrets, clock: deps.clock, key, description: `AES-256-GCM with the key file ${file}`, keyInDataDir: true });
}

export async function createSecretStore(deps: SecretStoreDeps): Promise<SecretStore> {
  const choice = deps.choice === 'auto' ? (deps.shell === 'desktop' ? 'keychain' : 'encrypted') : deps.choice;
  if (choice === 'encrypted') return encryptedStore(deps);
  if (deps.choice === 'keychain') return createKeychainStore(deps);
  const probe = await keychainUsable();
  if (probe.ok) return createKeychainStore(deps);
  deps.logger.warn('The OS keychain is not available; scan keys are encrypted in the data dir instead', { reason: probe.reason });
  return encryptedStore(deps);
}

/** The reference prefix of a scan's keys (`scan:<id>`); other secrets (two-factor `totp:`) belong to users. */
export const SCAN_SECRET_PREFIX = 'scan:';

const ACCOUNTS_SUFFIX = ':accounts';

/**
 * Where the users a scan registered are kept with their passwords (`scan:<id>:accounts`): apart from
 * its keys, which a newer scan takes over, because these accounts stay on the target as long as the
 * scan is listed.
 */
export function scanAccountsRef(scanId: string): string {
  return `${SCAN_SECRET_PREFIX}${scanId}${ACCOUNTS_SUFFIX}`;
}

/** The scan a `scan:<id>:accounts` reference belongs to, or null for any other reference. */
export function scanIdOfAccountsRef(ref: string): string | null {
  return ref.startsWith(SCAN_SECRET_PREFIX) && ref.endsWith(ACCOUNTS_SUFFIX) ? ref.slice(SCAN_SECRET_PREFIX.length, -ACCOUNTS_SUFFIX.length) || null : null;
}

/**
 * Removes scan keys that no scan refers to any more (their API was deleted, or a newer scan replaced
 * them), and the created users of scans that are gone (`scanExists` says which are not). Only scan
 * secrets: a user's two-factor secret is not in `live` and must never be swept. With `storedBefore`,
 * keys stored since are kept: on a shared database another node may have stored a new scan's key and
 * not yet written the scan that refers to it.
 */
export async function sweepOrphanSecrets(
  store: SecretStore,
  secrets: SecretsRepo,
  live: Set<string>,
  storedBefore?: Date,
  scanExists: (scanId: string) => Promise<boolean> = () => Promise.resolve(true),
): Promise<number> {
  let n = 0;
  const before = storedBefore?.toISOString();
  for (const row of await secrets.list()) {
    if (!row.ref.startsWith(SCAN_SECRET_PREFIX) || live.has(row.ref)) continue;
    if (before !== undefined && row.created_at >= before) continue;
    const accountsOf = scanIdOfAccountsRef(row.ref);
    if (accountsOf !== null && (await scanExists(accountsOf))) continue;
    if ((row.backend === 'keychain') === (store.backend === 'keychain')) await store.delete(row.ref);
    else await secrets.delete(row.ref);
    n += 1;
  }
  return n;
}

export type { SecretStore } from './types';
export { SecretStoreError } from './types';
