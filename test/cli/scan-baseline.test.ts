// `portcullis scan --baseline` (issue 17): CI fails only on findings nobody has looked at. A previous
// run's findings.json makes its findings known (listed, scored, not failed on); a triage export from
// the app sets findings aside exactly as the app does (out of the counts, the score and --fail-on,
// SARIF suppressions); an expired accepted risk counts again; a file that is neither is an error.
// Issue 31: the findings that fail the run are listed one per line on stdout, and known ones are
// recurring (SARIF baselineState "unchanged"), as a rescan in the app has them.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli';
import { tempDir } from '../helpers/core';
import { withOutput } from '../helpers/detect';
import { specWithPaths } from '../helpers/target-spec';
import { onlyFlaws, startTarget, type Target as RunningTarget } from '../targets';

interface Report {
  scan: { score: number };
  summary: Record<string, number>;
  findings: { fingerprint: string; severity: string; cvss_score: number; check_id: string; method: string; path: string; trend: string; vulnerability_name: string; triage: { state: string; reason: string } | null }[];
}

let target: RunningTarget;
let dir: string;
let spec: string;

/** Runs the CLI; `stderr` holds both streams (errors), `stdout` the results alone. */
const run = async (out: string, ...extra: string[]): Promise<{ code: number; stderr: string; stdout: string }> => {
  const { result: code, stdout, stderr } = await withOutput(() => main(['scan', '--spec', spec, '--key1', target.users.alice.key, '--rps', '0', '--out', out, '--quiet', ...extra]));
  return { code, stdout, stderr: stdout + stderr };
};
const read = (out: string): Report => JSON.parse(fs.readFileSync(path.join(out, 'findings.json'), 'utf8')) as Report;
const sub = (name: string) => {
  const d = path.join(dir, name);
  fs.mkdirSync(d);
  return d;
};

