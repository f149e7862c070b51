// Runs chosen checks over chosen endpoints of a test target with the real scan runner (no store, no
// core): the check tests of issue #5 use it to scan only what a check needs, so they stay fast.

import { randomUUID } from 'node:crypto';
import type { Endpoint } from '../../shared/contract';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import type { Check } from '../../electron/scanner/checks/types';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan, type ScanOutcome } from '../../electron/scanner/run';
import type { Target } from '../targets';

export interface CheckScan {
  findings: BuiltFinding[];
  outcome: ScanOutcome;
  /** The endpoints that were scanned (not SKIP). */
  endpoints: Endpoint[];
  /** Requests the check sent (requests_by_check). */
  sent(check: Check): number;
  of(check: Check): BuiltFinding[];
}

export interface CheckScanOptions {
  /** Which endpoints to scan ("METHOD /path" as in the spec, or a predicate); default all. */
  only?: string[] | ((e: Endpoint) => boolean);
  key2?: boolean;
  rps?: number;
  concurrency?: number;
  tlsVerify?: boolean;
  /** Use the X-API-Key credentials instead of bearer tokens. */
  apiKeys?: boolean;
}

export async function scanChecks(t: Target, checks: readonly Check[], opts: CheckScanOptions = {}): Promise<CheckScan> {
  const imported = importApiDocument(new TextEncoder().encode(t.specText), { filename: 'acme.yaml' });
  const keep = typeof opts.only === 'function' ? opts.only : opts.only ? (e: Endpoint) => (opts.only as string[]).includes(`${e.method} ${e.path}`) : () => true;
  const endpoints: Endpoint[] = imported.endpoints.map((e, i) => {
    const full: Endpoint = { ...e, id: `e${i}` };
    return keep(full) ? full : { ...full, flags: [...full.flags, 'SKIP'] };
  });
  const findings: BuiltFinding[] = [];
  const seen = new Set<string>();
  const [k1, k2] = opts.apiKeys ? [t.users.alice.apiKey, t.users.bob.apiKey] : [t.users.alice.key, t.users.bob.key];
  const outcome = await runScan(
    {
      scanId: randomUUID(),
      api: { id: 'acme', name: imported.name, baseUrl: t.baseUrl, security: imported.security },
      endpoints,
      keys: { 1: k1, 2: opts.key2 === false ? null : k2 },
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
      options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
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
  return {
    findings,
    outcome,
    endpoints: endpoints.filter((e) => !e.flags.includes('SKIP')),
    sent: (check) => outcome.requestsByCheck[check.id] ?? 0,
    of: (check) => findings.filter((f) => f.check_id === check.id),
  };
}
