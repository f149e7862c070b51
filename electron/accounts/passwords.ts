// Password hashing with scrypt (OWASP cost: N=2^17, r=8, p=1), a per-user salt, and a
// constant-time comparison. The parameters travel in the hash so they can be raised later.

import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const OWASP_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
/**
 * For throwaway test servers only (PORTCULLIS_TEST_FAST_HASHING=1): a browser-test run signs up and in
 * hundreds of accounts, each a 128 MB, half-second hash at the OWASP cost. The cost travels in each hash,
 * so hashes made either way verify either way.
 */
export const TEST_SCRYPT_COST: ScryptCost = { N: 2 ** 12, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** "scrypt$N$r$p$salt$hash" with base64url salt and hash. */
export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const cost = { N: Number(parts[1]), r: Number(parts[2]), p: Number(parts[3]) };
  if (![cost.N, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await scrypt(password, Buffer.from(parts[4]!, 'base64url'), cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the same work as a real verification, so an unknown account answers as slowly as a wrong
 * password and response times do not reveal which accounts exist.
 */
export async function burnVerification(password: string, cost: ScryptCost): Promise<void> {
  dummyHash ??= hashPassword('portcullis-timing-equaliser', cost);
  await verifyPassword(password, await dummyHash);
}

/** How many password hashes may run at once, and how many may wait for a turn. */
export interface HashingLimits {
  concurrent: number;
  queued: number;
}

/**
 * A semaphore around the password hashes: at most `concurrent` run (each holds a core for a while),
 * `queued` more wait their turn, and the rest are refused at once with `busy()`, so a flood of
 * sign-ups or guesses cannot make every sign-in wait behind it.
 */
export class HashGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limits: HashingLimits,
    private readonly busy: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limits.concurrent) this.active += 1;
    else if (this.waiting.length < this.limits.queued) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw this.busy();
    try {
      return await work();
    } finally {
      // A waiter takes over this slot; otherwise the slot is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