beforeAll(async () => {
  // One high (no credentials needed) and one low (a missing header).
  // Every test scans it again: its per-route limit counts over a second, not ten, so a scan does not
  // wait out the 429s of the one before (the scan honours Retry-After, issue 27).
  target = await startTarget({ mode: 'hardened', flaws: onlyFlaws('auth-none', 'missing-nosniff'), rateLimit: { limit: 100, windowMs: 1_000 } });
  dir = tempDir('portcullis-baseline-');
  // The notes alone: a route with each flaw. A whole scan of the hardened target takes a minute once its
  // sign-in limits answer 429 with a Retry-After.
  spec = path.join(dir, 'acme.json');
  fs.writeFileSync(spec, specWithPaths(target, ['/notes', '/notes/{noteId}']));
});
afterAll(async () => {
  await target?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('portcullis scan --baseline', { timeout: 60_000 }, () => {
  let first: Report;
  let firstDir: string;

  it('fails on new findings without a baseline', async () => {
    firstDir = sub('first');
    const { code, stdout } = await run(firstDir, '--fail-on', 'medium');
    expect(code).toBe(1);
    first = read(firstDir);
    expect(first.findings.some((f) => f.severity === 'high')).toBe(true);
    expect(first.findings.some((f) => f.severity === 'low')).toBe(true);
    expect(first.findings.every((f) => f.triage === null && f.trend === 'new')).toBe(true);
    // Why it failed, on stdout: one line per finding at or above medium (level, check, method, path), then the count;
    // a high finding of CVSS 9.0 or more is critical (issue 31).
    const failing = first.findings.filter((f) => f.severity === 'high' || f.severity === 'medium');
    const level = (f: Report['findings'][number]) => (f.severity === 'high' && f.cvss_score >= 9 ? 'critical' : f.severity);
    for (const f of failing) expect(stdout).toContain(`  ${level(f).padEnd(8)} ${f.check_id}  ${f.method} ${f.path}\n`);
    for (const f of first.findings.filter((x) => x.severity === 'low')) expect(stdout).not.toContain(`${f.check_id}  ${f.method} ${f.path}\n`);
    expect(stdout).toContain(`${failing.length} finding${failing.length === 1 ? '' : 's'} at or above medium failed this run.`);
  });

  it("passes when every finding is already in the previous run's findings.json", async () => {
    const out = sub('known');
    const { code, stdout } = await run(out, '--fail-on', 'low', '--baseline', path.join(firstDir, 'findings.json'), '--format', 'sarif');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Not failed on: 0 set aside in triage, \d+ already in the baseline\./);
    expect(stdout).toContain('No new finding at or above low: this run passes.');
    expect(stdout).toContain(' (already in the baseline)\n');
    // Known findings are recurring, and SARIF says so as it does for a rescan in the app.
    expect(read(out).findings.every((f) => f.trend === 'recurring')).toBe(true);
    const sarif = JSON.parse(fs.readFileSync(path.join(out, 'results.sarif'), 'utf8')) as { runs: { results: { baselineState?: string }[] }[] };
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
    expect(sarif.runs[0]!.results.every((r) => r.baselineState === 'unchanged')).toBe(true);
    // Known findings are still listed and scored.
    expect(read(out).findings.map((f) => f.fingerprint).sort()).toEqual(first.findings.map((f) => f.fingerprint).sort());
    expect(read(out).scan.score).toBe(first.scan.score);
  });

  it('sets aside what a triage export marks: out of the counts, the score and --fail-on, suppressed in SARIF', async () => {
    const high = first.findings.filter((f) => f.severity === 'high');
    const exported = {
      format: 'portcullis-triage',
      version: 1,
      api: { id: 'from-the-app', name: 'Acme' },
      exported_at: '2026-11-26T10:00:00.000Z',
      triage: high.map((f) => ({ fingerprint: f.fingerprint, state: 'false_positive', reason: 'Public by design', expires_at: null, set_by: 'ada', set_at: '2026-11-26T09:00:00.000Z' })),
    };
    const file = path.join(dir, 'triage.json');
    fs.writeFileSync(file, JSON.stringify(exported));
    const out = sub('triaged');
    const { code, stderr } = await run(out, '--fail-on', 'high', '--baseline', file, '--format', 'sarif');
    expect(code, `${stderr}\n${JSON.stringify(read(out).findings.map((f) => [f.fingerprint, f.severity, f.triage?.state]))}\n${JSON.stringify(high.map((f) => f.fingerprint))}`).toBe(0);
    expect(stderr).toContain(`${high.length} set aside in triage`);
    const report = read(out);
    expect(report.summary.high).toBe(0);
    expect(report.summary.set_aside).toBe(high.length);
    expect(report.scan.score).toBeGreaterThan(first.scan.score);
    for (const f of report.findings.filter((x) => x.severity === 'high')) expect(f.triage).toMatchObject({ state: 'false_positive', reason: 'Public by design' });
    const sarif = JSON.parse(fs.readFileSync(path.join(out, 'results.sarif'), 'utf8')) as { runs: { results: { level: string; suppressions?: { kind: string; justification: string }[] }[] }[] };
    const suppressed = sarif.runs[0]!.results.filter((r) => r.suppressions);
    expect(suppressed).toHaveLength(high.length);
    expect(suppressed[0]!.suppressions).toEqual([expect.objectContaining({ kind: 'external', justification: 'Public by design' })]);
    // The low finding nobody looked at still fails a stricter gate.
    expect((await run(sub('triaged-low'), '--fail-on', 'low', '--baseline', file)).code).toBe(1);
  });

  it('lets an expired accepted risk fail the run again', async () => {
    const exported = {
      format: 'portcullis-triage',
      version: 1,
      triage: first.findings.map((f) => ({ fingerprint: f.fingerprint, state: 'accepted_risk', reason: 'Until the fix ships', expires_at: '2020-01-01T00:00:00.000Z' })),
    };
    const file = path.join(dir, 'expired.json');
    fs.writeFileSync(file, JSON.stringify(exported));
    const out = sub('expired');
    expect((await run(out, '--fail-on', 'low', '--baseline', file)).code).toBe(1);
    expect(read(out).findings.every((f) => f.triage === null)).toBe(true);
  });

  it('refuses a file that is no baseline, saying why', async () => {
    const file = path.join(dir, 'not-a-baseline.json');
    fs.writeFileSync(file, JSON.stringify({ format: 'portcullis-triage', version: 1, triage: [{ fingerprint: 'x', state: 'ignored' }] }));
    const bad = await run(sub('bad'), '--baseline', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`The baseline ${file} is not a triage export (portcullis-triage), a findings.json or a JSON report at triage.0.state`);
    const missing = await run(sub('missing'), '--baseline', path.join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read the baseline');
  });
});
