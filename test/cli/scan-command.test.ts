// `portcullis scan` end to end: imports a spec, scans, writes findings.json (and reports), exits
// 0 / 1 / 2; once in-process against the test target, once as a real process with its progress bar.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli';
import { bundle, ROOT } from '../helpers/bundle';
import { tempDir } from '../helpers/core';
import { startMiniApi } from '../helpers/mini-api';
import { specWithPaths } from '../helpers/target-spec';
import { onlyFlaws, startTarget } from '../targets';
import { withOutput } from '../helpers/detect';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workDir(): string {
  const dir = tempDir('portcullis-cli-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Report {
  scan: { status: string; score: number | null; failure_reason: string | null; problems: string[] };
  summary: Record<string, number>;
  findings: { check_id: string; severity: string; evidence: string; curl: string; vulnerability_name: string }[];
}

const read = (dir: string): Report => JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as Report;

describe('portcullis scan', () => {
  it('scans the vulnerable target, writes findings.json and reports, and exits 1', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('auth-none', 'cors-reflect', 'missing-nosniff') });
    cleanups.push(() => t.close());
    const dir = workDir();
    const spec = path.join(dir, 'acme.yaml');
    fs.writeFileSync(spec, t.specText);
    const code = await main(['scan', '--spec', spec, '--key1', t.users.alice.key, '--key2', t.users.bob.key, '--rps', '0', '--out', dir, '--format', 'json,sarif', '--quiet']);
    expect(code).toBe(1);
    const report = read(dir);
    expect(report.scan.status).toBe('completed');
    expect(report.findings.map((f) => f.vulnerability_name)).toEqual(
      expect.arrayContaining(['Endpoint accepts requests without credentials', 'CORS trusts any origin, with credentials', 'X-Content-Type-Options: nosniff missing']),
    );
    expect(report.summary.high).toBeGreaterThan(0);
    const text = fs.readFileSync(path.join(dir, 'findings.json'), 'utf8');
    expect(text).not.toContain(t.users.alice.key);
    expect(text).not.toContain(t.users.bob.key);
    expect(fs.existsSync(path.join(dir, 'report.json'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'results.sarif'))).toBe(true);
    // --fail-on decides the exit code: two scans of the notes routes, one low finding (the scan above is the whole one).
    const lowOnly = workDir();
    const t2 = await startTarget({ mode: 'hardened', flaws: onlyFlaws('missing-nosniff') });
    cleanups.push(() => t2.close());
    const spec2 = path.join(lowOnly, 'acme.json');
    fs.writeFileSync(spec2, specWithPaths(t2, ['/notes', '/notes/{noteId}']));
    const args = ['scan', '--spec', spec2, '--key1', t2.users.alice.key, '--rps', '0', '--out', lowOnly, '--quiet'];
    expect(await main([...args, '--fail-on', 'high'])).toBe(0);
    expect(await main([...args, '--fail-on', 'low'])).toBe(1);
  }, 180_000);

  it('--fail-on critical fails only on CVSS 9.0 or more, a level of its own (issue 31)', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('jwt-alg-none', 'cors-reflect') });
    cleanups.push(() => t.close());
    const dir = workDir();
    const spec = path.join(dir, 'acme.json');
    fs.writeFileSync(spec, specWithPaths(t, ['/me']));
    const run = async (failOn: string) => {
      let stdout = '';
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true)) as typeof process.stdout.write;
      try {
        const code = await main(['scan', '--spec', spec, '--key1', t.users.alice.key, '--rps', '0', '--out', dir, '--quiet', '--fail-on', failOn]);
        return { code, stdout };
      } finally {
        process.stdout.write = write;
      }
    };
    const critical = await run('critical');
    expect(critical.code).toBe(1);
    const counts = () => {
      const levels = read(dir).findings.map((f) => (f.severity === 'high' && (f as { cvss_score?: number }).cvss_score! >= 9 ? 'critical' : f.severity));
      return { critical: levels.filter((l) => l === 'critical').length, high: levels.filter((l) => l === 'high').length };
    };
    const report = read(dir);
    const { critical: criticalCount, high: highCount } = counts();
    // The unsigned token is critical (9.1); CORS with credentials is high, not critical.
    expect(criticalCount).toBeGreaterThan(0);
    expect(highCount).toBeGreaterThan(0);
    expect(report.summary.critical).toBe(criticalCount);
    expect(report.summary.high).toBe(highCount);
    const lines = critical.stdout.split('\n');
    expect(lines.filter((l) => /^ {2}critical api2-jwt-tampering {2}GET \/me$/.test(l)).length).toBe(criticalCount);
    // Only critical findings are listed and counted: the high CORS finding does not fail this run.
    expect(lines.filter((l) => /^ {2}(high|medium|low) /.test(l))).toEqual([]);
    expect(critical.stdout).toContain(`${criticalCount} finding${criticalCount === 1 ? '' : 's'} at or above critical failed this run.`);
    // --fail-on high fails on critical and high findings alike.
    // A scan of its own: its counts are read from its own report (whether both scans find the same is the determinism test's).
    const high = await run('high');
    expect(high.code).toBe(1);
    const again = counts();
    expect(again.high).toBeGreaterThan(0);
    const failed = again.critical + again.high;
    expect(high.stdout).toContain(`${failed} finding${failed === 1 ? '' : 's'} at or above high failed this run.`);
    expect(high.stdout).toMatch(/^ {2}high {5}api8-cors-policy {2}GET \/\S+$/m);
  }, 120_000);

  it('--fail-on critical passes a run whose worst finding is high', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('cors-reflect') });
    cleanups.push(() => t.close());
    const dir = workDir();
    const spec = path.join(dir, 'acme.json');
    fs.writeFileSync(spec, specWithPaths(t, ['/me']));
    // A mistyped path under objects: is a problem of the scan, printed after its summary.
    const config = path.join(dir, 'scan.yaml');
    fs.writeFileSync(config, ['identities:', `  - name: alice`, `    token: ${t.users.alice.key}`, '    objects:', '      /nowhere/{id}: [1]', ''].join('\n'));
    const args = ['scan', '--spec', spec, '--config', config, '--rps', '0', '--out', dir, '--quiet'];
    const { result: code, stdout } = await withOutput(() => main([...args, '--fail-on', 'critical']));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Done: .*\nproblem: No operation of the API is at "\/nowhere\/\{id\}", listed under objects: for alice/m);
    expect(read(dir).scan.problems).toEqual([expect.stringContaining('/nowhere/{id}')]);
    expect(read(dir).summary.high).toBeGreaterThan(0);
    expect(read(dir).summary.critical).toBe(0);
    expect(await main([...args, '--fail-on', 'high'])).toBe(1);
  }, 120_000);

  it('exits 0 on the hardened twin', async () => {
    const t = await startTarget({ mode: 'hardened' });
    cleanups.push(() => t.close());
    const dir = workDir();
    const spec = path.join(dir, 'acme.yaml');
    fs.writeFileSync(spec, t.specText);
    expect(await main(['scan', '--spec', spec, '--key1', t.users.alice.key, '--key2', t.users.bob.key, '--rps', '0', '--out', dir, '--fail-on', 'low', '--quiet'])).toBe(0);
    // Only the informational remark on free text stored as sent and returned in JSON (docs/decisions.md).
    const findings = read(dir).findings as { vulnerability_name: string; severity: string }[];
    expect(findings.filter((f) => f.vulnerability_name !== 'Stored HTML markup returned verbatim (HTML injection in clients)' || f.severity !== 'info')).toEqual([]);
  }, 120_000);

  it('exits 2 with a message on bad arguments, an unreadable spec and a failed scan', async () => {
    const dir = workDir();
    expect(await main(['scan', '--spec', path.join(dir, 'missing.yaml'), '--key1', 'k'])).toBe(2);
    expect(await main(['scan', '--spec', path.join(dir, 'missing.yaml')])).toBe(2);
    const spec = path.join(dir, 'mini.yaml');
    fs.copyFileSync(path.join(ROOT, 'test/cli/fixtures/mini-api.openapi.yaml'), spec);
    expect(await main(['scan', '--spec', spec, '--key1', 'k', '--fail-on', 'urgent'])).toBe(2);
    expect(await main(['scan', '--spec', spec, '--key1', 'k', '--fail-on', 'info'])).toBe(2);
    // The spec's server (port 1) answers nothing: the scan fails, exit 2, partial findings.json.
    expect(await main(['scan', '--spec', spec, '--key1', 'k-123456', '--out', dir, '--quiet'])).toBe(2);
    expect(read(dir).scan.failure_reason).toMatch(/^Could not reach the API/);
  });

  it('runs as a real process with a progress bar on stderr', async () => {
    const api = await startMiniApi({ weakHeaders: true });
    cleanups.push(() => api.close());
    const dir = workDir();
    const spec = path.join(dir, 'mini.yaml');
    // Without a server URL: --base-url gives it, so the import's warning asking for one must not show.
    fs.writeFileSync(spec, fs.readFileSync(path.join(ROOT, 'test/cli/fixtures/mini-api.openapi.yaml'), 'utf8').replace(/^servers:\n {2}- url: .*\n/m, ''));
    const cli = await bundle('electron/cli-entry.ts', 'cli');
    // Asynchronously: the API answering the scan runs in this process.
    const child = spawn(process.execPath, [cli, 'scan', '--spec', spec, '--base-url', api.url, '--rps', '0', '--out', dir], {
      cwd: ROOT,
      env: { ...process.env, PORTCULLIS_KEY_1: api.users.alice.token, PORTCULLIS_KEY_2: api.users.bob.token },
    });
    const res = { status: -1 as number | null, stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (res.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (res.stderr += d.toString()));
    res.status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/\[#+-*\]\s+\d+%/);
    // Results on stdout, progress on stderr (issue 31): three low header findings, one informational
    // header note, and the informational remark on a name stored as sent; none at or above high.
    expect(res.stdout).toMatch(/Done: 3 vulnerabilities \(0 critical, 0 high, 0 medium, 3 low\), 2 informational, score /);
    expect(res.stdout).toContain('No new finding at or above high: this run passes.');
    expect(res.stdout).not.toMatch(/\[#+-*\]/);
    expect(res.stderr).not.toContain('Done: ');
    // Identities only with --verbose; no word about a keychain the CLI does not use, nor about a base URL --base-url gave.
    expect(res.stderr + res.stdout).not.toContain('Identities:');
    expect(res.stderr + res.stdout).not.toMatch(/keychain|Edit API/i);
    expect(read(dir).summary.low).toBe(3);
    expect(res.stderr + res.stdout).not.toContain(api.users.alice.token);
  });
});
