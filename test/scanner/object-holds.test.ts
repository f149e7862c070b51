// Checks that write an object and read it back see their own write, whatever other checks write to the same
// object meanwhile (object-holds.ts): the holds on their own, then two real checks racing on one record of a
// real server inside a scan.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineCheck } from '../../electron/scanner/checks/common/helpers';
import { TimingGate } from '../../electron/scanner/checks/common/timing-gate';
import type { Check, CheckContext, FindingDraft } from '../../electron/scanner/checks/types';
import { currentHolds, MAX_WAIT_MS, ObjectHolds, runWithHolds } from '../../electron/scanner/object-holds';
import { endpoint, scanServer } from './check-harness';

const ME = 'http://127.0.0.1:1/me';
const OTHER = 'http://127.0.0.1:1/orders/7';

/** Settles within the current turn or not at all: whether a wait is over. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('holds', () => {
  it('keep a written object for its writer until the writer has read it back; reads never wait', async () => {
    const holds = new ObjectHolds();
    const [a, b, c] = [{}, {}, {}];
    await holds.before(a, ME, 'PUT');
    expect(holds.holderOf(ME)).toBe(a);
    // b's write waits; c's read does not.
    const bWrite = holds.before(b, ME, 'PATCH');
    expect(await settled(bWrite)).toBe(false);
    const cRead = await holds.before(c, ME, 'GET');
    cRead();
    expect(holds.holderOf(ME)).toBe(a);
    // a reads its object back: once answered, b has it.
    const aRead = await holds.before(a, ME, 'GET');
    expect(await settled(bWrite)).toBe(false);
    aRead();
    expect(await settled(bWrite)).toBe(true);
    expect(holds.holderOf(ME)).toBe(b);
    holds.releaseAll(b);
    expect(holds.holderOf(ME)).toBeUndefined();
  });

  it('keep an object only until the writer’s next request has been answered, wherever it went', async () => {
    const holds = new ObjectHolds();
    const [a, b] = [{}, {}];
    const aWrite = await holds.before(a, ME, 'PUT');
    // The write's own answer does not end its hold.
    aWrite();
    expect(holds.holderOf(ME)).toBe(a);
    const bWrite = holds.before(b, ME, 'PUT');
    // a reads a listing, or goes on to another object: once answered, b has ME.
    const aElsewhere = await holds.before(a, OTHER, 'GET');
    expect(await settled(bWrite)).toBe(false);
    aElsewhere();
    expect(await settled(bWrite)).toBe(true);
    expect(holds.holderOf(ME)).toBe(b);
  });

  it('hand an object on when its writer ends, in order of arrival; a query string is the same object', async () => {
    const holds = new ObjectHolds();
    const [a, b, c] = [{}, {}, {}];
    await holds.before(a, ObjectHolds.addressOf('http://127.0.0.1:1/me?fields=all'), 'DELETE');
    const order: string[] = [];
    const bWrite = holds.before(b, ObjectHolds.addressOf(new URL(ME)), 'PUT').then(() => order.push('b'));
    const cWrite = holds.before(c, ME, 'PUT').then(() => order.push('c'));
    holds.releaseAll(a);
    await bWrite;
    expect(await settled(cWrite)).toBe(false);
    holds.releaseAll(b);
    await cWrite;
    expect(order).toEqual(['b', 'c']);
    // POST creates are not held (a collection is everyone's).
    expect(ObjectHolds.holds('POST')).toBe(false);
  });

  it('let the others go first when a writer writes again without reading, except inside a burst', async () => {
    const holds = new ObjectHolds();
    const [a, b] = [{}, {}];
    await holds.before(a, ME, 'PUT');
    // Nobody waiting: a keeps it.
    await holds.before(a, ME, 'PUT');
    expect(holds.holderOf(ME)).toBe(a);
    const bWrite = holds.before(b, ME, 'PUT');
    // A burst's writes leave together: a keeps it.
    await holds.before(a, ME, 'PUT', { burst: true });
    expect(await settled(bWrite)).toBe(false);
    // An ordinary second write: b first, a behind it.
    const aAgain = holds.before(a, ME, 'PUT');
    await bWrite;
    expect(holds.holderOf(ME)).toBe(b);
    expect(await settled(aAgain)).toBe(false);
    holds.releaseAll(b);
    await aAgain;
    expect(holds.holderOf(ME)).toBe(a);
  });

  it('give a task all its waiting writes at once: a check sending several writes together never waits for itself', async () => {
    const holds = new ObjectHolds();
    const [a, b] = [{}, {}];
    await holds.before(b, ME, 'PUT');
    const first = holds.before(a, ME, 'PUT');
    const second = holds.before(a, ME, 'PATCH');
    holds.releaseAll(b);
    expect(await settled(Promise.all([first, second]))).toBe(true);
    expect(holds.holderOf(ME)).toBe(a);
  });

  it('never wait in a circle, and never longer than the longest wait', async () => {
    const holds = new ObjectHolds();
    const [a, b] = [{}, {}];
    await holds.before(a, ME, 'PUT');
    await holds.before(b, OTHER, 'PUT');
    const aWaits = holds.before(a, OTHER, 'PUT');
    expect(await settled(aWaits)).toBe(false);
    // b waiting for a's object would close the circle: b goes without it.
    expect(await settled(holds.before(b, ME, 'PUT'))).toBe(true);
    holds.releaseAll(b);
    await aWaits;

    vi.useFakeTimers();
    const slow = {};
    const waits = holds.before(slow, ME, 'PUT');
    vi.advanceTimersByTime(MAX_WAIT_MS - 1);
    expect(await Promise.race([waits.then(() => true), Promise.resolve(false)])).toBe(false);
    vi.advanceTimersByTime(1);
    await waits;
    // It went without the hold: a still holds its object.
    expect(holds.holderOf(ME)).toBe(a);
  });

  it('end when their task enters a timing measurement, where it may wait for a screening that waits for its object', async () => {
    const holds = new ObjectHolds();
    const gate = new TimingGate();
    const [a, b] = [{}, {}];
    await runWithHolds({ holder: a, holds }, async () => {
      await holds.before(a, ME, 'PUT');
      expect(currentHolds()?.holder).toBe(a);
    });
    expect(holds.holderOf(ME)).toBe(a);
    // b screens (shared) and waits for a's object; a then asks for a confirmation (exclusive) and gives the object up.
    let bWrote = false;
    const t0 = Date.now();
    const screening = gate.run(false, async () => {
      await holds.before(b, ME, 'PUT');
      bWrote = true;
    });
    await runWithHolds({ holder: a, holds }, () => gate.run(true, async () => undefined));
    await screening;
    expect(bWrote).toBe(true);
    // Not by the longest wait running out: at once.
    expect(Date.now() - t0).toBeLessThan(MAX_WAIT_MS / 5);
    expect(currentHolds()).toBeUndefined();
  });

  it('end every wait when the scan stops', async () => {
    const controller = new AbortController();
    const holds = new ObjectHolds(controller.signal);
    await holds.before({}, ME, 'PUT');
    const waits = holds.before({}, ME, 'PUT');
    controller.abort();
    await waits;
    expect(holds.holderOf(ME)).toBeUndefined();
  });
});

describe('in a scan', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));
  });

  /** One record at /me: a PUT stores its note at once, a GET reads it 150 ms after it arrives (a slow read). */
  async function recordServer(): Promise<string> {
    let note = '';
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 1, note }));
        };
        if (req.method === 'PUT') {
          note = (JSON.parse(Buffer.concat(chunks).toString() || '{}') as { note?: string }).note ?? '';
          answer();
        } else setTimeout(answer, 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function writer(id: string, run: (ctx: CheckContext) => AsyncGenerator<FindingDraft>): Check {
    return defineCheck({
      id,
      title: `Writer ${id}`,
      flag: 'BOPLA',
      owasp: 'API3:2023',
      cwe: 'CWE-915',
      confidence: 'medium',
      cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:L/A:N',
      kind: 'active',
      safety: 'safe',
      scope: 'endpoint',
      budget: 50,
      description: 'Writes the record and reads it back.',
      remediation: 'Nothing to fix: a test probe.',
      references: ['https://owasp.org/API-Security/'],
      appliesTo: (e) => e.method === 'PUT',
      run,
    });
  }

  it('a read-back sees the check’s own write although another check writes the record meanwhile', async () => {
    const url = await recordServer();
    const put = (ctx: CheckContext, note: string) =>
      ctx.send({ method: 'PUT', url: ctx.url('/me'), headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note }), auth: { kind: 'key', key: 1 } });
    const verifier = writer('test-verifier', async function* (ctx) {
      await put(ctx, 'verifier-marker');
      const back = await ctx.send({ method: 'GET', url: ctx.url('/me'), auth: { kind: 'key', key: 1 } });
      if (back.body.includes('verifier-marker')) {
        yield { name: 'The record keeps the note', description: 'The read-back shows the note written.', exchanges: [{ label: 'Read-back', exchange: back }] };
      }
    });
    // Another check writing the same record again and again, the first time while the verifier's read is on its way.
    const scribbler = writer('test-scribbler', async function* (ctx) {
      await new Promise((r) => setTimeout(r, 40));
      for (let i = 0; i < 5; i += 1) await put(ctx, `scribble-${i}`);
      yield* [];
    });
    for (let round = 0; round < 3; round += 1) {
      const { findings } = await scanServer(url, [endpoint('PUT', '/me'), endpoint('GET', '/me')], [verifier, scribbler], { 1: 'k1' });
      expect(findings.map((f) => f.check_id)).toEqual(['test-verifier']);
    }
  });
});
