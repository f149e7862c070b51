// The singular or plural twin of a documented collection: an API that documents POST /user and
// GET /user/{id} often also answers GET /users (a listing the description leaves out, frequently an
// administrative one), and one that documents /users/{id} may answer /user (the caller's own record).
// Names only: each candidate is kept by the discovery phase only when it answers unlike not-found.

import { otherNumber } from '../checks/api9-inventory/discovery-paths';

/** Path words that name an action or a session step, not a collection of objects. */
const ACTION_WORD =
  /^(login|logout|log-?in|log-?out|sign-?in|sign-?up|sign-?out|signin|signup|register|registration|verify|verification|reset|refresh|token|tokens|oauth|auth|authorize|callback|me|self|search|details|info|status|health|ping|version|flag|key|otp|confirm|activate|upload|download|export|import|api|v\d+|graphql)$/i;

export interface SiblingCandidate {
  /** The sibling collection's path on the origin ("/api/users"). */
  path: string;
  /** The documented operation it was derived from ("POST /api/user"). */
  of: string;
}

/**
 * The sibling collections of documented ones: a literal segment followed by a path parameter
 * (/user/{id}) or ending a create (POST /user), with its other number. Paths are on the origin
 * (`basePath` prefixed); at most `max`, in the order the operations come. The discovery phase drops
 * those whose GET is documented.
 */
export function siblingCollections(operations: readonly { method: string; path: string }[], basePath: string, max: number): SiblingCandidate[] {
  const out = new Map<string, SiblingCandidate>();
  for (const o of operations) {
    const segs = o.path.replace(/\/+$/, '').split('/');
    for (let i = 1; i < segs.length; i += 1) {
      const seg = segs[i]!;
      if (!seg || seg.includes('{')) continue;
      const next = segs[i + 1];
      const collection = (next !== undefined && next.startsWith('{')) || (next === undefined && o.method.toUpperCase() === 'POST');
      if (!collection) continue;
      const other = ACTION_WORD.test(seg) ? null : otherNumber(seg);
      if (!other || other === seg) continue;
      const path = `${basePath}${[...segs.slice(0, i), other].join('/')}`;
      if (out.has(path)) continue;
      out.set(path, { path, of: `${o.method.toUpperCase()} ${o.path}` });
      if (out.size >= max) return [...out.values()];
    }
  }
  return [...out.values()];
}
