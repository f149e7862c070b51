// Checks use roles: BFLA tries the lower-privileged identity on the privileged identity's
// operations (and names them in the finding), BOLA stays between the same-role users, and an
// operation the ordinary user is refused but the lower role gets is reported.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiSecurity } from '../../shared/contract';
import { scanConfigSchema, type IdentityInput } from '../../shared/identities';
import { createMemoryLogger } from '../../electron/log';
import { bflaPrivilegedOperation, bflaRoleOperation } from '../../electron/scanner/checks/api5-function-authorization/privileged-operations';
import type { BuiltFinding } from '../../electron/scanner/findings';
import { runScan } from '../../electron/scanner/run';
import { startTarget, type Target } from '../targets';
import { scanChecks } from '../helpers/check-scan';
import { endpoint } from './check-harness';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const recipe = (t: Target, user: 'alice' | 'bob' | 'admin' | 'carol', role: IdentityInput['role'] = 'user'): IdentityInput => ({
  name: user,
  role,
  login: { request: { path: '/auth/login', json: { username: t.users[user].username, password: t.users[user].password } }, token: { from: 'body', pointer: '/accessToken' } },
});

describe('BFLA with roles on the test target', () => {
  it('tries the lower-privileged identity on administrative operations and compares with the privileged one', async () => {
    const t = await startTarget({ mode: 'hardened', flaws: { 'bfla-admin': true } });
    open.push(t);
    const s = await scanChecks(t, [bflaPrivilegedOperation], {
      identities: [recipe(t, 'alice'), recipe(t, 'bob'), recipe(t, 'admin', 'privileged'), recipe(t, 'carol', 'lower')],
      only: ['GET /me', 'GET /admin/users', 'GET /admin/stats'],
    });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(bflaPrivilegedOperation);
    expect(found.map((f) => f.path).sort()).toEqual(['/admin/stats', '/admin/users']);
    const users = found.find((f) => f.path === '/admin/users')!;
    expect(users.description).toMatch(/the lower-privileged carol got HTTP 200/);
    expect(users.description).toMatch(/the same data as admin/);
    expect(users.evidence).toMatch(/Lower-privileged identity: carol \(its role\)/);
    // The lower role's requests went out as carol; nothing was sent as alice to the admin routes.
    const adminCalls = t.requests.all().filter((r) => r.path.startsWith('/api/v2/admin/'));
    expect(adminCalls.some((r) => r.headers.authorization === `Bearer ${t.users.alice.key}`)).toBe(false);
  });

  it('stays silent on the hardened twin with the same roles', async () => {
    const t = await startTarget({ mode: 'hardened' });
    open.push(t);
    const s = await scanChecks(t, [bflaPrivilegedOperation, bflaRoleOperation], {
      identities: [recipe(t, 'alice'), recipe(t, 'bob'), recipe(t, 'admin', 'privileged'), recipe(t, 'carol', 'lower')],
      only: ['GET /me', 'GET /admin/users', 'GET /admin/stats', 'GET /orders'],
    });
    expect(s.outcome.status).toBe('completed');
    expect(s.findings).toEqual([]);
  });
});

