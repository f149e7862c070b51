// What the inventory checks share: the API's path prefixes, URLs on its origin, and whether a path
// is documented.


import { normalizeTemplate } from '../../resources';
import type { CheckContext } from '../types';


export const ANON = { kind: 'none' } as const;

/** The origin root and every ancestor of the base path ("", "/api", "/api/v2"). */
export function prefixes(ctx: CheckContext): string[] {
  const base = ctx.url('/');
  const segs = base.pathname.split('/').filter(Boolean);
  const out = [''];
  for (let i = 1; i <= segs.length; i += 1) out.push(`/${segs.slice(0, i).join('/')}`);
  return [...new Set(out)];
}

export function originUrl(ctx: CheckContext, path: string): string {
  return `${ctx.url('/').origin}${path}`;
}

/** The full path template of every documented operation (base path included), normalised. */
export function documentedPaths(ctx: CheckContext): Set<string> {
  const basePath = ctx.url('/').pathname.replace(/\/+$/, '');
  // A write route the scan only guessed (an upload found by an empty form) says nothing of what its path answers to a GET.
  return new Set(ctx.allEndpoints.filter((e) => !e.discovered || e.method === 'GET').map((e) => normalizeTemplate(`${basePath}${e.path}`)));
}

export function matchesDocumented(documented: Set<string>, pathname: string): boolean {
  const segs = pathname.replace(/\/+$/, '').split('/');
  for (const t of documented) {
    const ts = t.split('/');
    if (ts.length === segs.length && ts.every((s, i) => s === '{}' || s === segs[i])) return true;
  }
  return false;
}
