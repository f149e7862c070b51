// API1 (BOLA) and use-after-delete against the test target, like ZAP's rules: each check finds its
// flaw with only that flaw on, stays silent on the hardened twin (also with an administrator as
// key 1), keeps to its budget, runs both directions, and is skipped (with a reason) without key 2.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bolaCreateSteal, useAfterDelete } from '../../electron/scanner/checks/api1-object-authorization/created-objects';
import { bolaIdSwap, bolaTokenSwap } from '../../electron/scanner/checks/api1-object-authorization/id-swaps';
import { scanChecks, type CheckScan } from '../helpers/check-scan';
import type { Target } from '../targets';
import { expectWellFormed, expectWithinBudget, hardened, summary, targetWith } from './check-harness';
import { BOLA_CHECKS } from './check-groups';
import { bolaEncodedIdSwap } from '../../electron/scanner/checks/api1-object-authorization/encoded-id-swap';

const ME = 'GET /me';

describe('API1 on the hardened twin', () => {
  let t: Target;
  let s: CheckScan;
  let asAdmin: CheckScan;
  beforeAll(async () => {
    t = await hardened();
    s = await scanChecks(t, BOLA_CHECKS);
    // Administrators legitimately read every order, invoice and document: key 1 is the admin here.
    asAdmin = await scanChecks(t, BOLA_CHECKS, { key1: t.users.admin.key });
  });
  afterAll(() => t.close());

  it.each(BOLA_CHECKS.map((c) => [c.id, c] as const))('%s stays silent and within its budget', (_id, check) => {
    expect(s.of(check)).toEqual([]);
    expect(asAdmin.of(check)).toEqual([]);
    expectWithinBudget(s, [check]);
    expectWithinBudget(asAdmin, [check]);
  });

  it('sends requests only as the scan keys and without credentials', () => {
    const keys = new Set([`Bearer ${t.users.alice.key}`, `Bearer ${t.users.bob.key}`, `Bearer ${t.users.admin.key}`, undefined]);
    expect(t.requests.all().filter((r) => !keys.has(r.headers.authorization as string | undefined))).toEqual([]);
  });
});

describe('API1.1 token swap', () => {
  it('finds bola-path with ids from each user\'s own listing (no create available)', async () => {
    const t = await targetWith('bola-path');
    try {
      const s = await scanChecks(t, [bolaTokenSwap], { only: [ME, 'GET /orders', 'GET /orders/{orderId}'] });
      expect(summary(s.of(bolaTokenSwap))).toEqual(['Object readable with another user\'s key (token swap) | GET /orders/{orderId}']);
      const f = s.of(bolaTokenSwap)[0]!;
      expect(f.confidence).toBe('high');
      expect(f.parameter).toBe('orderId');
      expect(f.description).toMatch(/is in key 1's own listing of the collection and not in key 2's/);
      expect(f.evidence).toContain('== Attack: key 2 sends key 1\'s request (key 2) ==');
      // Both directions: key 1 also read one of key 2's orders.
      expect(f.evidence).toMatch(/The other direction leaked as well: key 1 read key 2's object/);
      expect(t.requests.count((r) => r.path === '/api/v2/orders/1002' && r.headers.authorization === `Bearer ${t.users.alice.key}`)).toBeGreaterThan(0);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bolaTokenSwap]);
    } finally {
      await t.close();
    }
  });

  it.each([
    ['bola-query', 'GET /documents/download', [ME, 'GET /documents', 'GET /documents/download'], 'documentId'],
    ['bola-body', 'POST /invoices/lookup', [ME, 'GET /orders', 'POST /invoices/lookup'], 'orderId'],
  ] as const)('finds %s', async (flaw, where, endpoints, param) => {
    const t = await targetWith(flaw);
    try {
      const s = await scanChecks(t, [bolaTokenSwap], { only: [...endpoints] });
      expect(s.of(bolaTokenSwap).map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual([`${where} ${param}`]);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bolaTokenSwap]);
    } finally {
      await t.close();
    }
  });
});

describe('API1.3 id swap', () => {
  it('finds bola-user-id with the user ids /me gives each key, in both directions', async () => {
    const t = await targetWith('bola-user-id');
    try {
      const s = await scanChecks(t, [bolaIdSwap], { only: [ME, 'GET /users/{userId}/addresses'] });
      const [f] = s.of(bolaIdSwap);
      expect(f).toMatchObject({ method: 'GET', path: '/users/{userId}/addresses', parameter: 'userId', confidence: 'high', severity: 'medium', cvss_score: 6.5 });
      expect(f!.evidence).toContain(`> GET /api/v2/users/${t.users.alice.id}/addresses`);
      expect(f!.evidence).toMatch(/The other direction leaked as well/);
      expect(t.requests.count({ path: `/api/v2/users/${t.users.bob.id}/addresses`, status: 200 })).toBeGreaterThanOrEqual(2);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bolaIdSwap]);
    } finally {
      await t.close();
    }
  });
});

