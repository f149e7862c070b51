// The test target's OpenAPI document cut down to a few paths, for tests of what surrounds a scan (exit
// codes, baselines, reports) rather than of what a whole scan finds: a scan of every route of the
// hardened target takes 15 s or more, most of it waiting out the target's 429s.

import type { Target } from '../targets';

/**
 * The target's spec (JSON text) with only the paths named (as the spec writes them, under its base
 * path), each with all its operations, so the scan sees no undocumented method where the spec was cut.
 * Throws on a path the spec does not have: a test cannot scan less than it says.
 */
export function specWithPaths(t: Target, keep: readonly string[]): string {
  const spec = structuredClone(t.spec) as { paths: Record<string, unknown> };
  const missing = keep.filter((p) => !(p in spec.paths));
  if (missing.length) throw new Error(`The test target's spec has no path ${missing.join(', ')}.`);
  spec.paths = Object.fromEntries(Object.entries(spec.paths).filter(([p]) => keep.includes(p)));
  return JSON.stringify(spec, null, 2);
}
