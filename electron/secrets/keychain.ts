// Secrets in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring: N-API, so the same binary loads in Node and Electron.
// The registry table keeps only the reference, so orphans can be found and removed.

import { randomUUID } from 'node:crypto';
import { AsyncEntry } from '@napi-rs/keyring';
import type { Clock } from '../clock';
import type { SecretsRepo } from '../store/secrets';
import { SecretStoreError, type SecretStore } from './types';

export const KEYCHAIN_SERVICE = 'Portcullis';

export function createKeychainStore(deps: { secrets: SecretsRepo; clock: Clock; service?: string }): SecretStore {
  const service = deps.service ?? KEYCHAIN_SERVICE;
  const entry = (ref: string) => new AsyncEntry(service, ref);
  return {
    backend: 'keychain',
    description: 'the OS keychain',
    keyInDataDir: false,
    async set(ref, value) {
      try {
        await entry(ref).setPassword(value);
      } catch (err) {
        throw new SecretStoreError(`Could not store the scan keys in the OS keychain: ${(err as Error).message}`);
      }
      await deps.secrets.put(ref, 'keychain', null, deps.clock.now());
    },
    async get(ref) {
      try {
        return await entry(ref).getPassword();
      } catch (err) {
        throw new SecretStoreError(`Could not read the scan keys from the OS keychain: ${(err as Error).message}`);
      }
    },
    async delete(ref) {
      try {
        await entry(ref).deleteCredential();
      } catch {
        // Already gone, or the keychain is locked: the registry row goes anyway.
      }
      await deps.secrets.delete(ref);
    },
  };
}

/** Whether the OS keychain can store and read a secret here (a headless Linux box often cannot). */
export async function keychainUsable(service = KEYCHAIN_SERVICE): Promise<{ ok: true } | { ok: false; reason: string }> {
  const probe = new AsyncEntry(service, `probe:${randomUUID()}`);
  try {
    await probe.setPassword('probe');
    const back = await probe.getPassword();
    await probe.deleteCredential();
    return back === 'probe' ? { ok: true } : { ok: false, reason: 'the keychain did not return what was stored' };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
