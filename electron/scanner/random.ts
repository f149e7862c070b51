// Cheap random tokens for probes (made-up credentials, CORS origins, unique values): drawn from a
// pooled buffer of crypto-random bytes, so a scan does not pay a system call per token.

import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 16 * 1024;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `n` random bytes (a view on the pool: copy it if you keep it past the next call). */
export function randomBytesPooled(n: number): Buffer {
  if (n > POOL_SIZE) return randomFillSync(Buffer.alloc(n));
  if (offset + n > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of letters and digits. */
export function randomAlnum(length: number): string {
  const bytes = randomBytesPooled(length);
  let s = '';
  for (let i = 0; i < length; i += 1) s += ALNUM[bytes[i]! % ALNUM.length];
  return s;
}

export function randomHex(bytes: number): string {
  return randomBytesPooled(bytes).toString('hex');
}

export function randomBase64url(bytes: number): string {
  return randomBytesPooled(bytes).toString('base64url');
}
