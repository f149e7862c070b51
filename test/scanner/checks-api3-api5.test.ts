// API3 (mass assignment, excessive data exposure), API5 (admin operations with the lower key,
// method swap, admin path insertion) and leak-on-failed-create against the test target: each finds
// its flaw alone, stays silent on the hardened twin and keeps to its budget.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excessiveDataExposure, luhn } from '../../electron/scanner/checks/api3-property-authorization/data-exposure';
import { massAssignment } from '../../electron/scanner/checks/api3-property-authorization/mass-assignment';
import { adminPathInsertion } from '../../electron/scanner/checks/api5-function-authorization/admin-paths';
import { bflaMethodSwap, bflaPrivilegedOperation } from '../../electron/scanner/checks/api5-function-authorization/privileged-operations';
import { leakOnFailedCreate } from '../../electron/scanner/checks/api8-misconfiguration/leak-on-failed-create';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { FlawId, Target } from '../targets';
import { call } from '../targets/testing';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';
import { BFLA_CHECKS, BOPLA_CHECKS, STATEFUL_CHECKS } from './check-groups';

const ME = 'GET /me';
const CHECKS = [...BOPLA_CHECKS, ...BFLA_CHECKS, ...STATEFUL_CHECKS];

describe('API3, API5 and leak-on-failed-create on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, CHECKS);
  });
  afterAll(() => t.close());

  it.each(CHECKS.map((c) => [c.id, c] as const))('%s stays silent and within its budget', (_id, check) => {
    expect(s.of(check)).toEqual([]);
    expectWithinBudget(s, [check]);
  });

  it('left alice as she was (readOnly properties ignored by the twin)', async () => {
    const me = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
    expect(me.json).toMatchObject({ role: 'customer', isAdmin: false, credits: 120 });
  });
});

async function withFlaw<T>(flaw: FlawId, fn: (t: Target) => Promise<T>): Promise<T> {
  const t = await targetWith(flaw);
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

describe('API3.1 mass assignment', () => {
  it('finds mass-assign-privilege on PATCH /me, proven by the follow-up read, and puts alice back', () =>
    withFlaw('mass-assign-privilege', async (t) => {
      const s = await scanChecks(t, [massAssignment], { only: [ME, 'PATCH /me'] });
      const [f] = s.of(massAssignment);
      expect(f).toMatchObject({ method: 'PATCH', path: '/me', severity: 'high', confidence: 'high' });
      expect(f!.description).toMatch(/role: "customer" -> "admin"/);
      expect(f!.evidence).toContain('== Follow-up read (key 1) ==');
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [massAssignment]);
      const me = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      expect(me.json).toMatchObject({ role: 'customer', isAdmin: false, credits: 120 });
    }));

  it('finds mass-assign-readonly on creates and updates (status, total, owner and timestamps stick)', () =>
    withFlaw('mass-assign-readonly', async (t) => {
      const s = await scanChecks(t, [massAssignment], {
        only: [ME, 'POST /orders', 'GET /orders/{orderId}', 'POST /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}'],
      });
      expect(s.of(massAssignment).map((f) => `${f.method} ${f.path}`).sort()).toEqual(['POST /notes', 'POST /orders', 'PUT /notes/{noteId}']);
      expect(s.of(massAssignment).find((f) => f.path === '/orders')!.description).toMatch(/status: "pending" -> "paid".*total: [\d.]+ -> 0\.01/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [massAssignment]);
    }));
});

