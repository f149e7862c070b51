// A forged-JWT finding's curl text replays days after the scan: it is run with bash as written (the
// forging step included) against the test target with the clock moved past key 1's expiry, with
// key 1's own (by then expired) token in $PORTCULLIS_KEY_1, and the API must accept the forged token.

import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwtTampering } from '../../electron/scanner/checks/api2-authentication/jwt-tampering';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { scanChecks } from '../helpers/check-scan';
import { endpoint, scanServer, targetWith } from './check-harness';

const run = promisify(execFile);
const ME = 'GET /me';
const TWO_DAYS_MS = 2 * 86_400_000;

// The child processes the curl text starts (the Node forging step) see the same moved clock as the target.
const shiftDir = mkdtempSync(path.join(os.tmpdir(), 'portcullis-clock-'));
const SHIFT = path.join(shiftDir, 'shift-clock.cjs');
writeFileSync(SHIFT, 'const real = Date.now; const by = Number(process.env.CLOCK_SHIFT_MS); Date.now = () => real() + by;\n');

/** Runs a finding's curl text with bash, as a reader would, `shiftMs` into the future. */
async function replay(curl: string, env: Record<string, string>, shiftMs: number): Promise<string> {
  // --norc: Node's pipes are sockets, and bash reads ~/.bashrc for a socket stdin (as under sshd).
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', curl], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.homedir(), ...env, CLOCK_SHIFT_MS: String(shiftMs), NODE_OPTIONS: `--require ${SHIFT}` },
    timeout: 20_000,
  });
  return stdout;
}

function moveClock(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
}

afterEach(() => {
  vi.useRealTimers();
});

function expectForgingStep(f: BuiltFinding, key1: string): void {
  expect(f.curl, f.parameter ?? '').toMatch(/^TOKEN=\$\(T="\$PORTCULLIS_KEY_1" .* node -e '.*'\)$/m);
  expect(f.curl).toContain('"$TOKEN"');
  expect(f.curl).toMatch(/^# Set first: PORTCULLIS_KEY_1: /);
  expect(f.curl).toMatch(/^# {3}Claims: key 1's/m);
  expect(f.evidence).toMatch(/Forged token sent: header \{.*"alg".*\}; claims \{.*"sub".*\}/);
  for (const part of [key1, key1.split('.')[2]!]) {
    expect(f.curl).not.toContain(part);
    expect(f.evidence).not.toContain(part);
  }
}

describe('forged-JWT findings replay from their curl text after key 1 expired', () => {
  it.each([
    ['jwt-alg-none', 'HS256'],
    ['jwt-sig-stripped', 'HS256'],
    ['jwt-sig-unverified', 'HS256'],
    ['jwt-sub-swap', 'HS256'],
    ['jwt-key-confusion', 'RS256'],
    ['jwt-kid-path', 'HS256'],
    ['jwt-embedded-jwk', 'RS256'],
    ['jwt-x5c', 'RS256'],
  ] as const)('%s', async (flaw, alg) => {
    const t = await targetWith(flaw);
    try {
      // Key 1 lives ten minutes, like the tokens of the APIs whose forged proofs used to stop working.
      const key1 = await t.mintToken('alice', { alg, expiresIn: 600 });
      const s = await scanChecks(t, [jwtTampering], { only: [ME], key1 });
      const found = s.of(jwtTampering);
      expect(found.length).toBeGreaterThan(0);
      moveClock(TWO_DAYS_MS);
      // Two days on, key 1 itself is refused: what follows works only through the forging step.
      const stale = await replay(`curl -s -i -H "authorization: Bearer $PORTCULLIS_KEY_1" '${t.baseUrl}/me'`, { PORTCULLIS_KEY_1: key1 }, TWO_DAYS_MS);
      expect(stale).toMatch(/^HTTP\/1\.1 401/);
      for (const f of found) {
        const out = await replay(f.curl, { PORTCULLIS_KEY_1: key1 }, TWO_DAYS_MS);
        const who = f.parameter === 'claims-changed' ? t.users.bob : t.users.alice;
        expect(out, `${f.parameter}\n${f.curl}`).toMatch(/^HTTP\/1\.1 200/);
        expect(out, f.parameter ?? '').toContain(`"username":"${who.username}"`);
        expectForgingStep(f, key1);
      }
    } finally {
      vi.useRealTimers();
      await t.close();
    }
    // Each finding's replay starts Node (and RSA key generation for the embedded key) on a shared machine.
  }, 90_000);

  it('a token re-signed with a guessed HMAC secret', async () => {
    const secret = 'secret';
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const mint = (sub: string) => {
      const hp = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, iat: now, exp: now + 600 })}`;
      return `${hp}.${createHmac('sha256', secret).update(hp).digest('base64url')}`;
    };
    const server = http.createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const [h, p, sig] = token.split('.');
      const ok = !!h && !!p && createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') === sig && JSON.parse(Buffer.from(p, 'base64url').toString()).exp > Date.now() / 1000;
      const sub = ok ? (JSON.parse(Buffer.from(p!, 'base64url').toString()) as { sub: string }).sub : null;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { id: sub, username: `user-${sub}` } : { error: 'unauthorized' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const key1 = mint('1001');
      const { findings } = await scanServer(url, [endpoint('GET', '/me')], [jwtTampering], { 1: key1, 2: mint('1002') });
      const f = findings.find((x) => x.parameter === 'weak-secret')!;
      moveClock(TWO_DAYS_MS);
      expect(await replay(`curl -s -i -H "authorization: Bearer $PORTCULLIS_KEY_1" '${url}/me'`, { PORTCULLIS_KEY_1: key1 }, TWO_DAYS_MS)).toMatch(/^HTTP\/1\.1 401/);
      const out = await replay(f.curl, { PORTCULLIS_KEY_1: key1 }, TWO_DAYS_MS);
      expect(out, f.curl).toMatch(/^HTTP\/1\.1 200/);
      expect(out).toContain('"username":"user-1001"');
      expectForgingStep(f, key1);
    } finally {
      vi.useRealTimers();
      server.close();
    }
  }, 60_000);
});
