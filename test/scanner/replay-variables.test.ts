// Each secret of an identity has its own shell variable in curl commands, named like the exported
// YAML's references: a login body reads `"password":"$PORTCULLIS_ALICE_PASSWORD"` (not the token's
// variable), the token `$PORTCULLIS_ALICE_TOKEN`. The identities log in to the real test target.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importApiDocument } from '../../electron/importer/index';
import { createMemoryLogger } from '../../electron/log';
import { curlFor } from '../../electron/scanner/evidence';
import { Exchange } from '../../electron/scanner/http/exchange';
import { startIdentities } from '../../electron/scanner/run-identities';
import { ScanRun } from '../../electron/scanner/run-state';
import { scanConfigSchema } from '../../shared/identities';
import { hardened } from './check-harness';
import type { Target } from '../targets';

describe('shell variables of identity secrets', () => {
  let t: Target;
  let run: ScanRun;
  beforeAll(async () => {
    t = await hardened();
    const spec = importApiDocument(new TextEncoder().encode(t.specText), { filename: 'acme.yaml' });
    const login = (who: 'alice' | 'bob') => ({
      name: who,
      login: { request: { method: 'POST', path: '/auth/login', json: { username: t.users[who].username, password: t.users[who].password } }, token: { from: 'body', pointer: '/accessToken' } },
    });
    const config = scanConfigSchema.parse({ identities: [login('alice'), login('bob')] });
    run = new ScanRun(
      {
        scanId: 'scan-vars',
        api: { id: 'acme', name: spec.name, baseUrl: t.baseUrl, security: spec.security },
        endpoints: spec.endpoints.map((e, i) => ({ ...e, id: `e${i}` })),
        identities: config,
        engine: { concurrency: 2, rps: 0, timeoutMs: 5_000, retries: 0, maxBodyBytes: 1024 * 1024, maxRequestsPerScan: 100, maxRequestsPerEndpoint: 20, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger('warn'), progress: () => {}, finding: async () => true },
    );
    expect(await startIdentities(run, config)).toBeNull();
  });
  afterAll(() => t.close());

  it('a password has its own variable, apart from the token the login gave', () => {
    const byVar = new Map(run.redactor.secrets.map((s) => [s.envVar, s.value]));
    expect(byVar.get('PORTCULLIS_ALICE_PASSWORD')).toBe(t.users.alice.password);
    expect(byVar.get('PORTCULLIS_BOB_PASSWORD')).toBe(t.users.bob.password);
    const token = byVar.get('PORTCULLIS_ALICE_TOKEN');
    expect(token).toMatch(/^ey/);
    expect(token).not.toBe(t.users.alice.password);
  });

  it('a login request replays from its curl command with the password variable in its body', () => {
    const alice = t.users.alice;
    const token = run.redactor.secrets.find((s) => s.envVar === 'PORTCULLIS_ALICE_TOKEN')!.value;
    const body = JSON.stringify({ username: alice.username, password: alice.password });
    const ex = new Exchange(
      1,
      { method: 'POST', url: `${t.baseUrl}/auth/login`, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body, auth: { kind: 'identity', name: 'alice' }, placements: [] },
      { status: 200, headers: {}, body: '{}', bytes: 2, truncated: false },
      null,
      5,
    );
    const curl = curlFor(ex, run.redactor);
    expect(curl).toContain(`--data-raw '{"username":"${alice.username}","password":"'"$PORTCULLIS_ALICE_PASSWORD"'"}'`);
    expect(curl).toContain(`-H 'authorization: Bearer '"$PORTCULLIS_ALICE_TOKEN"`);
    expect(curl).not.toContain(alice.password);
    expect(curl).not.toContain(token);
  });
});
