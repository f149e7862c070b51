// Runs chosen checks over chosen endpoints of a test target with the real scan runner (no store, no
// core): the check tests of issue #5 scan only what a check needs, so they stay fast. Findings come
// back as the store would get them, with the outcome's skipped checks and requests by check.

import { randomUUID } from 'node:crypto';
import type { ApiSecurity, Endpoint } from '../../shared/contract';
import { identitiesFromKeys, type IdentityInput, type ScanConfig, scanConfigSchema, type SignupSetting } from '../../shared/identities';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import type { Check } from '../../electron/scanner/checks/types';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan, type ScanOutcome } from '../../electron/scanner/run';
import type { Target } from '../targets';

export interface CheckScan extends CheckScanRun {
  t: Target;
}

export interface CheckScanOptions {
  /** Which endpoints to scan ("METHOD /path" as in the spec, or a predicate); the rest are SKIP. Default all. */
  only?: readonly string[] | ((e: Endpoint) => boolean);
  /** Key 1 instead of alice's. */
  key1?: string;
  /** Key 2 instead of bob's; false or null: no key 2. */
  key2?: string | boolean | null;
  /** Use the X-API-Key credentials instead of bearer tokens. */
  apiKeys?: boolean;
  lowerPrivilegeKey?: 1 | 2;
  /** The scan setting that allows writes to objects the scan did not create (default off). */
  allowExistingObjects?: boolean;
  /** Operations the user named whose destructive requests and probes are allowed (with allowExistingObjects). */
  namedOperations?: string[];
  /** Named identities instead of the two keys. */
  identities?: IdentityInput[];
  /** Let the scan register its own users (default off, so a check test only creates what it asks for). */
  signup?: SignupSetting;
  rps?: number;
  concurrency?: number;
  tlsVerify?: boolean;
  /** The scan's seed (default 0). */
  seed?: number;
}

let imported: { specText: string; name: string; endpoints: Omit<Endpoint, 'id'>[]; security: ApiSecurity } | null = null;

/** The target's spec as the importer reads it (the same in both modes), imported once per process. */
function targetSpec(t: Target): NonNullable<typeof imported> {
  if (imported?.specText !== t.specText) {
    const r = importApiDocument(new TextEncoder().encode(t.specText), { filename: 'acme.yaml' });
    imported = { specText: t.specText, name: r.name, endpoints: r.endpoints, security: r.security };
  }
  return imported;
}

function scanConfigFor(opts: CheckScanOptions, key1: string, key2: string | null): ScanConfig {
  const identities = opts.identities ? scanConfigSchema.parse({ identities: opts.identities }).identities : identitiesFromKeys(key1, key2);
  return { identities, signup: opts.signup ?? 'off' };
}

export async function scanChecks(t: Target, checks: readonly Check[], opts: CheckScanOptions = {}): Promise<CheckScan> {
  const spec = targetSpec(t);
  const [k1, k2] = opts.apiKeys ? [t.users.alice.apiKey, t.users.bob.apiKey] : [t.users.alice.key, t.users.bob.key];
  const run = await runCheckScan({ api: { id: 'acme', name: spec.name, baseUrl: t.baseUrl, security: spec.security }, endpoints: spec.endpoints, checks, keys: [k1, k2], opts });
  return { t, ...run };
}

export interface CheckScanRun {
  findings: BuiltFinding[];
  outcome: ScanOutcome;
  /** The endpoints that were scanned (not SKIP). */
  endpoints: Endpoint[];
  /** Requests the check sent (requests_by_check). */
  sent(check: Check): number;
  /** Findings of one check. */
  of(check: Check | string): BuiltFinding[];
}

/** Scans imported endpoints (those `opts.only` keeps; the rest SKIP) with the real runner, as keys[0] and keys[1] unless opts say otherwise. */
export async function runCheckScan(input: {
  api: { id: string; name: string; baseUrl: string; security: ApiSecurity };
  endpoints: readonly Omit<Endpoint, 'id'>[];
  checks: readonly Check[];
  keys: [string, string];
  opts?: CheckScanOptions;
}): Promise<CheckScanRun> {
  const { checks } = input;
  const opts = input.opts ?? {};
  const only = opts.only;
  const keep = typeof only === 'function' ? only : only ? (e: Endpoint) => only.includes(`${e.method} ${e.path}`) : () => true;
  const endpoints: Endpoint[] = input.endpoints.map((e, i) => {
    const full: Endpoint = { ...e, id: `e${i}`, flags: [...e.flags] };
    return keep(full) ? full : { ...full, flags: [...full.flags, 'SKIP'] };
  });
  const findings: BuiltFinding[] = [];
  const seen = new Set<string>();
  const [k1, k2] = input.keys;
  const key2 = typeof opts.key2 === 'string' ? opts.key2 : opts.key2 === false || opts.key2 === null ? null : k2;
  const outcome = await runScan(
    {
      scanId: randomUUID(),
      api: input.api,
      endpoints,
      identities: scanConfigFor(opts, opts.key1 ?? k1, key2),
      engine: {
        concurrency: opts.concurrency ?? 8,
        rps: opts.rps ?? 0,
        timeoutMs: 15_000,
        retries: 1,
        maxBodyBytes: 1024 * 1024,
        maxRequestsPerScan: 50_000,
        maxRequestsPerEndpoint: 200,
        tlsVerify: opts.tlsVerify ?? true,
        allowLocal: true,
      },
      options: { lowerPrivilegeKey: opts.lowerPrivilegeKey ?? 2, allowExistingObjects: opts.allowExistingObjects ?? false, namedOperations: opts.namedOperations ?? [], seed: opts.seed ?? 0 },
      checks,
      signal: new AbortController().signal,
    },
    {
      progress: () => undefined,
      finding: async (f) => {
        if (seen.has(f.fingerprint)) return false;
        seen.add(f.fingerprint);
        findings.push(f);
        return true;
      },
      logger: createMemoryLogger('warn'),
    },
  );
  const idOf = (c: Check | string) => (typeof c === 'string' ? c : c.id);
  return {
    findings,
    outcome,
    endpoints: endpoints.filter((e) => !e.flags.includes('SKIP')),
    sent: (check) => outcome.requestsByCheck[check.id] ?? 0,
    of: (check) => findings.filter((f) => f.check_id === idOf(check)),
  };
}
