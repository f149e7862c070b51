// Picks the SecretStore for this shell: the OS keychain on the desktop and in the CLI, AES-256-GCM
// on the team server. "auto" on the desktop/CLI falls back to the encrypted store (with a warning)
// where the keychain cannot be used, e.g. a CI runner without a Secret Service.

import type { Clock } from '../clock';
import type { Shell } from '../config';
import type { Logger } from '../log';
import type { SecretsRepo } from '../store/secrets';
import { createEncryptedStore, keyFromEnv, keyFromFile } from './encrypted';
import { createKeychainStore, keychainUsable } from './keychain';
import type { SecretStore } from './types';

export type SecretStoreChoice = 'auto' | 'keychain' | 'encrypted';

export interface SecretStoreDeps {
  shell: Shell;
  choice: SecretStoreChoice;
  dataDir: string;
  /** PORTCULLIS_SECRET_KEY, if set. */
  envKey: string | undefined;
  secrets: SecretsRepo;
  clock: Clock;
  logger: Logger;
}

function encryptedStore(deps: SecretStoreDeps): SecretStore {
  if (deps.envKey) {
    return createEncryptedStore({ secrets: deps.secrets, clock: deps.clock, key: keyFromEnv(deps.envKey), description: 'AES-256-GCM with PORTCULLIS_SECRET_KEY' });
  }
  const { key, file } = keyFromFile(deps.dataDir, deps.logger);
  return createEncryptedStore({ secrets: deps.secrets, clock: deps.clock, key, description: `AES-256-GCM with the key file ${file}` });
}

export async function createSecretStore(deps: SecretStoreDeps): Promise<SecretStore> {
  const choice = deps.choice === 'auto' ? (deps.shell === 'server' ? 'encrypted' : 'keychain') : deps.choice;
  if (choice === 'encrypted') return encryptedStore(deps);
  if (deps.choice === 'keychain') return createKeychainStore(deps);
  const probe = await keychainUsable();
  if (probe.ok) return createKeychainStore(deps);
  deps.logger.warn('The OS keychain is not available; scan keys are encrypted in the data dir instead', { reason: probe.reason });
  return encryptedStore(deps);
}

/** Removes secrets that no scan refers to any more (their API was deleted, or a newer scan replaced them). */
export async function sweepOrphanSecrets(store: SecretStore, secrets: SecretsRepo, live: Set<string>): Promise<number> {
  let n = 0;
  for (const row of await secrets.list()) {
    if (live.has(row.ref)) continue;
    if ((row.backend === 'keychain') === (store.backend === 'keychain')) await store.delete(row.ref);
    else await secrets.delete(row.ref);
    n += 1;
  }
  return n;
}

export type { SecretStore } from './types';
export { SecretStoreError } from './types';