describe('API1.2 create then steal', () => {
  it.each([
    ['bola-create-read', [ME, 'POST /notes', 'GET /notes/{noteId}'], 'GET', 'Another user can read, change or delete an object (create then steal)'],
    ['bola-path', [ME, 'POST /orders', 'GET /orders/{orderId}'], 'GET', 'Another user can read, change or delete an object (create then steal)'],
    ['bola-create-update', [ME, 'POST /notes', 'GET /notes/{noteId}', 'PUT /notes/{noteId}'], 'PUT', 'Another user can change an object (create then steal)'],
    ['bola-create-delete', [ME, 'POST /notes', 'GET /notes/{noteId}', 'DELETE /notes/{noteId}'], 'DELETE', 'Another user can delete an object (create then steal)'],
  ] as const)('finds %s', async (flaw, endpoints, method, name) => {
    const t = await targetWith(flaw);
    try {
      const s = await scanChecks(t, [bolaCreateSteal], { only: [...endpoints] });
      const found = s.of(bolaCreateSteal);
      expect(found.map((f) => [f.vulnerability_name, f.method, f.confidence])).toEqual([[name, method, 'high']]);
      expect(found[0]!.evidence).toMatch(/== key 1 creates the object \(key 1\) ==\n> POST /);
      if (method !== 'GET') expect(found[0]!.evidence).toMatch(/== key 1 reads it again \(key 1\) ==/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [bolaCreateSteal]);
      // Writes and deletes only ever address objects the scan created.
      const created = new Set(t.requests.filter({ method: 'POST', status: 201 }).map((r) => r.seq));
      expect(created.size).toBeGreaterThan(0);
      for (const r of t.requests.filter((x) => x.method !== 'GET' && x.method !== 'POST')) expect(r.path).not.toMatch(/a11ce000|b0b00000|\/100[1-8]$/);
    } finally {
      await t.close();
    }
  });
});

describe('use after delete', () => {
  it('finds a deleted note that is still readable, and that the list hides it (high)', async () => {
    const t = await targetWith('use-after-delete');
    try {
      const s = await scanChecks(t, [useAfterDelete], { only: [ME, 'POST /notes', 'GET /notes', 'GET /notes/{noteId}', 'DELETE /notes/{noteId}'] });
      expect(s.of(useAfterDelete).map((f) => [f.method, f.path, f.confidence])).toEqual([['DELETE', '/notes/{noteId}', 'high']]);
      expect(s.of(useAfterDelete)[0]!.evidence).toMatch(/== Key 1 deletes it \(key 1\) ==\n> DELETE/);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [useAfterDelete]);
    } finally {
      await t.close();
    }
  });
});

describe('without key 2', () => {
  it('skips the cross-user checks and says why; use after delete still runs', async () => {
    const t = await targetWith('bola-create-read', 'use-after-delete');
    try {
      const s = await scanChecks(t, BOLA_CHECKS, { key2: null, only: [ME, 'POST /notes', 'GET /notes', 'GET /notes/{noteId}', 'DELETE /notes/{noteId}'] });
      expect(s.outcome.skipped.map((x) => x.check_id).sort()).toEqual([bolaCreateSteal.id, bolaIdSwap.id, bolaTokenSwap.id, bolaEncodedIdSwap.id].sort());
      for (const x of s.outcome.skipped) expect(x.reason).toMatch(/second user \(key 2\)/);
      expect(s.of(useAfterDelete)).toHaveLength(1);
      expect(s.findings.filter((f) => f.check_id !== useAfterDelete.id)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('refuses to scan when both keys are the same user, saying how it knows', async () => {
    const t = await targetWith('bola-create-read');
    try {
      const s = await scanChecks(t, BOLA_CHECKS, { key2: await t.mintToken('alice'), only: [ME, 'POST /notes', 'GET /notes/{noteId}'] });
      expect(s.outcome.status).toBe('failed');
      expect(s.outcome.failureReason).toMatch(/^Key 1 and key 2 are the same user \(GET \/me returned \S+ for both\)/);
      expect(s.findings).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
