// Re-test of a finding over both transports (issue 29, item 3): POST /api/findings/retest runs the
// finding's check on its operation again with the scan's keys and answers reproduced (new evidence,
// keys redacted) or not reproduced (what it sent) once the flaw is gone; owner and manage may re-test,
// read gets 403, strangers and unknown findings 404; one re-test of an API at a time and none while a
// scan of it runs (409); the outcome shows on the finding in the scan's details and in its history;
// a finding not reproduced can be closed as fixed (out of the counts), one that was cannot; and a
// later scan that finds a fixed finding again opens it again.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETEST_LIMITS } from '../../shared/constants';
import type { Finding, FindingRetest, RetestHistoryResponse, RetestResponse, ScanDetails } from '../../shared/contract';
import { RETEST_MESSAGES, TRIAGE_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { miniApiInput, startMiniApi, type MiniApi } from '../helpers/mini-api';

type Json<T = Record<string, unknown>> = { success: boolean; message: string; data: T };

const CHECK = 'api2-credentials-not-enforced';
const OPERATION = { method: 'GET', path: '/pets/{petId}' };

describe.each(['http', 'ipc'] as const)('finding re-test over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let mini: MiniApi;
  let owner: TestUser;
  let manager: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let apiId: string;
  let scanId: string;
  let finding: Finding;

  const post = <T>(u: TestUser | null, path: string, body: unknown) => t.call<Json<T>>('POST', path, { token: u?.token, body });
  const retest = (u: TestUser | null, findingId: string) => post<RetestResponse>(u, '/api/findings/retest', { finding_id: findingId });
  const closeFixed = (u: TestUser | null, findingId: string) => post<{ triage: Finding['triage'] }>(u, '/api/findings/close-fixed', { finding_id: findingId });
  const history = (u: TestUser, findingId: string) => t.call<Json<RetestHistoryResponse>>('GET', `/api/findings/retests?finding_id=${findingId}`, { token: u.token });
  const details = async (id: string) => (await post<ScanDetails>(owner, '/api/scan/details', { scan_id: id })).json.data;
  const findingIn = (d: ScanDetails, id: string) => d.results.results.find((f) => f.id === id)!;
  const counted = async (id: string) =>
    (await sql<{ findings_count: number }>`SELECT findings_count FROM scans WHERE id = ${id}`.execute(tc.core.store.db)).rows[0]!.findings_count;

  async function scan(u: TestUser): Promise<string> {
    const created = await post<{ scan_id: string }>(u, '/api/scan/create', { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, api_key_2: mini.users.bob.token, rps: 0 });
    expect(created.status, created.text).toBe(201);
    const started = await post<{ scan_id: string }>(u, '/api/scan/start', { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.text).toBe(200);
    await tc.core.services.scans.wait(started.json.data.scan_id);
    return started.json.data.scan_id;
  }

  /** Holds every request the mini API gets until the returned release is called; resolves once one is held. */
  async function holdTarget(): Promise<{ held: Promise<void>; release: () => void }> {
    let release!: () => void;
    let heldOne!: () => void;
    const held = new Promise<void>((r) => (heldOne = r));
    mini.gate = new Promise<void>((r) => (release = r));
    mini.onHeld = () => heldOne();
    return {
      held,
      release: () => {
        mini.gate = null;
        mini.onHeld = null;
        release();
      },
    };
  }

  beforeAll(async () => {
    mini = await startMiniApi({ noAuth: true });
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    manager = await signUpAndLogin(t, 'manager');
    reader = await signUpAndLogin(t, 'reader');
    stranger = await signUpAndLogin(t, 'stranger');
    apiId = await tc.core.services.repos.apis.createWithEndpoints(miniApiInput(owner.id, mini.url), tc.clock.now());
    await tc.core.store.db
      .insertInto('shares')
      .values([
        { api_id: apiId, user_id: reader.id, permission: 'read', created_at: '', updated_at: '' },
        { api_id: apiId, user_id: manager.id, permission: 'manage', created_at: '', updated_at: '' },
      ])
      .execute();
    scanId = await scan(owner);
    const d = await details(scanId);
    expect(d.status, d.results.scan_info.failure_reason ?? '').toBe('completed');
    finding = d.results.results.find((f) => f.check_id === CHECK && f.method === OPERATION.method && f.path === OPERATION.path)!;
    expect(finding, d.results.results.map((f) => `${f.check_id} ${f.method} ${f.path}`).join('\n')).toBeDefined();
    expect(finding.retest ?? null).toBeNull();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await tc?.close();
    await mini?.close();
  });

  it('refuses the anonymous (401), a read share (403), strangers and unknown findings (404), and a bad body (400)', async () => {
    expect((await retest(null, finding.id)).status).toBe(401);
    const read = await retest(reader, finding.id);
    expect(read.status).toBe(403);
    const strange = await retest(stranger, finding.id);
    expect(strange.status).toBe(404);
    expect(strange.json.message).toBe(TRIAGE_MESSAGES.findingNotFound);
    const unknown = await retest(owner, '0190a0a0-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect((await post(owner, '/api/findings/retest', {})).status).toBe(400);
    expect((await post(owner, '/api/findings/retest', { finding_id: 42 })).status).toBe(400);
    // Nothing ran: no history.
    expect((await history(owner, finding.id)).json.data.retests).toEqual([]);
    expect((await history(stranger, finding.id)).status).toBe(404);
  });

  it('reproduces the finding while the flaw is there: the new evidence, keys redacted, on the finding and in its history', async () => {
    const before = mini.requests.length;
    const started = Date.now();
    const res = await retest(manager, finding.id);
    const took = Date.now() - started;
    expect(res.status, res.text).toBe(200);
    expect(res.json.message).toBe(RETEST_MESSAGES.reproduced);
    const r: FindingRetest = res.json.data.retest;
    expect(r).toMatchObject({ finding_id: finding.id, fingerprint: finding.fingerprint, outcome: 'reproduced', by: manager.username });
    expect(r.evidence).toContain('Method: GET');
    expect(r.curl).toContain('curl');
    expect(res.text).not.toContain(mini.users.alice.token);
    expect(res.text).not.toContain(mini.users.bob.token);
    // One check on one operation: the sign-in, the identity checks and the check's own few requests.
    const sent = mini.requests.length - before;
    expect(r.requests_sent).toBe(sent);
    expect(sent).toBeLessThan(40);
    expect(mini.requests.slice(before).every((q) => q.url === '/me' || q.url.startsWith('/pets'))).toBe(true);
    expect(took).toBeLessThan(RETEST_LIMITS.maxDurationMs);
    const shown = findingIn(await details(scanId), finding.id);
    expect(shown.retest).toEqual({ outcome: 'reproduced', at: r.at, by: manager.username });
    // Still present: it cannot be closed as fixed.
    const close = await closeFixed(owner, finding.id);
    expect(close.status).toBe(409);
    expect(close.json.message).toBe(RETEST_MESSAGES.closeNeedsRetest);
  }, 60_000);

  it('answers 409 while another re-test of the API runs, and while a scan of it runs', async () => {
    const gate = await holdTarget();
    const first = retest(owner, finding.id);
    await gate.held;
    const second = await retest(manager, finding.id);
    expect(second.status).toBe(409);
    expect(second.json.message).toBe(RETEST_MESSAGES.busyRetest);
    gate.release();
    expect((await first).json.data.retest.outcome).toBe('reproduced');

    const scanGate = await holdTarget();
    const created = await post<{ scan_id: string }>(owner, '/api/scan/create', { api_id: apiId, scan_profile: 'owasp', api_key_1: mini.users.alice.token, api_key_2: mini.users.bob.token, rps: 0 });
    const started = await post<{ scan_id: string }>(owner, '/api/scan/start', { api_id: apiId, scan_id: created.json.data.scan_id });
    expect(started.status, started.text).toBe(200);
    try {
      await scanGate.held;
      const during = await retest(manager, finding.id);
      expect(during.status).toBe(409);
      expect(during.json.message).toBe(RETEST_MESSAGES.busyScan);
    } finally {
      const cancelling = post(owner, '/api/scan/cancel', { scan_id: started.json.data.scan_id });
      scanGate.release();
      await cancelling;
      await tc.core.services.scans.wait(started.json.data.scan_id);
    }
  }, 60_000);

  it('does not reproduce it once the flaw is fixed, lists what it sent, and then closes it as fixed, out of the counts', async () => {
    mini.setFlaws({ noAuth: false });
    try {
      const res = await retest(owner, finding.id);
      expect(res.status, res.text).toBe(200);
      expect(res.json.message).toBe(RETEST_MESSAGES.notReproduced);
      const r = res.json.data.retest;
      expect(r).toMatchObject({ outcome: 'not_reproduced', evidence: null, curl: null, by: owner.username });
      expect(r.sent.some((line) => /^GET http:\/\/127\.0\.0\.1:\d+\/pets\/\d+ → 401$/.test(line))).toBe(true);
      expect(res.text).not.toContain(mini.users.alice.token);

      // The history, newest first, for whoever may see the API.
      const h = await history(reader, finding.id);
      expect(h.status).toBe(200);
      expect(h.json.data.retests.map((x) => x.outcome)).toEqual(['not_reproduced', 'reproduced', 'reproduced']);
      expect(h.json.data.retests[0]!.sent).toEqual(r.sent);

      expect((await closeFixed(reader, finding.id)).status).toBe(403);
      const countedBefore = await counted(scanId);
      const close = await closeFixed(manager, finding.id);
      expect(close.status, close.text).toBe(200);
      expect(close.json.data.triage).toMatchObject({ state: 'fixed', set_by: manager.username });
      expect(close.json.data.triage!.reason).toContain('Not reproduced by the re-test of');
      const shown = findingIn(await details(scanId), finding.id);
      expect(shown.triage?.state).toBe('fixed');
      expect(shown.retest?.outcome).toBe('not_reproduced');
      expect(await counted(scanId)).toBe(countedBefore - 1);
      // The triage export carries it; a hand-set triage cannot set it.
      expect((await post(owner, '/api/findings/triage', { finding_id: finding.id, state: 'fixed' })).status).toBe(400);
    } finally {
      mini.setFlaws({ noAuth: true });
    }
  }, 60_000);

  it('opens a fixed finding again when a later scan finds it again, and counts it', async () => {
    const again = await scan(owner);
    const d = await details(again);
    const same = d.results.results.find((f) => f.fingerprint === finding.fingerprint)!;
    expect(same).toBeDefined();
    expect(same.triage).toMatchObject({ state: 'open', reason: RETEST_MESSAGES.reopenedReason, set_by: null });
    expect(findingIn(await details(scanId), finding.id).triage?.state).toBe('open');
  }, 60_000);
});
