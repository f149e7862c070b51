import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { OobListener } from './oob';

const listeners: OobListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function started(): Promise<OobListener> {
  const l = new OobListener();
  await l.start();
  listeners.push(l);
  return l;
}

describe('out-of-band listener', () => {
  it('listens on 127.0.0.1 and hands out a unique token per injection', async () => {
    const l = await started();
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tokens = new Set(Array.from({ length: 200 }, () => l.token()));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(/^pcb[0-9a-f]{16}$/);
  });

  it('records a hit for its token and resolves a waiter, also one that came first', async () => {
    const l = await started();
    const token = l.token();
    const waiting = l.waitForHit(token, 2000);
    const res = await request(l.urlFor(token), { headers: { 'user-agent': 'probe/1' } });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toContain(`portcullis-oob ${token}`);
    const hit = await waiting;
    expect(hit).toMatchObject({ token, method: 'GET', url: `/p/${token}`, kind: 'plain' });
    expect(hit!.headers['user-agent']).toBe('probe/1');
    expect(await l.waitForHit(token, 0)).toEqual(hit);
    expect(l.hits(token)).toHaveLength(1);
  });

  it('ignores tokens it did not issue, and times out with null', async () => {
    const l = await started();
    const issued = l.token();
    await (await request(`${l.url}/p/pcb0123456789abcdef`)).body.text();
    expect(l.hits('pcb0123456789abcdef')).toEqual([]);
    const t0 = performance.now();
    expect(await l.waitForHit(issued, 50)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('redirects its redirect URL to an internal address (localhost) that records the second hop', async () => {
    const l = await started();
    const token = l.token();
    const first = await request(l.urlFor(token, 'redirect'));
    await first.body.text();
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(`http://localhost:${l.port}/i/${token}`);
    const second = await request(`http://127.0.0.1:${l.port}/i/${token}`);
    await second.body.text();
    expect((await l.waitForHit(token, 1000, 'internal'))?.kind).toBe('internal');
    expect(l.hits(token).map((h) => h.kind)).toEqual(['redirect', 'internal']);
  });

  it('resolves pending waiters with null when it closes', async () => {
    const l = await started();
    const waiting = l.waitForHit(l.token(), 60_000);
    await l.close();
    expect(await waiting).toBeNull();
  });
});
