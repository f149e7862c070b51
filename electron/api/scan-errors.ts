// The scan service's refusals as API answers: its status and message, or 503 for a locked keychain.

import { ScanError } from '../scanner/service';
import { SecretStoreError } from '../secrets/types';
import { ApiError } from './errors';

export function asApiError(err: unknown): never {
  if (err instanceof ScanError) throw new ApiError(err.status, err.message, err.errors);
  // A locked or missing keychain: say so (the message names the keychain error, never a key).
  if (err instanceof SecretStoreError) throw new ApiError(503, err.message);
  throw err;
}
