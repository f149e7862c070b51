// Coverage for CI (issue 26): `portcullis scan` prints the header line and the commonest reasons with
// their fix, writes the ledger into findings.json, and `--min-coverage` fails a run (exit 2, with the
// reason) that reached fewer operations than asked — here the hardened target with one user, whose
// admin routes refuse it.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coverageHeadline, reachedPercent, summarizeCoverage, type ScanCoverage } from '../../shared/coverage';
import { main } from '../../electron/cli';
import { tempDir } from '../helpers/core';
import { withOutput } from '../helpers/detect';
import { startTarget, type Target } from '../targets';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ t: Target; dir: string; spec: string }> {
  const t = await startTarget({ mode: 'hardened' });
  cleanups.push(() => t.close());
  const dir = tempDir('portcullis-coverage-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const spec = path.join(dir, 'acme.yaml');
  fs.writeFileSync(spec, t.specText);
  return { t, dir, spec };
}

describe('coverage in CI', () => {
  it('prints the header line and reasons, keeps the ledger in findings.json, and fails below --min-coverage', async () => {
    const { t, dir, spec } = await setup();
    const args = ['scan', '--spec', spec, '--key1', t.users.alice.key, '--rps', '0', '--out', dir, '--quiet', '--signup', 'off'];
    const { result: code, stdout } = await withOutput(() => main([...args, '--min-coverage', '100']));
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as { scan: { status: string }; coverage: ScanCoverage };
    expect(report.scan.status).toBe('completed');
    const cov = report.coverage;
    expect(cov.summary).toEqual(summarizeCoverage(cov.operations, cov.summary.identities));
    expect(cov.summary.reached).toBeLessThan(cov.summary.operations);
    // The header line, as the shared helper words it, and the commonest reason with its fix.
    expect(stdout).toContain(`Coverage: ${coverageHeadline(cov.summary)}.`);
    const top = cov.summary.reasons[0]!;
    expect(stdout).toContain(`${top.count} × ${top.label}: ${top.fix}.`);
    // Fewer than 100 % reached: exit 2, saying how many and why.
    expect(code).toBe(2);
    expect(stdout).toMatch(new RegExp(`Coverage below --min-coverage 100%: ${cov.summary.reached} of ${cov.summary.operations} operations \\(${Math.floor(reachedPercent(cov.summary))}%\\)`));
    // At or under what was reached, the same scan passes the gate (its findings decide the exit code).
    const lenient = await withOutput(() => main([...args, '--min-coverage', String(Math.floor(reachedPercent(cov.summary)))]));
    expect(lenient.result).not.toBe(2);
  }, 240_000);

  it('refuses a --min-coverage that is not a percentage', async () => {
    const { t, dir, spec } = await setup();
    const { result: code, stderr } = await withOutput(() => main(['scan', '--spec', spec, '--key1', t.users.alice.key, '--out', dir, '--min-coverage', '120']));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--min-coverage must be a whole number from 0 to 100/);
  });
});
