// A whole scan with every registered check: the hardened twin, over HTTP and HTTPS, yields no
// finding above info, every check keeps to its budget, and the target never breaks (issue #5).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../electron/scanner/checks/index';
import type { Target } from '../targets';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import { expectWellFormed, expectWithinBudget, hardened } from './check-harness';

describe.each([
  ['HTTP', false],
  ['HTTPS', true],
])('a whole scan of the hardened twin over %s', (_label, tls) => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await hardened({ tls });
    // Every role, so the role checks run too; sign-up on, so the account checks have users of their own.
    const identities = [
      { name: 'alice', token: t.users.alice.key },
      { name: 'bob', token: t.users.bob.key },
      { name: 'admin', role: 'privileged' as const, token: t.users.admin.key },
      { name: 'carol', role: 'lower' as const, token: t.users.carol.key },
    ];
    s = await scanChecks(t, CHECKS, { tlsVerify: false, signup: 'auto', identities });
  }, 150_000);
  afterAll(() => t?.close());

  it('completes, runs every check that applies, and breaks nothing at the target', () => {
    expect(s.outcome.status).toBe('completed');
    expect(s.outcome.skipped).toEqual([]);
    // The GraphQL checks do not apply to a REST API (and are not listed as skipped either).
    const rest = CHECKS.filter((c) => (c.protocols ?? ['rest']).includes('rest'));
    expect(s.outcome.checksRun.length).toBeGreaterThanOrEqual(rest.length - 2);
    expect(s.outcome.checksRun.length).toBeLessThanOrEqual(rest.length);
    expect(t.internalErrors).toEqual([]);
  });

  it('yields no finding above info', () => {
    expect(s.findings.filter((f) => f.severity !== 'info').map((f) => `${f.check_id} ${f.method} ${f.path}: ${f.vulnerability_name}`)).toEqual([]);
  });

  it('keeps every check within its budget', () => {
    expectWithinBudget(s, CHECKS);
    const info = s.findings;
    if (info.length) expectWellFormed(s, info.filter((f) => f.confidence !== 'low'));
  });
});
