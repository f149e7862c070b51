// Runs scans of the test target with chosen checks and endpoints, straight through the engine
// (no store, no secrets): what the check tests of issue #5 need to stay fast. Findings come back
// as the store would get them, with the outcome's skipped checks and requests by check.

import type { Endpoint } from '../../shared/contract';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import type { Check } from '../../electron/scanner/checks/types';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan, type ScanOutcome } from '../../electron/scanner/run';
import type { ApiSecurity } from '../../shared/contract';
import { onlyFlaws, startTarget, type FlawId, type Target, type TargetOptions } from '../targets';

let imported: { endpoints: Endpoint[]; security: ApiSecurity } | null = null;

/** The target's spec as the importer reads it (the same in both modes), once per process. */
export function targetEndpoints(t: Target): { endpoints: Endpoint[]; security: ApiSecurity } {
  if (!imported) {
    const r = importApiDocument(new TextEncoder().encode(t.specText), { filename: 'acme.yaml' });
    imported = { endpoints: r.endpoints.map((e, i) => ({ ...e, id: `ep${i}` })), security: r.security };
  }
  return { endpoints: imported.endpoints.map((e) => ({ ...e, flags: [...e.flags] })), security: imported.security };
}

export interface CheckScan {
  t: Target;
  findings: BuiltFinding[];
  outcome: ScanOutcome;
  endpoints: Endpoint[];
  /** Findings of one check. */
  of(check: Check | string): BuiltFinding[];
}

export interface ScanOptions {
  /** "METHOD /path" of the endpoints to scan (the rest are SKIP); default all. */
  endpoints?: string[];
  key1?: string;
  /** null: no key 2. */
  key2?: string | null;
  apiKeys?: boolean;
  lowerPrivilegeKey?: 1 | 2;
  concurrency?: number;
}

export async function scanTarget(t: Target, checks: readonly Check[], o: ScanOptions = {}): Promise<CheckScan> {
  const { endpoints: all, security } = targetEndpoints(t);
  const endpoints = all.map((e) => (o.endpoints && !o.endpoints.includes(`${e.method} ${e.path}`) ? { ...e, flags: [...e.flags, 'SKIP' as const] } : e));
  const [k1, k2] = o.apiKeys ? [t.users.alice.apiKey, t.users.bob.apiKey] : [t.users.alice.key, t.users.bob.key];
  const findings = new Map<string, BuiltFinding>();
  const outcome = await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'acme', name: 'Acme', baseUrl: t.baseUrl, security },
      endpoints,
      keys: { 1: o.key1 ?? k1, 2: o.key2 === undefined ? k2 : o.key2 },
      engine: {
        concurrency: o.concurrency ?? 4,
        rps: 0,
        timeoutMs: 15_000,
        retries: 0,
        maxBodyBytes: 1024 * 1024,
        maxRequestsPerScan: 50_000,
        maxRequestsPerEndpoint: 200,
        tlsVerify: true,
        allowLocal: true,
      },
      options: { lowerPrivilegeKey: o.lowerPrivilegeKey ?? 2, allowExistingObjects: false },
      checks,
      signal: new AbortController().signal,
    },
    {
      logger: createMemoryLogger('warn'),
      progress: () => {},
      finding: async (f) => {
        if (findings.has(f.fingerprint)) return false;
        findings.set(f.fingerprint, f);
        return true;
      },
    },
  );
  const list = [...findings.values()];
  return { t, findings: list, outcome, endpoints: endpoints.filter((e) => !e.flags.includes('SKIP')), of: (c) => list.filter((f) => f.check_id === (typeof c === 'string' ? c : c.id)) };
}

/** A target with only these flaws switched on (the hardened twin otherwise). */
export function targetWith(...flaws: FlawId[]): Promise<Target> {
  return startTarget({ mode: 'hardened', flaws: onlyFlaws(...flaws) });
}

export function hardened(options: Partial<TargetOptions> = {}): Promise<Target> {
  return startTarget({ mode: 'hardened', ...options });
}

