// Random values of a scan. Two sources:
// - crypto: values that must stay unpredictable (passwords the scan sets on its own accounts) or unique
//   across scans (markers and names stored on the target, out-of-band tokens), drawn from a pooled
//   buffer of crypto-random bytes so a scan does not pay a system call per token;
// - seeded: the probe values and choices a check makes (made-up credentials, CORS origins, ids that do
//   not exist, guessed codes), from the scan's seed, one stream per check and operation, so a scan run
//   with the same seed sends the same values whatever order its tasks finish in (docs/decisions.md).

import { createHash, randomFillSync, randomInt } from 'node:crypto';
import { SCAN_SEED_MAX } from '../../shared/constants';

const POOL_SIZE = 16 * 1024;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `n` crypto-random bytes (a view on the pool: copy it if you keep it past the next call). */
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

function alnumOf(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += ALNUM[b % ALNUM.length];
  return s;
}

/** A crypto-random string of letters and digits. */
export function randomAlnum(length: number): string {
  return alnumOf(randomBytesPooled(length));
}

export function randomHex(bytes: number): string {
  return randomBytesPooled(bytes).toString('hex');
}

export function randomBase64url(bytes: number): string {
  return randomBytesPooled(bytes).toString('base64url');
}

/** A new scan seed, when the user gave none. */
export function newScanSeed(): number {
  return randomInt(0, SCAN_SEED_MAX + 1);
}

/** Probe values and choices of one check on one operation, reproducible from the scan's seed. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** The stream of `label` (a check and an operation) under `seed`. */
  constructor(
    private readonly seed: number,
    private readonly label: string,
  ) {
    const h = createHash('sha256').update(`portcullis-seed:${seed}:${label}`).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
  }

  /**
   * A stream of its own for one item of work that runs alongside others (an endpoint of an API-wide
   * check): its values do not depend on which item happened to draw first.
   */
  fork(item: string): SeededRandom {
    return new SeededRandom(this.seed, `${this.label}/${item}`);
  }

  /** The next 32 bits (sfc32: small, fast and well mixed; not for secrets). */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.uint32();
      for (let j = 0; j < 4 && i + j < n; j += 1) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  }

  /** A whole number from min to max, both included. */
  int(min: number, max: number): number {
    const span = max - min + 1;
    // Two draws cover spans past 2^32 (a 6-digit code space, say) without bias worth minding.
    const r = span > 2 ** 32 ? this.uint32() * 2 ** 21 + (this.uint32() >>> 11) : this.uint32();
    return min + (r % span);
  }

  alnum(length: number): string {
    return alnumOf(this.bytes(length));
  }

  hex(bytes: number): string {
    return this.bytes(bytes).toString('hex');
  }

  base64url(bytes: number): string {
    return this.bytes(bytes).toString('base64url');
  }
}
