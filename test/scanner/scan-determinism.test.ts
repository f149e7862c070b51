// Issue 27 item 3: a scan's probe values come from its seed (the same seed sends the same values, another
// seed others), and a timing proof spoiled by one slow moment is confirmed again instead of lost.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import { commandInjection } from '../../electron/scanner/checks/api8-misconfiguration/command-injection';
import { corsPolicy } from '../../electron/scanner/checks/api8-misconfiguration/cors';
import { undocumentedBehaviour } from '../../electron/scanner/checks/api9-inventory/undocumented-behaviour';
import { SeededRandom } from '../../electron/scanner/random';
import { scanChecks } from '../helpers/check-scan';
import { startTarget } from '../targets';
import { endpoint, scanServer } from './check-harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('the seed', () => {
  it('gives the same stream for the same seed and label, and another for another seed, label or item', () => {
    const draw = (seed: number, label: string) => new SeededRandom(seed, label).hex(16);
    expect(draw(7, 'cors *')).toBe(draw(7, 'cors *'));
    expect(draw(7, 'cors *')).not.toBe(draw(8, 'cors *'));
    expect(draw(7, 'cors *')).not.toBe(draw(7, 'cors GET /a'));
    const r = new SeededRandom(7, 'cors *');
    expect(r.fork('GET /a').hex(8)).toBe(new SeededRandom(7, 'cors *').fork('GET /a').hex(8));
    expect(r.fork('GET /a').hex(8)).not.toBe(r.fork('GET /b').hex(8));
    for (let i = 0; i < 200; i += 1) {
      const n = r.int(900_000_000, 989_999_999);
      expect(n).toBeGreaterThanOrEqual(900_000_000);
      expect(n).toBeLessThanOrEqual(989_999_999);
      expect(r.int(0, 999_999)).toBeLessThan(1_000_000);
    }
  });

  it('decides the made-up values a scan sends, whatever order its requests finish in', async () => {
    const checks = [corsPolicy, noOrInvalidCredentials, undocumentedBehaviour];
    // A fresh target for each scan: a scan leaves rows behind (a reservation of a product exists after
    // it), and a target that answers otherwise is not the same scan, whatever the seed.
    const madeUp = async (seed: number): Promise<{ values: string[]; problems: string[] }> => {
      const t = await startTarget({ mode: 'hardened' });
      cleanups.push(() => t.close());
      const { outcome } = await scanChecks(t, checks, { seed, concurrency: 8 });
      const values = new Set<string>();
      for (const r of t.requests.all()) {
        const origin = r.headers.origin;
        if (typeof origin === 'string' && origin.includes('portcullis-cors-probe')) values.add(`origin ${origin}`);
        const auth = r.headers.authorization;
        if (typeof auth === 'string' && auth !== `Bearer ${t.users.alice.key}` && auth !== `Bearer ${t.users.bob.key}`) values.add(`credential ${auth}`);
        if (/\/9\d{8}(\/|$|\?)/.test(r.path)) values.add(`id ${r.path}`);
      }
      return { values: [...values].sort(), problems: outcome.problems };
    };
    const first = await madeUp(7);
    expect(first.values.some((v) => v.startsWith('origin '))).toBe(true);
    expect(first.values.some((v) => v.startsWith('credential '))).toBe(true);
    // A scan that met a stall of the machine (a request timed out, an operation seemed too slow to send more) sent
    // fewer probes, and says so in its problems: that pair is not the same scan, and is scanned again (twice at most).
    let reference = first;
    for (let attempt = 0; ; attempt += 1) {
      const again = await madeUp(7);
      const stalled = reference.problems.length > 0 || again.problems.length > 0;
      if (attempt < 2 && stalled && again.values.join('\n') !== reference.values.join('\n')) {
        reference = await madeUp(7);
        continue;
      }
      expect(again.values).toEqual(reference.values);
      break;
    }
    const other = await madeUp(8);
    expect(other.values.filter((v) => first.values.includes(v))).toEqual([]);
  }, 120_000);
});

describe('timing proofs repeat until they agree', () => {
  /**
   * A command injection that really sleeps, for one separator only (";sleep N;"), on a server that is slow
   * at times: the first `late` answers asking for no delay (the controls of the confirmations) come 1.5 s
   * late, as under a load spike.
   */
  async function sleepyServer(late: number): Promise<{ url: string; controls: () => number }> {
    let controls = 0;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const file = url.searchParams.get('file') ?? '';
      const m = /^[^']*;sleep (\d+);$/.exec(file);
      let delay = m ? Number(m[1]) * 1000 : 0;
      if (m && m[1] === '0' && (controls += 1) <= late) delay = 1500;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ file, sha256: '0'.repeat(64) }));
      }, delay);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, controls: () => controls };
  }

  const checksum = endpoint('GET', '/checksum', {
    parameters: [{ name: 'file', in: 'query', required: true, schema: { type: 'string', example: 'catalog.txt' } }],
  });

  it('finds the injection when one confirmation is spoiled, and confirms it a second time only then', async () => {
    const s = await sleepyServer(1);
    const { findings } = await scanServer(s.url, [checksum], [commandInjection], { 1: 'k1' });
    expect(findings.map((f) => `${f.check_id} ${f.parameter}`)).toEqual(['api8-command-injection file']);
    expect(s.controls()).toBe(2);
    expect(findings[0]!.description).toMatch(/with 0 s it answered at baseline speed/);
  }, 30_000);

  it('reports nothing when the second confirmation disagrees too, and tries no third', async () => {
    const s = await sleepyServer(2);
    const { findings, outcome } = await scanServer(s.url, [checksum], [commandInjection], { 1: 'k1' });
    expect(findings).toEqual([]);
    expect(s.controls()).toBe(2);
    expect(outcome.requestsByCheck[commandInjection.id] ?? 0).toBeLessThanOrEqual(commandInjection.budget);
  }, 60_000);
});
