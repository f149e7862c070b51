// Secrets the server keeps (a saved identity setup's, a failed scan's) go to Configure Scan as
// KEPT_SECRET markers, never as values; the server puts each value back where it was before an
// identity is tested or a scan created. A marker finds its value by its place in the identity (the
// same field of the same identity), and only a value that was a secret there.

import { IDENTITY_MESSAGES } from './messages';
import { configSecretFields, KEPT_SECRET, type ConfigIssue, type IdentityConfig } from './identities';

/** key=value and "key": "value" pairs of a raw login body (as configSecretFields reads them). */
const RAW_PAIR = /(?<![\w-])(["']?)([\w-]+)\1\s*[:=]\s*("?)([^"&,}\s]+)\3/g;

/** The identity with every secret replaced by KEPT_SECRET: whole values, and each secret pair's value in a raw body. */
export function withKeptSecrets(i: IdentityConfig): IdentityConfig {
  const secrets = new Set(configSecretFields(i).map((s) => s.value));
  if (!secrets.size) return i;
  const swap = (v: unknown, key: string | null, top: boolean): unknown => {
    if (typeof v === 'string') {
      if (top && key === 'name') return v;
      if (secrets.has(v.trim())) return KEPT_SECRET;
      if (key === 'body') return v.replace(RAW_PAIR, (whole, q: string, k: string, vq: string, value: string) => (secrets.has(value) ? whole.replace(value, KEPT_SECRET) : whole));
      return v;
    }
    if (Array.isArray(v)) return v.map((x) => swap(x, key, false));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x, k, false)]));
    return v;
  };
  return Object.fromEntries(Object.entries(i).map(([k, v]) => [k, swap(v, k, true)])) as IdentityConfig;
}

/** Does a value hold a kept-secret marker anywhere? */
export function holdsKeptSecret(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(KEPT_SECRET);
  if (Array.isArray(value)) return value.some(holdsKeptSecret);
  if (value && typeof value === 'object') return Object.values(value).some(holdsKeptSecret);
  return false;
}

/** `login.request.json.password` and `login.steps.0.request.json.password` are the same place: one request is step 0. */
function canonical(path: readonly string[]): string {
  const [head, second, ...rest] = path;
  if ((head === 'login' || head === 'cookie') && (second === 'request' || second === 'extract')) return [head, 'steps', '0', second, ...rest].join('.');
  return path.join('.');
}

function leaves(v: unknown, path: string[], out: Map<string, string>): void {
  if (typeof v === 'string') out.set(canonical(path), v);
  else if (Array.isArray(v)) v.forEach((x, n) => leaves(x, [...path, String(n)], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out);
}

function rawPairs(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of body.matchAll(RAW_PAIR)) if (!out.has(m[2]!)) out.set(m[2]!, m[4]!);
  return out;
}

export interface KeptFill {
  /** The identities with their markers replaced (unchanged where there was none). */
  identities: unknown[];
  /** Markers with no kept value at their place ("identities.0.login.request.json.password"). */
  issues: ConfigIssue[];
}

/**
 * Puts the kept secrets of `stored` back in place of the markers in `inputs` (identities as a client
 * sends them): each input identity takes the stored identity of its name, else the one at its index.
 * A marker is filled only with a value that was a secret at the same place; any other marker is an
 * issue, so a marker never reaches an API.
 */
export function fillKeptSecrets(inputs: readonly unknown[], stored: readonly IdentityConfig[], fieldPrefix = 'identities'): KeptFill {
  const issues: ConfigIssue[] = [];
  const byName = new Map(stored.map((s) => [s.name.trim().toLowerCase(), s]));
  const identities = inputs.map((input, n) => {
    if (!holdsKeptSecret(input)) return input;
    const name = input && typeof input === 'object' && typeof (input as { name?: unknown }).name === 'string' ? (input as { name: string }).name.trim().toLowerCase() : '';
    const source = byName.get(name) ?? stored[n];
    const secrets = new Set(source ? configSecretFields(source).map((s) => s.value) : []);
    const kept = new Map<string, string>();
    if (source) leaves(source, [], kept);
    const field = (path: string[]) => [fieldPrefix, ...(fieldPrefix === 'identities' ? [String(n)] : []), ...path].join('.');
    const fill = (v: unknown, path: string[]): unknown => {
      if (typeof v === 'string') {
        if (v === KEPT_SECRET) {
          const value = kept.get(canonical(path));
          if (value !== undefined && secrets.has(value.trim())) return value;
          issues.push({ field: field(path), message: IDENTITY_MESSAGES.keptGone });
          return v;
        }
        if (!v.includes(KEPT_SECRET)) return v;
        // A raw body: each pair whose value is the marker takes the value of the same key in the kept body.
        const keptBody = rawPairs(kept.get(canonical(path)) ?? '');
        let missing = false;
        const out = v.replace(RAW_PAIR, (whole, q: string, k: string, vq: string, value: string) => {
          if (value !== KEPT_SECRET) return whole;
          const was = keptBody.get(k);
          if (was === undefined || !secrets.has(was)) {
            missing = true;
            return whole;
          }
          return whole.replace(KEPT_SECRET, was);
        });
        if (missing || out.includes(KEPT_SECRET)) issues.push({ field: field(path), message: IDENTITY_MESSAGES.keptGone });
        return out;
      }
      if (Array.isArray(v)) return v.map((x, i) => fill(x, [...path, String(i)]));
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, [...path, k])]));
      return v;
    };
    return fill(input, []);
  });
  return { identities, issues };
}
