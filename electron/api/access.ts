// The per-API permission table of spec section 6, enforced by the server on every API-scoped route.

import type { ApiPermission } from '../../shared/constants';
import type { ApiRow } from '../store/apis';
import type { Repos } from '../store/index';
import { forbidden, notFound } from './errors';

/**
 * view: endpoints, history, reports (owner, manage, read)
 * scan: run new scans, set flags (owner, manage)
 * admin: edit details, delete, share, schedule, revoke shares (owner)
 * leave: leave a share (manage, read)
 */
export type Capability = 'view' | 'scan' | 'admin' | 'leave';

const ALLOWED: Record<Capability, ApiPermission[]> = {
  view: ['owner', 'manage', 'read'],
  scan: ['owner', 'manage'],
  admin: ['owner'],
  leave: ['manage', 'read'],
};

export const API_NOT_FOUND = 'API not found.';

export function can(permission: ApiPermission, capability: Capability): boolean {
  return ALLOWED[capability].includes(permission);
}

/**
 * The API and the caller's permission, if the caller may do `capability` on it.
 * 404 when the caller cannot see the API at all (its existence is not revealed); 403 when they can
 * see it but their permission does not allow this.
 */
export async function requireApiAccess(
  repos: Repos,
  userId: string,
  apiId: string,
  capability: Capability,
): Promise<{ api: ApiRow; permission: ApiPermission }> {
  const access = await repos.apis.access(userId, apiId);
  if (!access) throw notFound(API_NOT_FOUND);
  if (!can(access.permission, capability)) throw forbidden();
  return access;
}