describe('API3.2 excessive data exposure', () => {
  it.each([
    ['exposure-password-hash', [ME], 'GET /me password-hash'],
    ['exposure-api-key', [ME], 'GET /me api-key'],
    ['exposure-card-number', [ME, 'GET /payment-methods'], 'GET /payment-methods card-number'],
    ['exposure-private-key', [ME, 'GET /integrations'], 'GET /integrations private-key'],
    ['exposure-undeclared', [ME, 'GET /orders', 'GET /orders/{orderId}'], 'GET /orders undeclared-properties'],
  ] as const)('finds %s', (flaw, endpoints, expected) =>
    withFlaw(flaw, async (t) => {
      const s = await scanChecks(t, [excessiveDataExposure], { only: [...endpoints] });
      const found = s.of(excessiveDataExposure).map((f) => `${f.method} ${f.path} ${f.parameter}`);
      expect(found).toContain(expected);
      // The sensitive value is named, never shown whole, in the finding's notes.
      for (const f of s.of(excessiveDataExposure)) expect(f.confidence === 'high' || f.parameter === 'undeclared-properties').toBe(true);
      expectWellFormed(s, s.findings);
      expect(s.outcome.requestsByCheck[excessiveDataExposure.id] ?? 0).toBe(0);
    }),
  );

  it.each([
    [true, ['GET /comments other-users-email']],
    [false, []],
  ] as const)('reports other users\' e-mail addresses in a listing (shown: %s)', async (showEmails, expected) => {
    const users: Record<string, { id: number; username: string; email: string }> = {
      'tok-a-1f2e3d4c5b6a79881726354a': { id: 7, username: 'ann', email: 'ann@example.net' },
      'tok-b-9e8d7c6b5a4f30211203f4e5': { id: 8, username: 'ben', email: 'ben@example.net' },
    };
    const server = http.createServer((req, res) => {
      const user = users[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
      res.writeHead(user ? 200 : 401, { 'content-type': 'application/json' });
      if (!user) return res.end('{"error":"unauthorized"}');
      if (req.url === '/me') return res.end(JSON.stringify(user));
      const comments = Object.values(users).map((u, i) => ({ id: i + 1, text: `Comment ${i + 1} on the launch`, author: showEmails ? { name: u.username, email: u.email } : { name: u.username } }));
      res.end(JSON.stringify({ items: comments }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const [a, b] = Object.keys(users) as [string, string];
      const { findings } = await scanServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, [endpoint('GET', '/me'), endpoint('GET', '/comments')], [excessiveDataExposure], { 1: a, 2: b });
      expect(findings.map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(expected);
    } finally {
      server.close();
    }
  });

  it('knows a card number from an order reference', () => {
    expect(luhn('4539148803436467')).toBe(true);
    expect(luhn('7311000000010010')).toBe(false);
  });
});

describe('API5.1 administrative operations with the lower-privileged key', () => {
  it('finds bfla-admin with key 2 (the default lower key)', () =>
    withFlaw('bfla-admin', async (t) => {
      const s = await scanChecks(t, [bflaPrivilegedOperation], { only: [ME, 'GET /admin/users', 'GET /admin/stats', 'PATCH /admin/users/{userId}'] });
      expect(s.of(bflaPrivilegedOperation).map((f) => [f.method, f.path, f.confidence]).sort()).toEqual([
        ['GET', '/admin/stats', 'high'],
        ['GET', '/admin/users', 'high'],
      ]);
      expect(s.of(bflaPrivilegedOperation)[0]!.evidence).toMatch(/== Attack: the lower-privileged key 2 \(key 2\) ==/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bflaPrivilegedOperation]);
      // The admin write has no object the scan created: not sent.
      expect(t.requests.count({ method: 'PATCH', pathPrefix: '/api/v2/admin/' })).toBe(0);
    }));

  it('uses the lower_privilege_key setting, and is skipped without that key', () =>
    withFlaw('bfla-admin', async (t) => {
      // key 1 = admin, key 2 = bob: with key 2 as the lower key, bob's access is the finding.
      const asAdmin = await scanChecks(t, [bflaPrivilegedOperation], { only: [ME, 'GET /admin/users'], key1: t.users.admin.key });
      expect(asAdmin.of(bflaPrivilegedOperation)).toHaveLength(1);
      expect(t.requests.count((r) => r.path === '/api/v2/admin/users' && r.headers.authorization === `Bearer ${t.users.bob.key}`)).toBeGreaterThan(0);
      // lower_privilege_key = 1: the check calls the admin operation as key 1 (alice).
      t.requests.reset();
      const low1 = await scanChecks(t, [bflaPrivilegedOperation], { only: [ME, 'GET /admin/users'], lowerPrivilegeKey: 1 });
      expect(low1.of(bflaPrivilegedOperation)[0]!.evidence).toMatch(/== Attack: the lower-privileged key 1 \(key 1\) ==/);
      const none = await scanChecks(t, [bflaPrivilegedOperation], { only: [ME, 'GET /admin/users'], key2: null });
      expect(none.outcome.skipped.find((x) => x.check_id === bflaPrivilegedOperation.id)?.reason).toMatch(/lower-privileged key/);
      expect(none.findings).toEqual([]);
    }));
});

describe('API5.2 method swap', () => {
  it('finds method-swap: PUT, PATCH and DELETE on an order the scan created, and PUT on /me (restored)', () =>
    withFlaw('method-swap', async (t) => {
      const s = await scanChecks(t, [bflaMethodSwap], { only: [ME, 'PATCH /me', 'POST /orders', 'GET /orders/{orderId}'] });
      expect(s.of(bflaMethodSwap).map((f) => `${f.method} ${f.path}`).sort()).toEqual(['DELETE /orders/{orderId}', 'PATCH /orders/{orderId}', 'PUT /me', 'PUT /orders/{orderId}']);
      for (const f of s.of(bflaMethodSwap)) expect(f.confidence).toBe('high');
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bflaMethodSwap]);
      // Only orders the scan created were changed or deleted; alice's display name is back.
      for (const r of t.requests.filter((x) => x.path.startsWith('/api/v2/orders/') && x.method !== 'GET')) expect(Number(r.path.split('/').pop())).toBeGreaterThan(1008);
      const me = await call(t, 'GET', '/api/v2/me', { key: t.users.alice.key });
      expect(me.json.displayName).toBe('Alice Anderson');
    }));
});

describe('API5.3 admin path insertion', () => {
  it('finds admin-path-variants: the console and the per-collection views, without credentials', () =>
    withFlaw('admin-path-variants', async (t) => {
      // PATCH /me carries the BFLA flag that turns the (API-wide) check on; the lists give the collections.
      const s = await scanChecks(t, [adminPathInsertion], { only: [ME, 'PATCH /me', 'GET /orders', 'GET /notes', 'GET /documents'] });
      const found = s.of(adminPathInsertion);
      expect(found.map((f) => f.parameter).sort()).toEqual(['(console)', 'documents', 'notes', 'orders']);
      for (const f of found) expect(f.confidence).toBe('high');
      expect(found.find((f) => f.parameter === 'orders')!.description).toMatch(/without any credentials/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [adminPathInsertion]);
      // Every probe was a GET on the API's host.
      expect(t.requests.filter((r) => r.method !== 'GET' && r.path !== '/api/v2/me')).toEqual([]);
    }));
});

describe('leak on failed create', () => {
  it('finds leak-on-failed-create: a refused note still appears in the list', () =>
    withFlaw('leak-on-failed-create', async (t) => {
      const s = await scanChecks(t, [leakOnFailedCreate], { only: [ME, 'POST /notes', 'GET /notes'] });
      expect(s.of(leakOnFailedCreate).map((f) => [f.method, f.path, f.confidence])).toEqual([['POST', '/notes', 'high']]);
      expect(s.of(leakOnFailedCreate)[0]!.evidence).toMatch(/< HTTP 400/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [leakOnFailedCreate]);
    }));
});
