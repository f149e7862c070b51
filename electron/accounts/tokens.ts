// Opaque random tokens (sessions, password resets) and the hash under which they are stored.

import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: what the client holds. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps: the SHA-256 of the token, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
