// The credential of the GraphQL endpoint form as a one-off identity of the Configure Scan shape
// (shared/identities.ts identitySchema), for POST /api/import/graphql.

import type { IdentityInput } from '../../../shared/identities';

/** The header name rule of shared/identities.ts (placementSchema). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/;

export function isHeaderName(value: string): boolean {
  return HEADER_NAME.test(value);
}

/**
 * The token in the Authorization header as "Bearer <token>" (a pasted "Bearer " is not doubled), in any
 * other header as it is; null without a token.
 */
export function credentialIdentity(token: string, header: string): IdentityInput | null {
  const name = header.trim() || 'Authorization';
  let key = token.trim();
  const authorization = name.toLowerCase() === 'authorization';
  if (authorization) key = key.replace(/^bearer(\s+|$)/i, '').trim();
  if (!key) return null;
  return { name: 'import', role: 'user', token: key, place: { header: name, value: authorization ? 'Bearer {token}' : '{token}' } };
}
