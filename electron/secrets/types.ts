// The SecretStore: where scan keys live (DESIGN.md section 6). Never SQLite in clear, never logs.

export type SecretBackend = 'keychain' | 'aes-256-gcm';

export interface SecretStore {
  readonly backend: SecretBackend;
  /** Human-readable, for the start-up log ("OS keychain", "encrypted with the key file ..."). */
  readonly description: string;
  /** The key sits in the data dir (a copy of the directory decrypts everything): refused beyond loopback. */
  readonly keyInDataDir: boolean;
  set(ref: string, value: string): Promise<void>;
  /** null when there is no such secret (deleted, or never stored). */
  get(ref: string): Promise<string | null>;
  delete(ref: string): Promise<void>;
}

export class SecretStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreError';
  }
}
