// The "return to the requested page" path the sign-in guard leaves in the router state.

/** Pages that make no sense to come back to after signing in. */
const NO_RETURN = new Set(['/', '/landing', '/login', '/signup', '/register', '/forgot-password', '/recover']);

export interface FromState {
  from?: { pathname?: unknown; search?: unknown; hash?: unknown };
}

/** The in-app path to return to after login, or null; never another origin. */
export function returnPath(state: unknown): string | null {
  const from = (state as FromState | null | undefined)?.from;
  if (!from || typeof from.pathname !== 'string') return null;
  const path = from.pathname;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  if (NO_RETURN.has(path)) return null;
  const search = typeof from.search === 'string' ? from.search : '';
  const hash = typeof from.hash === 'string' ? from.hash : '';
  return path + search + hash;
}
