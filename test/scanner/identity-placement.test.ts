// HTTP Basic credentials on the wire: a `user:pass` value is sent base64-encoded however the
// placement says Basic (the API's http basic scheme, `place: { basic: true }`, or an Authorization
// header template "Basic {token}"), and a value that is already encoded is sent as it is.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSecurity } from '../../shared/contract';
import type { IdentityInput } from '../../shared/identities';
import { formatCredential } from '../../electron/scanner/identities/placement';
import { runCheckScan } from '../helpers/check-scan';
import { endpoint } from './check-harness';

const USER_PASS = 'alice:s3cret-Pa55';
const ENCODED = Buffer.from(USER_PASS).toString('base64');

describe('Basic credentials', () => {
  let server: http.Server;
  let baseUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    // Accepts only a well-formed Basic header whose decoded value is alice's user:pass.
    server = http.createServer((req, res) => {
      const auth = req.headers.authorization ?? '';
      received.push(auth);
      const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(auth);
      const ok = !!m && Buffer.from(m[1]!, 'base64').toString('utf8') === USER_PASS;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { id: 1, username: 'alice' } : { error: 'unauthenticated' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const basicScheme: ApiSecurity = { schemes: { basic: { type: 'http', scheme: 'basic' } }, default: [{ basic: [] }] };
  const noScheme: ApiSecurity = { schemes: {}, default: [] };

  async function verify(identity: IdentityInput, security: ApiSecurity): Promise<{ status: string; reason: string | null; sent: string[] }> {
    received.length = 0;
    const s = await runCheckScan({
      api: { id: 'basic', name: 'Basic', baseUrl, security },
      endpoints: [endpoint('GET', '/me', { security: security.default })],
      checks: [],
      keys: ['', ''],
      opts: { identities: [identity] },
    });
    return { status: s.outcome.status, reason: s.outcome.failureReason, sent: received.filter((h) => h) };
  }

  it.each([
    ['the API declares http basic', { name: 'alice', token: USER_PASS }, basicScheme],
    ['place: { basic: true }', { name: 'alice', token: USER_PASS, place: { basic: true } }, noScheme],
    ['place: an Authorization header "Basic {token}"', { name: 'alice', token: USER_PASS, place: { header: 'Authorization', value: 'Basic {token}' } }, noScheme],
    ['a value that starts with "Basic " itself', { name: 'alice', token: `Basic ${USER_PASS}`, place: { basic: true } }, noScheme],
    ['an already encoded value', { name: 'alice', token: ENCODED, place: { basic: true } }, noScheme],
    ['an already encoded value in a "Basic {token}" header', { name: 'alice', token: ENCODED, place: { header: 'Authorization', value: 'Basic {token}' } }, noScheme],
  ] as const)('%s: sent as Basic base64(user:pass), and the identity is accepted', async (_label, identity, security) => {
    const r = await verify(identity as IdentityInput, security);
    expect(r.reason).toBeNull();
    expect(r.status).toBe('completed');
    expect(r.sent.length).toBeGreaterThan(0);
    for (const h of r.sent) expect(h).toBe(`Basic ${ENCODED}`);
  });

  it('formats the wire value the same way wherever it is placed', () => {
    expect(formatCredential(USER_PASS, { format: 'basic' })).toBe(`Basic ${ENCODED}`);
    expect(formatCredential(`basic ${USER_PASS}`, { format: 'basic' })).toBe(`Basic ${ENCODED}`);
    expect(formatCredential(`Basic ${ENCODED}`, { format: 'basic' })).toBe(`Basic ${ENCODED}`);
    expect(formatCredential(USER_PASS, { format: 'raw', template: 'Basic {token}' })).toBe(`Basic ${ENCODED}`);
    expect(formatCredential(ENCODED, { format: 'raw', template: 'Basic {token}' })).toBe(`Basic ${ENCODED}`);
    // Other templates are the user's own words: left alone.
    expect(formatCredential(USER_PASS, { format: 'raw', template: 'Token {token}' })).toBe(`Token ${USER_PASS}`);
  });
});