/** "name | METHOD path | confidence" lines, sorted, for readable assertions. */
export const summary = (fs: BuiltFinding[]) => fs.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path}`).sort();

export const MEDIUM_OR_HIGHER = ['medium', 'high'];

/** Every finding proves itself the way SCANNER.md asks: confidence, Method/Path lines, the exchanges, a curl command, no key. */
export function expectWellFormed(s: CheckScan, findings: BuiltFinding[]): void {
  const keys = [s.t.users.alice.key, s.t.users.bob.key, s.t.users.admin.key, s.t.users.alice.apiKey, s.t.users.bob.apiKey];
  for (const f of findings) {
    if (!MEDIUM_OR_HIGHER.includes(f.confidence)) throw new Error(`${f.check_id} ${f.method} ${f.path}: confidence ${f.confidence}`);
    const head = `Method: ${f.method}\nPath: ${f.path}\n`;
    if (!f.evidence.startsWith(head)) throw new Error(`${f.check_id}: evidence does not start with Method/Path:\n${f.evidence.slice(0, 200)}`);
    if (!/== .+ ==\n> [A-Z]+ \//.test(f.evidence) || !/< HTTP \d{3}/.test(f.evidence)) throw new Error(`${f.check_id}: evidence lacks an exchange`);
    if (!f.curl.startsWith('curl -i -X ')) throw new Error(`${f.check_id}: no curl command`);
    if (!/^CVSS:3\.1\//.test(f.cvss_vector ?? '') || !(f.cvss_score >= 0) || !/^CWE-\d+$/.test(f.cwe ?? '') || !f.references.length) throw new Error(`${f.check_id}: metadata`);
    for (const k of keys) if (f.evidence.includes(k) || f.curl.includes(k) || f.description.includes(k)) throw new Error(`${f.check_id}: a key leaked into the finding`);
  }
}

/** What each check sent stays within its budget: per endpoint it applies to, or per scan for API-wide checks. */
export function expectWithinBudget(s: CheckScan, checks: readonly Check[]): void {
  for (const c of checks) {
    const applicable = s.endpoints.filter((e) => c.appliesTo(e)).length;
    const limit = c.scope === 'api' ? c.budget : c.budget * applicable;
    const used = s.outcome.requestsByCheck[c.id] ?? 0;
    if (used > limit) throw new Error(`${c.id} sent ${used} requests, budget ${limit}`);
  }
}

/** A scan of any loopback API (a small server written by a test) with the given endpoints. */
export async function scanServer(
  baseUrl: string,
  endpoints: Omit<Endpoint, 'id'>[],
  checks: readonly Check[],
  keys: { 1: string; 2?: string | null },
  security: ApiSecurity = { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] },
): Promise<{ findings: BuiltFinding[]; outcome: ScanOutcome }> {
  const findings: BuiltFinding[] = [];
  const outcome = await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'custom', name: 'Custom', baseUrl, security },
      endpoints: endpoints.map((e, i) => ({ ...e, id: `c${i}` })),
      keys,
      engine: { concurrency: 4, rps: 0, timeoutMs: 5_000, retries: 0, maxBodyBytes: 1024 * 1024, maxRequestsPerScan: 5_000, maxRequestsPerEndpoint: 200, tlsVerify: true, allowLocal: true },
      options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
      checks,
      signal: new AbortController().signal,
    },
    { logger: createMemoryLogger('warn'), progress: () => {}, finding: async (f) => (findings.push(f), true) },
  );
  return { findings, outcome };
}

/** An endpoint as the importer would store it, for hand-written test APIs. */
export function endpoint(method: string, path: string, over: Partial<Omit<Endpoint, 'id'>> = {}): Omit<Endpoint, 'id'> {
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1]!, in: 'path' as const, required: true, schema: { type: 'string' } }));
  return {
    method,
    path,
    summary: `${method} ${path}`,
    flags: ['BOLA', 'BKEN_AUTH', 'BOPLA', 'BFLA', 'SEC_MISC', 'IIM'],
    operation_id: null,
    tags: [],
    parameters: params,
    request_body: null,
    responses: { '200': { description: 'ok', content_type: 'application/json', schema: null } },
    security: null,
    ...over,
  };
}
