// The time-based input checks of issue #5 against the Acme test target: SQL injection (blind,
// time-based), OS command injection and slow responses under oversized input. Each measures a
// baseline first and confirms at a second, different delay; the target's delays stay at 2 s or less.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { slowOversize } from '../../electron/scanner/checks/api4-resource-consumption/input-size';
import { commandInjection } from '../../electron/scanner/checks/api8-misconfiguration/command-injection';
import { sqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/sql-injection';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan, type CheckScanOptions } from '../helpers/check-scan';
import { seeded } from '../helpers/seeded-random';
import { onlyFlaws, startTarget, type FlawId, type Target } from '../targets';
import { endpoint, expectWithinBudget, scanServer } from './check-harness';
import { INPUT_CHECKS } from './checks-input-shared';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function scanOnly(flaw: FlawId | null, checks: Check[], opts: CheckScanOptions): Promise<{ t: Target; s: CheckScan }> {
  const t = await startTarget({ mode: 'hardened', flaws: flaw ? onlyFlaws(flaw) : {} });
  targets.push(t);
  const s = await scanChecks(t, checks, opts);
  expect(s.outcome.status).toBe('completed');
  expectWithinBudget(s, INPUT_CHECKS);
  return { t, s };
}

const DELAYS = /asking the database to sleep 1 s delayed the answer by \d+ ms, asking for 2 s by \d+ ms, and asking for 0 s answered at baseline speed/;

describe('time-based checks', () => {
  it('finds blind SQL injection by time, confirmed at a second delay (sqli-time)', async () => {
    const routes = ['GET /orders', 'GET /products/{productId}/reviews'];
    const { s } = await scanOnly('sqli-time', [sqlInjection], { only: routes });
    const found = s.of(sqlInjection);
    expect(found.map((f) => `${f.vulnerability_name} | ${f.method} ${f.path} | ${f.parameter}`).sort()).toEqual([
      'SQL injection (time-based) | GET /orders | status',
      'SQL injection (time-based) | GET /products/{productId}/reviews | productId',
    ]);
    for (const f of found) {
      expect(f.confidence).toBe('high');
      expect(f.description).toMatch(DELAYS);
      expect(f.evidence).toContain('== Confirmation: sleep 2 s (key 1) ==');
      expect(f.evidence).toContain('== Control: sleep 0 s (key 1) ==');
    }
  });

  it('finds command injection by time, confirmed at a second delay (cmd-injection)', async () => {
    const { s } = await scanOnly('cmd-injection', [commandInjection], { only: ['GET /downloads/checksum', 'GET /downloads/content'] });
    const [f, ...rest] = s.of(commandInjection);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ method: 'GET', path: '/downloads/checksum', parameter: 'file', confidence: 'high' });
    expect(f!.description).toMatch(/the same with 2 s by \d+ ms, and with 0 s it answered at baseline speed/);
  });

  it('finds responses that slow down with oversized input (slow-oversize)', async () => {
    const { s } = await scanOnly('slow-oversize', [slowOversize], { only: ['GET /products/search', 'GET /products'] });
    expect(s.of(slowOversize).map((f) => [f.path, f.parameter, f.confidence])).toEqual([['/products/search', 'q', 'medium']]);
    expect(s.of(slowOversize)[0]!.evidence).toContain('Confirmation: 1000 characters');
  });

  it('stays silent on the hardened twin, where the same routes validate their input', async () => {
    const { s, t } = await scanOnly(null, [sqlInjection, commandInjection, slowOversize], {
      only: ['GET /orders', 'GET /products/{productId}/reviews', 'GET /downloads/checksum', 'GET /products/search', 'GET /products'],
    });
    expect(s.findings).toEqual([]);
    expect(t.internalErrors).toEqual([]);
  });
});

