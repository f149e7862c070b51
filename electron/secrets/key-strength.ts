// Refuses at start a secret key too weak to protect the stored scan keys: 32 zero bytes, a key of one
// repeated byte or a counting pattern, a short or repetitive passphrase. What `openssl rand -base64 32`
// prints always passes (docs/decisions.md, "Secret keys strong enough to keep secrets").

import { SecretStoreError } from './types';

export const KEY_HELP =
  'Generate a key with `openssl rand -base64 32` (or `node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'base64\'))"`).';

/** Key material a key or passphrase must have, in bytes. */
export const MIN_KEY_BYTES = 32;
/** The least estimated entropy, in bits, of a key or passphrase. */
export const MIN_KEY_BITS = 128;

/**
 * Shannon entropy of the values' own frequencies, in bits per value, with the Miller–Madow correction:
 * a sample of 32 draws from a large alphabet shows fewer distinct values than the alphabet has, and the
 * plain estimate would call a random 32-character passphrase weak now and then.
 */
function bitsPerSymbol(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / values.length;
    bits -= p * Math.log2(p);
  }
  return bits + (counts.size - 1) / (2 * values.length * Math.LN2);
}

/**
 * An estimate of the entropy of a sequence (a key's bytes, a passphrase's characters): its length times
 * the bits per symbol of the values or of the steps between neighbours, whichever is lower, so that
 * one value repeated, few values, and runs like 0, 1, 2, … or "abcd…abcd…" all score low. It finds
 * weak keys; it does not measure strong ones (32 random bytes score about 150-190 bits, not 256).
 */
export function estimateBits(values: readonly number[]): number {
  const steps: number[] = [];
  for (let i = 1; i < values.length; i += 1) steps.push(values[i]! - values[i - 1]!);
  return values.length * Math.min(bitsPerSymbol(values), bitsPerSymbol(steps));
}

function weakKey(label: string, why: string): SecretStoreError {
  return new SecretStoreError(`${label} is too weak: ${why}. Use 32 random bytes as base64 or hex. ${KEY_HELP}`);
}

/** Throws when a 32-byte key (from base64 or hex) is one repeated byte, or has too little variety. */
export function assertStrongKey(key: Buffer, label: string): void {
  if (key.every((b) => b === key[0])) throw weakKey(label, `its ${key.length} bytes are all the same (0x${key[0]!.toString(16).padStart(2, '0')})`);
  const bits = estimateBits([...key]);
  if (bits < MIN_KEY_BITS) {
    throw weakKey(label, `its bytes repeat a few values or a pattern (about ${Math.floor(bits)} bits of entropy estimated, at least ${MIN_KEY_BITS} are needed)`);
  }
}

/** Throws when a passphrase is shorter than 32 bytes or its estimated entropy is under 128 bits. */
export function assertStrongPassphrase(passphrase: string, label: string): void {
  const bytes = Buffer.byteLength(passphrase, 'utf8');
  if (bytes < MIN_KEY_BYTES) throw weakKey(label, `a passphrase is too short at ${bytes} bytes (at least ${MIN_KEY_BYTES} are needed)`);
  const bits = estimateBits([...passphrase].map((ch) => ch.codePointAt(0)!));
  if (bits < MIN_KEY_BITS) {
    throw weakKey(label, `the passphrase repeats a few characters or a pattern (about ${Math.floor(bits)} bits of entropy estimated, at least ${MIN_KEY_BITS} are needed)`);
  }
}