describe('an operation the ordinary user is refused but the lower role gets', () => {
  async function roleServer(lowerAllowed: boolean): Promise<string> {
    const server = http.createServer((req, res) => {
      const who = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const known: Record<string, { id: number; username: string; role: string }> = {
        'tok-admin-0123456789': { id: 1, username: 'root', role: 'admin' },
        'tok-alice-0123456789': { id: 2, username: 'alice', role: 'user' },
        'tok-bob-0123456789ab': { id: 3, username: 'bob', role: 'user' },
        'tok-guest-0123456789': { id: 4, username: 'guest', role: 'guest' },
      };
      const me = known[who];
      if (!me) return send(401, { error: 'unauthenticated' });
      if (req.url === '/me') return send(200, me);
      if (req.url === '/reports') {
        if (me.role === 'admin' || (me.role === 'guest' && lowerAllowed)) return send(200, { reports: [{ id: 'r-1', revenue: 98123, owner: 'root@corp.example' }, { id: 'r-2', revenue: 44120, owner: 'cfo@corp.example' }] });
        return send(403, { error: 'forbidden' });
      }
      return send(404, { error: 'not found' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function scan(baseUrl: string, identities: IdentityInput[]): Promise<{ findings: BuiltFinding[]; status: string }> {
    const findings: BuiltFinding[] = [];
    const security: ApiSecurity = { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] };
    const outcome = await runScan(
      {
        scanId: '00000000-0000-4000-8000-0000000000bb',
        api: { id: 'roles', name: 'Roles', baseUrl, security },
        endpoints: [endpoint('GET', '/me'), endpoint('GET', '/reports')].map((e, i) => ({ ...e, id: `r${i}` })),
        identities: scanConfigSchema.parse({ identities }),
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 500, maxRequestsPerEndpoint: 100, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [bflaRoleOperation],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger('warn'), progress: () => undefined, finding: async (f) => (findings.push(f), true) },
    );
    return { findings, status: outcome.status };
  }

  const roles: IdentityInput[] = [
    { name: 'alice', token: 'tok-alice-0123456789' },
    { name: 'bob', token: 'tok-bob-0123456789ab' },
    { name: 'root', role: 'privileged', token: 'tok-admin-0123456789' },
    { name: 'guest', role: 'lower', token: 'tok-guest-0123456789' },
  ];

  it('is reported, naming the roles', async () => {
    const { findings, status } = await scan(await roleServer(true), roles);
    expect(status).toBe('completed');
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path}`)).toEqual(['api5-bfla-role-operation GET /reports']);
    expect(findings[0]!.description).toMatch(/the privileged root gets it \(200\) while the ordinary alice is refused \(403\).*the lower-privileged guest gets 200/);
  });

  it('is not reported when the lower role is refused too', async () => {
    const { findings } = await scan(await roleServer(false), roles);
    expect(findings).toEqual([]);
  });
});

describe('a spec with customer and merchant operations', () => {
  // The customer is refused (401, as the API answers any caller without the role) by the merchant's
  // operation: a difference of roles the checks evaluate, not a credential that does not work.
  async function shopServer(guestAllowed: boolean): Promise<string> {
    const server = http.createServer((req, res) => {
      const who = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const known: Record<string, { id: number; name: string; role: 'customer' | 'merchant' | 'guest' }> = {
        'tok-carla-customer-01': { id: 7, name: 'carla', role: 'customer' },
        'tok-mario-merchant-01': { id: 9, name: 'mario', role: 'merchant' },
        'tok-gina-guest-000001': { id: 11, name: 'gina', role: 'guest' },
      };
      const caller = known[who];
      if (req.url === '/products') return send(200, [{ id: 1, name: 'Lamp', price: 1999 }]);
      if (!caller) return send(401, { error: 'unauthenticated' });
      if (req.url === '/merchant/orders') {
        if (caller.role !== 'merchant' && !(caller.role === 'guest' && guestAllowed)) return send(401, { error: 'merchant role required' });
        return send(200, [{ id: 'o-1', total: 1999, customer: 'carla@example.com' }, { id: 'o-2', total: 4500, customer: 'dan@example.com' }]);
      }
      if (req.url?.startsWith('/cart/')) return caller.role === 'customer' ? send(200, { id: req.url.slice(6), items: [] }) : send(403, { error: 'customers only' });
      return send(404, { error: 'not found' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function scan(baseUrl: string): Promise<{ outcome: Awaited<ReturnType<typeof runScan>>; findings: BuiltFinding[] }> {
    const security: ApiSecurity = { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] };
    const endpoints = [endpoint('GET', '/products', { security: [] }), endpoint('GET', '/merchant/orders'), endpoint('GET', '/cart/{cartId}')].map((e, i) => ({ ...e, id: `s${i}` }));
    const findings: BuiltFinding[] = [];
    const outcome = await runScan(
      {
        scanId: '00000000-0000-4000-8000-0000000000cc',
        api: { id: 'shop', name: 'Shop', baseUrl, security },
        endpoints,
        identities: scanConfigSchema.parse({
          identities: [
            { name: 'carla', token: 'tok-carla-customer-01' },
            { name: 'mario', role: 'privileged', token: 'tok-mario-merchant-01' },
            { name: 'gina', role: 'lower', token: 'tok-gina-guest-000001' },
          ],
        }),
        engine: { concurrency: 4, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequestsPerScan: 500, maxRequestsPerEndpoint: 100, tlsVerify: true, allowLocal: true },
        options: { lowerPrivilegeKey: 2, allowExistingObjects: false },
        checks: [bflaRoleOperation],
        signal: new AbortController().signal,
      },
      { logger: createMemoryLogger('warn'), progress: () => undefined, finding: async (f) => (findings.push(f), true) },
    );
    return { outcome, findings };
  }

  it('goes on when the customer is refused by a merchant-only operation, and the checks evaluate the refusal', async () => {
    const { outcome, findings } = await scan(await shopServer(false));
    expect(outcome.failureReason).toBeNull();
    expect(outcome.status).toBe('completed');
    expect(outcome.errors).toContain('Carla was refused by GET /merchant/orders (401), which mario may use: taken for a difference of roles, which the authorization checks test.');
    expect(outcome.checksRun.find((c) => c.check_id === bflaRoleOperation.id)?.endpoints).toContain('GET /merchant/orders');
    expect(findings).toEqual([]);
  });

  it('reports the merchant operation a lower role gets', async () => {
    const { outcome, findings } = await scan(await shopServer(true));
    expect(outcome.status).toBe('completed');
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path}`)).toEqual(['api5-bfla-role-operation GET /merchant/orders']);
  });
});
