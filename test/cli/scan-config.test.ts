// `portcullis scan --config scan.yaml`: identities from a YAML file (login recipes, a command,
// secrets from the environment), errors that name the line and the field, the identity table in
// findings.json; and VAmPI, a real third-party API issuing short-lived tokens, scanned with two
// login recipes: the scan completes, renews its tokens and runs the account checks there.

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../electron/cli';
import { tempDir } from '../helpers/core';
import { specWithPaths } from '../helpers/target-spec';
import { startVampi, VAMPI_SPEC, vampiAvailable } from '../helpers/vampi';
import { onlyFlaws, SEED, startTarget } from '../targets';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workDir(): string {
  const dir = tempDir('portcullis-cli-config-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI, capturing what it writes (`stderr`: both streams, in order). */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let stderr = '';
  const capture = (chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  try {
    return { code: await main(args), stderr };
  } finally {
    vi.restoreAllMocks();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

interface FindingsJson {
  scan: { status: string; failure_reason: string | null; identities: { name: string; obtained: string; verified_as: string | null; refreshes: number; created: boolean }[]; created_users: { username: string | null; purpose: string }[]; refreshes: number };
  findings: { check_id: string; method: string; path: string; description: string; evidence: string }[];
}
const read = (dir: string): FindingsJson => JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')) as FindingsJson;

describe('portcullis scan --config', () => {
  it('logs in with a recipe and a command, reads secrets from the environment, and reports who each identity was', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('bola-path') });
    cleanups.push(() => t.close());
    const dir = workDir();
    // The routes the identities and the one flaw need: a whole scan of the target proves nothing more here.
    fs.writeFileSync(path.join(dir, 'acme.yaml'), specWithPaths(t, ['/auth/login', '/me', '/orders', '/orders/{orderId}']));
    fs.writeFileSync(
      path.join(dir, 'scan.yaml'),
      [
        'identities:',
        '  - name: alice',
        '    login:',
        '      request: { method: POST, path: /auth/login, json: { username: alice, password: "${env:ALICE_PASSWORD}" } }',
        '      token: { from: body, pointer: /accessToken }',
        '    place: { header: Authorization, value: "Bearer {token}" }',
        '  - name: bob',
        `    command: printf '%s\\n' "$BOB_KEY"`,
        'signup: off',
      ].join('\n'),
    );
    const { code, stderr } = await cli(['scan', '--spec', path.join(dir, 'acme.yaml'), '--config', path.join(dir, 'scan.yaml'), '--rps', '0', '--out', dir, '--quiet', '--fail-on', 'medium', '--verbose'], {
      ALICE_PASSWORD: t.users.alice.password,
      BOB_KEY: t.users.bob.key,
    });
    expect(code, stderr).toBe(1); // the BOLA read: medium (CVSS 6.5)
    const report = read(dir);
    expect(report.scan.status).toBe('completed');
    expect(report.scan.identities.map((i) => [i.name, i.obtained, i.verified_as])).toEqual([
      ['alice', 'login recipe (POST /auth/login)', 'alice (GET /me)'],
      ['bob', 'command', 'bob (GET /me)'],
    ]);
    expect(report.findings.some((f) => f.check_id === 'api1-bola-token-swap' && f.path === '/orders/{orderId}')).toBe(true);
    expect(stderr).toMatch(/Identities:\n {2}alice \(user\): login recipe \(POST \/auth\/login\); verified as alice \(GET \/me\); 0 refreshes, 0 failed logins/);
    const text = fs.readFileSync(path.join(dir, 'findings.json'), 'utf8');
    expect(text).not.toContain(t.users.alice.password);
    expect(text).not.toContain(t.users.bob.key);
  });

  it('names the line and the field of a mistake, and a missing environment variable', async () => {
    const dir = workDir();
    fs.writeFileSync(path.join(dir, 'spec.yaml'), 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\nservers: [{ url: "http://127.0.0.1:9" }]\npaths: {}\n');
    fs.writeFileSync(path.join(dir, 'bad.yaml'), 'identities:\n  - name: alice\n    login:\n      request: { path: /login }\n      token: { from: body }\n');
    const bad = await cli(['scan', '--spec', path.join(dir, 'spec.yaml'), '--config', path.join(dir, 'bad.yaml'), '--quiet']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${path.join(dir, 'bad.yaml')}:5:`);
    expect(bad.stderr).toContain('identities.0.login.token.pointer: from: body needs pointer.');
    fs.writeFileSync(path.join(dir, 'env.yaml'), 'identities:\n  - name: ci\n    token: ${env:PORTCULLIS_TEST_NOT_SET}\n');
    const env = await cli(['scan', '--spec', path.join(dir, 'spec.yaml'), '--config', path.join(dir, 'env.yaml'), '--quiet']);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('env.yaml:3:12: identities.0.token: The environment variable PORTCULLIS_TEST_NOT_SET is not set.');
    const both = await cli(['scan', '--spec', path.join(dir, 'spec.yaml'), '--config', path.join(dir, 'env.yaml'), '--key1', 'x', '--quiet']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give --config or --key1/--key2, not both.');
  });
});

describe('portcullis scan --config with objects and writes: existing', () => {
  it('takes the ids each identity owns as its own, and lists the operations that look destructive before the scan', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: onlyFlaws('bola-encoded-id') });
    cleanups.push(() => t.close());
    const dir = workDir();
    // A small description: /me to verify the identities, the receipts (no listing: nothing tells whose a receipt is), the demo reset.
    const keep = ['/me', '/receipts/{receiptId}', '/maintenance/reset'];
    const spec = { ...t.spec, paths: Object.fromEntries(Object.entries(t.spec.paths as Record<string, unknown>).filter(([p]) => keep.includes(p))) };
    fs.writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(spec));
    const receipt = (order: number) => Buffer.from(String(order)).toString('base64');
    fs.writeFileSync(
      path.join(dir, 'scan.yaml'),
      [
        'identities:',
        '  - name: alice',
        '    token: "${env:ALICE_KEY}"',
        '    objects:',
        `      "/receipts/{receiptId}": ["${receipt(SEED.orders.alice[0]!)}"]`,
        '  - name: bob',
        '    token: "${env:BOB_KEY}"',
        '    objects:',
        `      "/receipts/{receiptId}": ["${receipt(SEED.orders.bob[0]!)}"]`,
        'signup: off',
        'writes: existing',
      ].join('\n'),
    );
    const { code, stderr } = await cli(['scan', '--spec', path.join(dir, 'acme.json'), '--config', path.join(dir, 'scan.yaml'), '--rps', '0', '--out', dir, '--fail-on', 'medium'], {
      ALICE_KEY: t.users.alice.key,
      BOB_KEY: t.users.bob.key,
    });
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      "Writes: existing objects too. Operations that look destructive are skipped unless named under destructive: in --config:\n  GET /maintenance/reset: skipped (its name says it wipes or re-creates the API's data)\n",
    );
    const swap = read(dir).findings.find((f) => f.check_id === 'api1-bola-token-swap' && f.path === '/receipts/{receiptId}');
    expect(swap?.evidence).toContain(`receiptId=${receipt(SEED.orders.alice[0]!)} is alice's by the scan configuration (objects:)`);
    // Skipped means skipped: the reset was never called.
    expect(t.requests.count({ path: '/api/v2/maintenance/reset' })).toBe(0);
  });
});

describe.runIf(vampiAvailable())('VAmPI with two login recipes and 4-second tokens', () => {
  it('completes, renews the tokens, and runs the account checks on users it registered', async () => {
    const vampi = await startVampi({ vulnerable: true, tokenTtl: 4 });
    cleanups.push(() => vampi.stop());
    const dir = workDir();
    fs.writeFileSync(
      path.join(dir, 'scan.yaml'),
      [
        'identities:',
        '  - name: alice',
        '    login:',
        '      request: { method: POST, path: /users/v1/login, json: { username: name1, password: pass1 } }',
        '      token: { from: body, pointer: /auth_token }',
        '    place: { header: Authorization, value: "Bearer {token}" }',
        '  - name: bob',
        '    login:',
        '      request: { method: POST, path: /users/v1/login, json: { username: name2, password: pass2 } }',
        '      token: { from: body, pointer: /auth_token }',
        '    place: { header: Authorization, value: "Bearer {token}" }',
        'signup: auto',
      ].join('\n'),
    );
    // Slow enough to outlive a few tokens.
    const { code, stderr } = await cli(['scan', '--spec', VAMPI_SPEC, '--base-url', vampi.url, '--config', path.join(dir, 'scan.yaml'), '--rps', '40', '--out', dir, '--quiet']);
    const report = read(dir);
    expect(report.scan.status, `${report.scan.failure_reason}\n${stderr}`).toBe('completed');
    expect(code).toBe(1);
    expect(report.scan.identities.slice(0, 2).map((i) => [i.name, i.verified_as])).toEqual([
      ['alice', 'name1 (GET /me)'],
      ['bob', 'name2 (GET /me)'],
    ]);
    expect(report.scan.refreshes).toBeGreaterThan(0);
    expect(report.scan.created_users.length).toBeGreaterThan(1);
    // The account checks ran there, on its own users: another user's password, privilege fields at sign-up.
    const found = report.findings.map((f) => `${f.check_id} ${f.method} ${f.path}`);
    expect(found).toContain('api1-account-password-other PUT /users/v1/{username}/password');
    expect(found).toContain('api3-signup-privilege-fields POST /users/v1/register');
    // The seeded users still log in with their own passwords: the checks only touched the scan's users.
    for (const [u, p] of [['name1', 'pass1'], ['name2', 'pass2']]) {
      const res = await fetch(`${vampi.url}/users/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u, password: p }) });
      expect(((await res.json()) as { auth_token?: string }).auth_token, u).toBeTruthy();
    }
  }, 300_000);
});
