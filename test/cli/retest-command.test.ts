// `portcullis retest <finding-id> --config <file> --data-dir <dir>` as a real process (issue 29, item 3):
// a scan of the test target with one flaw keeps its database in a data dir; the re-test of its finding
// (GET /orders/{orderId} answers without credentials) says "Still present" and exits 1 while the flaw
// is there, and "Not reproduced" with exit 0 against the hardened twin on the same address; an unknown
// finding and a missing data dir exit 2.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bundle';
import { tempDir } from '../helpers/core';
import { specWithPaths } from '../helpers/target-spec';
import { onlyFlaws, startTarget, type Target } from '../targets';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const BIN = path.join(ROOT, 'bin', 'portcullis.js');

function portcullis(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function started(t: Target): Promise<Target> {
  cleanups.push(() => t.close());
  return t;
}

describe('portcullis retest', () => {
  it('says still present (exit 1) while the flaw is there and not reproduced (exit 0) once it is gone', async () => {
    expect(fs.existsSync(path.join(ROOT, 'dist', 'core', 'cli.js')), 'run npm run build:core first').toBe(true);
    const vulnerable = await started(await startTarget({ mode: 'hardened', flaws: onlyFlaws('auth-none') }));
    const port = Number(new URL(vulnerable.url).port);
    const dir = tempDir('portcullis-retest-');
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const dataDir = path.join(dir, 'data');
    fs.writeFileSync(path.join(dir, 'acme.yaml'), specWithPaths(vulnerable, ['/me', '/orders', '/orders/{orderId}']));
    const login = (user: string, env: string) => [
      `  - name: ${user}`,
      '    login:',
      `      request: { method: POST, path: /auth/login, json: { username: ${user}, password: "\${env:${env}}" } }`,
      '      token: { from: body, pointer: /accessToken }',
      '    place: { header: Authorization, value: "Bearer {token}" }',
    ];
    const config = path.join(dir, 'scan.yaml');
    fs.writeFileSync(config, ['identities:', ...login('alice', 'ALICE_PASSWORD'), ...login('bob', 'BOB_PASSWORD'), 'signup: off'].join('\n'));
    const env = { ALICE_PASSWORD: vulnerable.users.alice.password, BOB_PASSWORD: vulnerable.users.bob.password };

    const scan = await portcullis(['scan', '--spec', path.join(dir, 'acme.yaml'), '--config', config, '--data-dir', dataDir, '--rps', '0', '--out', dir, '--quiet', '--fail-on', 'medium'], env);
    expect(scan.code, scan.stderr).toBe(1);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as { findings: { id: string; check_id: string; path: string }[] };
    const finding = report.findings.find((f) => f.check_id === 'api2-credentials-not-enforced' && f.path === '/orders/{orderId}');
    expect(finding, report.findings.map((f) => `${f.check_id} ${f.path}`).join('\n')).toBeDefined();

    const still = await portcullis(['retest', finding!.id, '--config', config, '--data-dir', dataDir], env);
    expect(still.code, still.stdout + still.stderr).toBe(1);
    expect(still.stdout).toMatch(/^Still present: .+ \(api2-credentials-not-enforced\) on GET \/orders\/\{orderId\}; re-tested \S+ \(\d+\.\d s, \d+ requests\)\.\n/);
    expect(still.stdout).toContain('Method: GET');
    expect(still.stdout + still.stderr).not.toContain(vulnerable.users.alice.password);

    // The hardened twin at the same address: the flaw is fixed.
    await vulnerable.close();
    cleanups.pop();
    await started(await startTarget({ mode: 'hardened', port }));
    const gone = await portcullis(['retest', finding!.id, '--config', config, '--data-dir', dataDir], env);
    expect(gone.code, gone.stdout + gone.stderr).toBe(0);
    expect(gone.stdout).toMatch(/^Not reproduced: .+ on GET \/orders\/\{orderId\}; re-tested /);
    expect(gone.stdout).toMatch(/Sent:\n {2}POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/auth\/login → 200/);

    const unknown = await portcullis(['retest', '0190a0a0-0000-7000-8000-000000000000', '--config', config, '--data-dir', dataDir], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Finding "0190a0a0-0000-7000-8000-000000000000" not found in');
    const nowhere = await portcullis(['retest', finding!.id, '--data-dir', path.join(dir, 'none')]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('No Portcullis data in');
    expect(fs.existsSync(path.join(dir, 'none'))).toBe(false);
  }, 180_000);
});
