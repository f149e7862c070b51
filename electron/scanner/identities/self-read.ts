// Which /me-like read shows the users of a given sign-up. An API may have several sign-ups, each
// with its own users (a service per path prefix, several versions side by side): a user registered
// at /shop/v2/users reads itself at /shop/v2/users/me, not at another prefix's /me. The read that
// shares the longest path with the sign-up is its own.

import type { Endpoint } from '../../../shared/contract';
import { healthCandidates, isMeLike } from './verify';

const segments = (path: string) => path.split('/').filter(Boolean);

function sharedLength(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n]!.toLowerCase() === b[n]!.toLowerCase()) n += 1;
  return n;
}

/**
 * The self read of a sign-up's users: among the /me-like GETs the scan may send, the one whose path
 * shares the most leading segments with the sign-up's (on a tie, the one the identity checks use
 * first); null when the API has none.
 */
export function selfReadFor(signup: Pick<Endpoint, 'path'>, endpoints: readonly Endpoint[]): Endpoint | null {
  const reads = [...healthCandidates(endpoints), ...endpoints].filter((e, i, all) => e.method === 'GET' && isMeLike(e) && all.indexOf(e) === i);
  const own = segments(signup.path);
  let best: Endpoint | null = null;
  let bestShared = -1;
  for (const e of reads) {
    const shared = sharedLength(own, segments(e.path));
    if (shared > bestShared) {
      best = e;
      bestShared = shared;
    }
  }
  return best;
}
