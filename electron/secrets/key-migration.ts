// The encrypted store's key checks at start-up. Moving off the data dir's key file: when a key is now
// given from outside (PORTCULLIS_SECRET_KEY or a key file) and the data dir still holds secret.key,
// every stored secret is re-encrypted with the new key in one transaction, then the old key file is
// deleted. A crash in between is safe: rows that already decrypt with the new key are kept as they
// are, and the next start deletes the file. And a key that opens none of the stored secrets is refused
// rather than used: with it every scan key and two-factor secret would be lost at once.

import fs from 'node:fs';
import type { Logger } from '../log';
import type { SecretsRepo } from '../store/secrets';
import { decrypt, encrypt, readDataDirKey } from './encrypted';
import type { GivenKey } from './key-source';
import { SecretStoreError } from './types';

const BACKEND = 'aes-256-gcm';

function opens(key: Buffer, ref: string, ciphertext: string): boolean {
  try {
    decrypt(key, ref, ciphertext);
    return true;
  } catch {
    return false;
  }
}

/** Re-encrypts the secrets of the data dir's key file with the given key, then deletes that file. */
export async function moveOffDataDirKey(deps: { secrets: SecretsRepo; oldFile: string; given: GivenKey; logger: Logger }): Promise<number> {
  const { oldFile, given } = deps;
  let oldKey: Buffer;
  try {
    oldKey = readDataDirKey(oldFile);
  } catch (err) {
    throw new SecretStoreError(
      `${(err as Error).message} The stored secrets cannot be moved to ${given.label}: restore the file from a backup, ` +
        'or delete it if the secrets were already encrypted with the new key.',
    );
  }
  const rewritten = oldKey.equals(given.key)
    ? 0
    : await deps.secrets.rewriteCiphertexts(BACKEND, (ref, ciphertext) => {
        if (opens(given.key, ref, ciphertext)) return null;
        if (!opens(oldKey, ref, ciphertext)) {
          throw new SecretStoreError(
            `The stored secret ${ref} decrypts with neither ${oldFile} nor ${given.label}: nothing was changed and ${oldFile} is kept.`,
          );
        }
        return encrypt(given.key, ref, decrypt(oldKey, ref, ciphertext));
      });
  fs.rmSync(oldFile, { force: true });
  deps.logger.warn(`Stored secrets re-encrypted with ${given.label}; the key file in the data directory was deleted`, {
    count: rewritten,
    file: oldFile,
  });
  return rewritten;
}

/** Refuses a key that opens none of the stored secrets; warns when it opens only some. */
export async function checkKeyOpensStore(deps: { secrets: SecretsRepo; key: Buffer; label: string; logger: Logger }): Promise<void> {
  const rows = await deps.secrets.ciphertexts(BACKEND);
  if (rows.length === 0) return;
  const failed = rows.filter((r) => !opens(deps.key, r.ref, r.ciphertext)).length;
  if (failed === rows.length) {
    throw new SecretStoreError(
      `None of the ${rows.length} stored secrets decrypt with ${deps.label}: it is not the key they were encrypted with. ` +
        'Start with that key (PORTCULLIS_SECRET_KEY or --secret-key-file). If it is lost, see "Keys at rest" in docs/decisions.md.',
    );
  }
  if (failed > 0) deps.logger.warn(`Some stored secrets do not decrypt with ${deps.label}; scans that need them will fail`, { count: failed, of: rows.length });
}

/** Before a new key file is generated in the data dir: stored secrets mean their key was given before and is missing now. */
export async function refuseNewKeyOverSecrets(secrets: SecretsRepo): Promise<void> {
  const rows = await secrets.ciphertexts(BACKEND);
  if (rows.length === 0) return;
  throw new SecretStoreError(
    `The data directory holds ${rows.length} encrypted secrets but no key for them: they were encrypted with PORTCULLIS_SECRET_KEY ` +
      'or a key file that is not given now. Start with that key (PORTCULLIS_SECRET_KEY or --secret-key-file). ' +
      'If it is lost, see "Keys at rest" in docs/decisions.md.',
  );
}
