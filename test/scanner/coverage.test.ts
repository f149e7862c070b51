// The coverage ledger (issue 26): a whole scan of the project's vulnerable target accounts for every
// operation, identity and check — the requests each identity sent each operation and how they ended
// add up to what the target received, the header line's numbers are the ledger's, and every check that
// could not exercise an operation says why in the closed list; a scan that reached nothing fails.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionableSkips, COVERAGE_REASONS, coverageHeadline, reachedOperation, summarizeCoverage, type CoverageOperation } from '../../shared/coverage';
import { CHECKS } from '../../electron/scanner/checks/index';
import { runCheckScan, scanChecks, type CheckScan } from '../helpers/check-scan';
import { importApiDocument } from '../../electron/importer/index';
import { startTarget, type Target } from '../targets';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const requestsOf = (op: CoverageOperation) => sum(Object.values(op.identities).map((t) => t.requests));

describe('the coverage ledger of a whole scan of the vulnerable target', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await startTarget({ mode: 'vulnerable' });
    // No second user: the cross-user checks cannot run, and the ledger must say so on their operations.
    s = await scanChecks(t, CHECKS, { key2: false });
  }, 240_000);
  afterAll(() => t?.close());

  it('has one row per scanned operation, with the identities that spoke to it', () => {
    const cov = s.outcome.coverage;
    const imported = cov.operations.filter((o) => !o.discovered);
    expect(imported.map((o) => `${o.method} ${o.path}`).sort()).toEqual(s.endpoints.map((e) => `${e.method} ${e.path}`).sort());
    // Routes found beyond the spec (robots.txt, the page's script) are rows of their own, marked discovered.
    expect(cov.operations.filter((o) => o.discovered).map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(['GET /exports/', 'GET /outbound']));
    expect(cov.summary.identities).toEqual(['key 1', 'anonymous']);
    for (const op of cov.operations) for (const name of Object.keys(op.identities)) expect(cov.summary.identities).toContain(name);
    // The sign-up operation is withheld (sign-up off): a row nothing reached, and the reason.
    const signup = cov.operations.find((o) => o.method === 'POST' && o.path === '/auth/signup')!;
    expect(requestsOf(signup)).toBe(0);
    expect(signup.skipped.every((k) => k.reason === 'signup-off')).toBe(true);
  });

  it('counts the requests the target received for its operations, by status class', () => {
    const cov = s.outcome.coverage;
    const counted = sum(cov.operations.map(requestsOf));
    // Every request to a documented operation is counted; guesses (discovery, old versions) and forged credentials are not.
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(t.requests.count({}));
    for (const op of cov.operations) {
      for (const traffic of Object.values(op.identities)) expect(sum(Object.values(traffic.classes).map((n) => n ?? 0))).toBe(traffic.requests);
    }
    const me = cov.operations.find((o) => o.method === 'GET' && o.path === '/me')!;
    expect(me.identities['key 1']!.classes['2xx']).toBeGreaterThan(0);
    expect(me.identities.anonymous!.classes['4xx']).toBeGreaterThan(0);
  });

  it('has a header line whose numbers are the ledger\'s', () => {
    const cov = s.outcome.coverage;
    const again = summarizeCoverage(cov.operations, cov.summary.identities);
    expect(cov.summary).toEqual(again);
    expect(cov.summary.reached).toBe(cov.operations.filter(reachedOperation).length);
    expect(cov.summary.not_exercised).toBe(cov.operations.filter((o) => actionableSkips(o).length > 0).length);
    expect(sum(cov.summary.reasons.map((r) => r.count))).toBe(sum(cov.operations.map((o) => actionableSkips(o).length)));
    expect(cov.summary.checks_not_run).toBe(new Set(cov.operations.flatMap((o) => actionableSkips(o).map((k) => k.check_id))).size);
    expect(coverageHeadline(cov.summary)).toBe(
      `reached ${cov.summary.reached} of ${cov.summary.operations} operations with a 2xx as some identity; ${cov.summary.not_exercised} operations not exercised by ${cov.summary.checks_not_run} checks`,
    );
  });

  it('says why a check did not exercise an operation, from the closed list', () => {
    const cov = s.outcome.coverage;
    const skips = cov.operations.flatMap((o) => o.skipped.map((k) => ({ ...k, op: `${o.method} ${o.path}` })));
    for (const k of skips) expect(Object.keys(COVERAGE_REASONS)).toContain(k.reason);
    // Without a second identity, the cross-user checks name that reason on the operations they apply to.
    expect(skips.some((k) => k.check_id === 'api1-bola-token-swap' && k.reason === 'needs-second-identity')).toBe(true);
    // A check that found something ran there.
    for (const f of s.findings.filter((x) => CHECKS.find((c) => c.id === x.check_id)?.scope === 'endpoint')) {
      const op = cov.operations.find((o) => o.method === f.method && o.path === f.path);
      if (op) expect(op.found).toContain(f.check_id);
    }
    // A check never both ran and was skipped on one operation.
    for (const o of cov.operations) for (const k of o.skipped) expect(o.ran).not.toContain(k.check_id);
  });
});

describe('the users the scan registers', () => {
  it('share one column of the coverage table', async () => {
    const t = await startTarget({ mode: 'vulnerable' });
    try {
      const s = await scanChecks(t, CHECKS, { key2: false, signup: 'auto', only: (e) => /^\/(auth|me|users)/.test(e.path) });
      const names = s.outcome.coverage.summary.identities;
      expect(names).toContain('registered users');
      expect(names.filter((n) => /^created/.test(n))).toEqual([]);
      expect(names[names.length - 1]).toBe('anonymous');
      const used = new Set(s.outcome.coverage.operations.flatMap((o) => Object.keys(o.identities)));
      expect(used.has('registered users')).toBe(true);
    } finally {
      await t.close();
    }
  }, 240_000);
});

describe('a scan that reaches nothing fails with the likely cause', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ mode: 'hardened' });
  });
  afterAll(() => t?.close());

  async function scanAt(baseUrl: string, key: string) {
    const spec = importApiDocument(new TextEncoder().encode(t.specText), { filename: 'acme.yaml' });
    const few = spec.endpoints.filter((e) => e.method === 'GET').slice(0, 12);
    return runCheckScan({ api: { id: 'acme', name: spec.name, baseUrl, security: spec.security }, endpoints: few, checks: CHECKS, keys: [key, key], opts: { key2: false } });
  }

  it('a wrong base URL: every operation answers the same 404', async () => {
    const r = await scanAt(`${t.url}/wrong/prefix`, t.users.alice.key);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.failureReason).toMatch(/answered 404 .*the base URL .* is probably wrong/);
    expect(r.outcome.coverage.summary.reached).toBe(0);
  }, 120_000);

  it('credentials that do not work: the identities are refused before any check runs', async () => {
    const r = await scanAt(t.baseUrl, 'not-a-valid-token');
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.failureReason).toMatch(/Key 1 was not accepted by the API/);
  }, 120_000);
});