describe('time-based checks on a one-worker server', () => {
  it('confirms a delay alone: sleeps on one endpoint, which hold up the whole server, do not make the others look injectable', async () => {
    // Requests are handled one at a time; on /search a MySQL-style SLEEP(n) in q holds the only worker
    // for n seconds, so every request queued behind it (the other endpoints' probes) answers late too.
    let queue: Promise<void> = Promise.resolve();
    const server = http.createServer((req, res) => {
      queue = queue.then(async () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const sleep = /SLEEP\((\d+)\)/i.exec(url.searchParams.get('q') ?? '');
        if (url.pathname === '/search' && sleep) await new Promise((r) => setTimeout(r, Number(sleep[1]) * 1000));
        const ok = req.headers.authorization === 'Bearer worker-key';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { items: [{ id: 1, name: 'a' }] } : { error: 'unauthorized' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const q = { name: 'q', in: 'query' as const, required: true, schema: { type: 'string', example: 'lamp' } };
      const paths = ['/search', '/products', '/orders', '/reviews'];
      const { findings, outcome } = await scanServer(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        paths.map((p) => endpoint('GET', p, { flags: ['SEC_MISC'], parameters: [q] })),
        [sqlInjection],
        { 1: 'worker-key' },
      );
      expect(outcome.status).toBe('completed');
      expect(findings.map((f) => `${f.vulnerability_name} | ${f.path} | ${f.parameter}`)).toEqual(['SQL injection (time-based) | /search | q']);
    } finally {
      server.close();
    }
  });
});

describe('slow responses on erratic servers (api4-slow-oversized-input)', () => {
  it('trap: answers that vary at random whatever the input, stall at times, or are slow for any long value are not reported', async () => {
    // /jitter-N answers after 0-700 ms at random; /stall-N at once, or after 600 ms one time in three; /step
    // after 700 ms for any q past 100 characters, so half the oversized value costs as much as all of it.
    const noise = new Map<string, () => number>();
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      if (!noise.has(path)) noise.set(path, seeded(Number(path.replace(/\D/g, '') || 0) + (path.startsWith('/stall') ? 100 : 1)));
      const r = noise.get(path)!();
      const q = url.searchParams.get('q') ?? '';
      const wait = path.startsWith('/jitter') ? r * 700 : path.startsWith('/stall') ? (r < 1 / 3 ? 600 : 0) : q.length > 100 ? 700 : 0;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: [{ id: 1, name: q.slice(0, 20) }] }));
      }, wait);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const q = { name: 'q', in: 'query' as const, required: true, schema: { type: 'string', maxLength: 100, example: 'lamp' } };
      const paths = [...Array.from({ length: 5 }, (_, i) => `/jitter-${i}`), ...Array.from({ length: 5 }, (_, i) => `/stall-${i}`), '/step'];
      const { findings, outcome } = await scanServer(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        paths.map((p) => endpoint('GET', p, { flags: ['URC'], parameters: [q] })),
        [slowOversize],
        { 1: 'noisy-key' },
      );
      expect(outcome.status).toBe('completed');
      expect(findings).toEqual([]);
    } finally {
      server.close();
    }
  });
  it('finds a slowdown although single samples came late, as on a loaded machine: a cold first baseline, a paused half-size answer', async () => {
    // 0.3 ms of work per character past 100 (2,000 characters: 570 ms); the very first answer takes 300 ms
    // more (a cold start) and the first 1,000-character one 450 ms more (a pause of the busy machine).
    let first = true;
    let firstHalf = true;
    const server = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      let wait = Math.max(0, q.length - 100) * 0.3;
      if (first) wait += 300;
      if (q.length === 1000 && firstHalf) wait += 450;
      firstHalf &&= q.length !== 1000;
      first = false;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: [{ id: 1, name: q.slice(0, 20) }] }));
      }, wait);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const q = { name: 'q', in: 'query' as const, required: true, schema: { type: 'string', maxLength: 100, example: 'lamp' } };
      const { findings } = await scanServer(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        [endpoint('GET', '/search', { flags: ['URC'], parameters: [q] })],
        [slowOversize],
        { 1: 'noisy-key' },
      );
      expect(findings.map((f) => [f.path, f.parameter])).toEqual([['/search', 'q']]);
      expect(findings[0]!.evidence).toContain('Confirmation: 1000 characters');
    } finally {
      server.close();
    }
  });
});
