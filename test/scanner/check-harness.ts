// What the check tests share besides the scan runner (test/helpers/check-scan.ts): targets with
// chosen flaws, the proof and budget assertions, and scans of small hand-written APIs.

import type { ApiSecurity, Endpoint } from '../../shared/contract';
import { identitiesFromKeys, type SignupSetting } from '../../shared/identities';
import { createMemoryLogger } from '../../electron/log';
import type { Check } from '../../electron/scanner/checks/types';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan, type ScanOutcome } from '../../electron/scanner/run';
import type { CheckScan } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type FlawId, type Target, type TargetOptions } from '../targets';

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
    if (!isSingleCurl(f.curl) && !isCurlSequence(f.curl)) throw new Error(`${f.check_id}: no curl command`);
    if (!/^CVSS:3\.1\//.test(f.cvss_vector ?? '') || !(f.cvss_score >= 0) || !/^CWE-\d+$/.test(f.cwe ?? '') || !f.references.length) throw new Error(`${f.check_id}: metadata`);
    for (const k of keys) if (f.evidence.includes(k) || f.curl.includes(k) || f.description.includes(k)) throw new Error(`${f.check_id}: a key leaked into the finding`);
    // The proof a replay must show again: a step of the curl text, a status, and a marker with no key in it.
    const steps = isCurlSequence(f.curl) ? f.curl.split('\n').filter((l) => /^# \d+\. /.test(l)).length : 1;
    if (!f.proof || f.proof.step < 1 || f.proof.step > steps || !f.proof.status.length) throw new Error(`${f.check_id}: proof ${JSON.stringify(f.proof)}`);
    if (steps > 1 && !f.curl.split('\n').some((l) => l.startsWith(`# ${f.proof!.step}. `) && l.endsWith(' <- the proof'))) throw new Error(`${f.check_id}: the proof is not the step marked as the proof`);
    if (f.proof.marker !== null && keys.some((k) => f.proof!.marker!.includes(k))) throw new Error(`${f.check_id}: a key leaked into the proof`);
  }
}

/** One curl command, after comment lines: a forged token's recipe and the `TOKEN=$(...)` step that builds it, or what an out-of-band proof's variable holds. */
export function isSingleCurl(text: string): boolean {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => !l.startsWith('#'));
  const command = lines[at]?.startsWith('TOKEN=$(') ? lines.slice(at + 1) : lines.slice(at);
  // Comment lines may come first: a forged token's recipe, or what an out-of-band proof's variable holds.
  return at >= 0 && command.join('\n').startsWith('curl -i -X ');
}

/** A numbered list of steps (a stateful finding's reproduction), each one comment line and one curl command. */
export function isCurlSequence(text: string): boolean {
  const lines = text.split('\n');
  if (!lines[0]!.startsWith('# Run these steps in order')) return false;
  const steps = lines.filter((l) => /^# \d+\. /.test(l));
  const commands = lines.filter((l) => /^([A-Z_0-9]+=\$\()?curl -[is] -X [A-Z]+ /.test(l));
  return steps.length >= 2 && steps.length === commands.length && steps.every((l, i) => l.startsWith(`# ${i + 1}. `));
}

/** What each check sent stays within its budget: per endpoint it ran on, or per scan for API-wide checks. */
export function expectWithinBudget(s: CheckScan, checks: readonly Check[]): void {
  for (const c of checks) {
    const ran = s.outcome.checksRun.find((r) => r.check_id === c.id);
    const limit = c.scope === 'api' ? c.budget : c.budget * (ran?.endpoints.length ?? s.endpoints.filter((e) => c.appliesTo(e)).length);
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
  /** Sign-up on lets the checks send to operations that register users (off: they get no request). */
  signup: SignupSetting = 'off',
): Promise<{ findings: BuiltFinding[]; outcome: ScanOutcome }> {
  const findings: BuiltFinding[] = [];
  const outcome = await runScan(
    {
      scanId: `scan-${Math.random().toString(36).slice(2)}`,
      api: { id: 'custom', name: 'Custom', baseUrl, security },
      endpoints: endpoints.map((e, i) => ({ ...e, id: `c${i}` })),
      ...(signup === 'off' ? { keys } : { identities: { identities: identitiesFromKeys(keys[1], keys[2] ?? null), signup } }),
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
