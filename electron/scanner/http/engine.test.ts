import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalTargetError } from '../net-guard';
import { BudgetExceededError, Budget, HttpEngine, NOT_SENT_SLOW, OutOfScopeError, STREAM_LIMITS, type EngineOptions } from './engine';
import { AbortedError } from './limits';
import { MAX_RETRY_AFTER_MS, runAlone } from './pace';

interface Target {
  url: string;
  port: number;
  hits: { method: string; url: string; at: number }[];
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

const servers: Target[] = [];

async function target(handler: (req: http.IncomingMessage, res: http.ServerResponse, t: Target) => void): Promise<Target> {
  const t: Target = { url: '', port: 0, hits: [], inFlight: 0, maxInFlight: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    t.hits.push({ method: req.method ?? '', url: req.url ?? '', at: performance.now() });
    t.inFlight += 1;
    t.maxInFlight = Math.max(t.maxInFlight, t.inFlight);
    res.on('close', () => (t.inFlight -= 1));
    req.resume();
    req.on('end', () => handler(req, res, t));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.port = (server.address() as AddressInfo).port;
  t.url = `http://127.0.0.1:${t.port}`;
  t.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  servers.push(t);
  return t;
}

const ok = (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
};

const engines: HttpEngine[] = [];
function engine(base: string, over: Partial<EngineOptions> = {}): HttpEngine {
  const e = new HttpEngine({
    baseUrl: base,
    concurrency: 8,
    rps: 0,
    timeoutMs: 5000,
    retries: 2,
    maxBodyBytes: 1024 * 1024,
    maxRequests: 10_000,
    allowLocal: true,
    keys: { 1: 'key-one-secret', 2: 'key-two-secret' },
    signal: new AbortController().signal,
    ...over,
  });
  engines.push(e);
  return e;
}

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('scope', () => {
  it('never sends outside the base URL host and port', async () => {
    const api = await target(ok);
    const other = await target(ok);
    const e = engine(`${api.url}/v1`);
    await expect(e.send({ method: 'GET', url: `${other.url}/x` })).rejects.toBeInstanceOf(OutOfScopeError);
    await expect(e.send({ method: 'GET', url: `http://localhost:${api.port}/x` })).rejects.toBeInstanceOf(OutOfScopeError);
    await expect(e.send({ method: 'GET', url: 'file:///etc/passwd' })).rejects.toBeInstanceOf(OutOfScopeError);
    expect(other.hits).toHaveLength(0);
    expect(api.hits).toHaveLength(0);
    expect(e.resolve('/pets').href).toBe(`${api.url}/v1/pets`);
    // The other scheme on the same explicit port is the same server (transport checks).
    expect(e.inScope(new URL(`${api.url.replace('http:', 'https:')}/x`))).toBe(true);
    expect(e.inScope(new URL(`https://127.0.0.1/x`))).toBe(false);
  });

  it('follows redirects on the host but not off it', async () => {
    const other = await target(ok);
    const api = await target((req, res) => {
      if (req.url === '/a') {
        res.writeHead(302, { location: '/b' });
        return res.end();
      }
      if (req.url === '/away') {
        res.writeHead(302, { location: `${other.url}/steal` });
        return res.end();
      }
      ok(req, res);
    });
    const e = engine(api.url);
    const same = await e.send({ method: 'GET', url: `${api.url}/a` });
    expect(same.status).toBe(200);
    expect(same.redirects).toEqual([{ status: 302, from: `${api.url}/a`, to: `${api.url}/b` }]);
    const away = await e.send({ method: 'GET', url: `${api.url}/away` });
    expect(away.status).toBe(302);
    expect(away.blockedRedirect).toBe(`${other.url}/steal`);
    expect(other.hits).toHaveLength(0);
    expect(api.hits.map((h) => h.url)).toEqual(['/a', '/b', '/away']);
  });
});

describe('budgets', () => {
  it('stops at the scan budget and at a per-endpoint budget', async () => {
    const api = await target(ok);
    const e = engine(api.url, { maxRequests: 5 });
    const endpointBudget = new Budget('GET /x', 3);
    for (let i = 0; i < 3; i += 1) await e.send({ method: 'GET', url: `${api.url}/x` }, [endpointBudget]);
    await expect(e.send({ method: 'GET', url: `${api.url}/x` }, [endpointBudget])).rejects.toBeInstanceOf(BudgetExceededError);
    await e.send({ method: 'GET', url: `${api.url}/y` });
    await e.send({ method: 'GET', url: `${api.url}/y` });
    await expect(e.send({ method: 'GET', url: `${api.url}/y` })).rejects.toThrow(/scan \(5 requests\)/);
    expect(api.hits).toHaveLength(5);
    expect(e.requestsSent).toBe(5);
  });
});

describe('pacing', () => {
  it('keeps to the requests-per-second cap', async () => {
    const api = await target(ok);
    const e = engine(api.url, { rps: 20, concurrency: 8 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => e.send({ method: 'GET', url: `${api.url}/r${i}` })));
    const elapsed = performance.now() - started;
    expect(api.hits).toHaveLength(30);
    expect(elapsed).toBeGreaterThanOrEqual(29 * 50 - 20);
    const times = api.hits.map((h) => h.at).sort((a, b) => a - b);
    for (let i = 0; i < times.length; i += 1) {
      const inWindow = times.filter((t) => t >= times[i]! && t < times[i]! + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(21);
    }
  });

  it('bounds requests in flight', async () => {
    const api = await target((req, res) => setTimeout(() => ok(req, res), 40));
    const e = engine(api.url, { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => e.send({ method: 'GET', url: `${api.url}/slow` })));
    expect(api.maxInFlight).toBe(3);
  });
});

describe('failures', () => {
  it('retries connection errors only', async () => {
    const closed = await target(ok);
    const port = closed.port;
    await closed.close();
    servers.pop();
    const e = engine(`http://127.0.0.1:${port}`, { retries: 2 });
    const ex = await e.send({ method: 'GET', url: `http://127.0.0.1:${port}/` });
    expect(ex.response).toBeNull();
    expect(ex.error).toBe('connection refused');
    expect(e.requestsSent).toBe(3);

    const failing = await target((_req, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    const e2 = engine(failing.url);
    expect((await e2.send({ method: 'GET', url: `${failing.url}/` })).status).toBe(500);
    expect(failing.hits).toHaveLength(1);
  });

  it('retries a reset connection for idempotent methods, not for POST', async () => {
    let n = 0;
    const flaky = await target((req, res) => {
      n += 1;
      if (n % 2 === 1) return req.socket.destroy();
      ok(req, res);
    });
    const e = engine(flaky.url);
    expect((await e.send({ method: 'GET', url: `${flaky.url}/g` })).status).toBe(200);
    expect(flaky.hits).toHaveLength(2);
    const post = await e.send({ method: 'POST', url: `${flaky.url}/p`, body: '{}' });
    expect(post.error).toBe('connection reset');
    expect(flaky.hits).toHaveLength(3);
  });

  it('retries a timeout (a check needs the answer), but not the timeout of a probe with its own time limit (issue 27)', async () => {
    const silent = await target(() => undefined);
    const e = engine(silent.url, { timeoutMs: 200, retries: 2 });
    const ex = await e.send({ method: 'POST', url: `${silent.url}/proof`, body: '{}' });
    expect(ex.error).toBe('timeout');
    expect(silent.hits.filter((h) => h.url === '/proof')).toHaveLength(3);
    const own = await e.send({ method: 'GET', url: `${silent.url}/measured`, timeoutMs: 200 });
    expect(own.error).toBe('timeout');
    expect(silent.hits.filter((h) => h.url === '/measured')).toHaveLength(1);
  });

  it('honours a 429\'s Retry-After and sends the request again; a check measuring throttling gets the 429 (issue 27)', async () => {
    let refused = 0;
    const limited = await target((req, res) => {
      if (req.url === '/burst' || (req.url === '/proof' && refused++ === 0)) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        return res.end('{"error":"slow down"}');
      }
      ok(req, res);
    });
    const e = engine(limited.url, { concurrency: 2 });
    const budget = new Budget('check', 1);
    const ex = await e.send({ method: 'POST', url: `${limited.url}/proof`, body: '{}' }, [budget]);
    expect(ex.status).toBe(200);
    const proofs = limited.hits.filter((h) => h.url === '/proof');
    expect(proofs).toHaveLength(2);
    // The target asked for a second; the retry is the scan's, not the check's (its budget of one is not spent twice).
    expect(proofs[1]!.at - proofs[0]!.at).toBeGreaterThanOrEqual(950);
    expect(budget.used).toBe(1);
    const burst = await e.send({ method: 'GET', url: `${limited.url}/burst`, throttleIsAnswer: true });
    expect(burst.status).toBe(429);
    expect(limited.hits.filter((h) => h.url === '/burst')).toHaveLength(1);
  });

  it('gives up on a Retry-After past the bound, keeping the 429', async () => {
    const limited = await target((_req, res) => {
      res.writeHead(429, { 'retry-after': '3600' });
      res.end();
    });
    const e = engine(limited.url);
    const started = performance.now();
    expect((await e.send({ method: 'GET', url: `${limited.url}/x` })).status).toBe(429);
    expect(limited.hits).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(MAX_RETRY_AFTER_MS);
  });

  it('sends nothing more to an operation that took past the bar to answer with nothing else in flight (issue 27)', async () => {
    const api = await target((req, res) => setTimeout(() => ok(req, res), req.url === '/slow' ? 5_100 : 5));
    const e = engine(api.url, { timeoutMs: 8_000 });
    expect(e.slowOperationMs).toBe(5_000);
    const first = await e.send({ method: 'POST', url: `${api.url}/slow`, body: '{}', operation: 'op-slow' });
    expect(first.status).toBe(200);
    const again = await e.send({ method: 'POST', url: `${api.url}/slow`, body: '{}', operation: 'op-slow' });
    expect(again.response).toBeNull();
    expect(again.error).toMatch(new RegExp(`^${NOT_SENT_SLOW} \\(5\\.\\d s with nothing else in flight\\)$`));
    expect(api.hits.filter((h) => h.url === '/slow')).toHaveLength(1);
    expect((await e.send({ method: 'POST', url: `${api.url}/fast`, body: '{}', operation: 'op-fast' })).status).toBe(200);
    // A probe of the endpoint's path (an IDE page, a __typename document) tagged with the operation still goes.
    expect((await e.send({ method: 'GET', url: `${api.url}/graphiql`, operation: 'op-slow', pathProbe: true })).status).toBe(200);
    expect(e.slowOperations()).toEqual([{ operation: 'op-slow', ms: expect.any(Number), alone: true, evidence: first, ownMs: expect.any(Number), usualMs: 0 }]);
  }, 15_000);

  it('tells a slow operation from the requests waiting behind it on a one-worker server: it is sent once, never re-timed (issue 27)', async () => {
    // One worker, in order: /slow holds it for 5.2 s, the rest take 20 ms each.
    let busy = Promise.resolve();
    const api = await target((req, res) => {
      busy = busy.then(() => new Promise<void>((r) => setTimeout(() => (ok(req, res), r()), req.url === '/slow' ? 5_200 : 20)));
    });
    const e = engine(api.url, { concurrency: 4, timeoutMs: 8_000 });
    // Three requests ahead of it, three behind it: its own time starts when the last one ahead is answered.
    const ahead = Array.from({ length: 3 }, (_, i) => e.send({ method: 'GET', url: `${api.url}/a${i}`, operation: `op-a${i}` }));
    const slow = e.send({ method: 'POST', url: `${api.url}/slow`, body: '{}', operation: 'op-slow' });
    const behind = Array.from({ length: 3 }, (_, i) => e.send({ method: 'GET', url: `${api.url}/b${i}`, operation: `op-b${i}` }));
    const [first] = await Promise.all([slow, ...ahead, ...behind]);
    expect(first.status).toBe(200);
    const again = await e.send({ method: 'POST', url: `${api.url}/slow`, body: '{}', operation: 'op-slow' });
    expect(again.error).toMatch(new RegExp(`^${NOT_SENT_SLOW} \\(5\\.\\d s with nothing else in flight\\)$`));
    expect(api.hits.filter((h) => h.url === '/slow')).toHaveLength(1);
    // Those that waited behind it answered late, but their own time was short: they stay ordinary operations.
    expect(e.slowOperations().map((o) => [o.operation, o.alone])).toEqual([['op-slow', true]]);
    expect(e.slowOperations()[0]!.evidence).toBe(first);
  }, 20_000);

  it('runs a heavy probe alone: it waits for what is in flight, and nothing else starts until it ends (issue 27)', async () => {
    const during: number[] = [];
    const api = await target((req, res, t) => {
      if (req.url === '/heavy') during.push(t.inFlight);
      setTimeout(() => {
        if (req.url === '/heavy') during.push(t.inFlight);
        ok(req, res);
      }, req.url === '/heavy' ? 150 : 30);
    });
    const e = engine(api.url, { concurrency: 4 });
    const first = Array.from({ length: 6 }, (_, i) => e.send({ method: 'GET', url: `${api.url}/a${i}` }));
    const heavy = runAlone(() => e.send({ method: 'GET', url: `${api.url}/heavy` }));
    const after = Array.from({ length: 6 }, (_, i) => e.send({ method: 'GET', url: `${api.url}/b${i}` }));
    await Promise.all([...first, heavy, ...after]);
    expect(api.maxInFlight).toBe(4);
    expect(during).toEqual([1, 1]);
    const order = api.hits.map((h) => h.url);
    // Those queued before it went first; those queued after it waited for it.
    expect(order.indexOf('/heavy')).toBeGreaterThan(Math.max(...first.map((_, i) => order.indexOf(`/a${i}`))));
    expect(order.indexOf('/heavy')).toBeLessThan(Math.min(...after.map((_, i) => order.indexOf(`/b${i}`))));
  });

  it('cuts large bodies at the limit', async () => {
    const big = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(3 * 1024 * 1024));
    });
    const e = engine(big.url, { maxBodyBytes: 64 * 1024 });
    const ex = await e.send({ method: 'GET', url: `${big.url}/` });
    expect(ex.response?.truncated).toBe(true);
    expect(ex.body).toHaveLength(64 * 1024);
  });
});

describe('credentials', () => {
  it('puts keys where the scheme says, and only when asked', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const urls: string[] = [];
    const api = await target((req, res) => {
      seen.push(req.headers);
      urls.push(req.url ?? '');
      ok(req, res);
    });
    const e = engine(api.url);
    await e.send({ method: 'GET', url: `${api.url}/a`, auth: { kind: 'key', key: 1 } });
    await e.send({ method: 'GET', url: `${api.url}/b`, auth: { kind: 'key', key: 2 }, placements: [{ in: 'query', name: 'api_key', format: 'raw' }] });
    await e.send({ method: 'GET', url: `${api.url}/c`, auth: { kind: 'key', key: 1 }, placements: [{ in: 'cookie', name: 'sid', format: 'raw' }] });
    await e.send({ method: 'GET', url: `${api.url}/d`, auth: { kind: 'key', key: 2 }, placements: [{ in: 'header', name: 'Authorization', format: 'basic' }] });
    await e.send({ method: 'GET', url: `${api.url}/e` });
    expect(seen[0]!.authorization).toBe('Bearer key-one-secret');
    expect(urls[1]).toBe('/b?api_key=key-two-secret');
    expect(seen[2]!.cookie).toBe('sid=key-one-secret');
    expect(seen[3]!.authorization).toBe(`Basic key-two-secret`);
    expect(seen[4]!.authorization).toBeUndefined();
  });
});

describe('cancellation', () => {
  it('stops queued and in-flight requests at once, and sends nothing after', async () => {
    const api = await target((req, res) => setTimeout(() => ok(req, res), 100));
    const controller = new AbortController();
    const e = engine(api.url, { concurrency: 2, signal: controller.signal });
    const all = Array.from({ length: 20 }, () => e.send({ method: 'GET', url: `${api.url}/w` }).then(() => 'done', (err: unknown) => err));
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    const results = await Promise.all(all);
    expect(results.every((r) => r instanceof AbortedError)).toBe(true);
    const count = api.hits.length;
    expect(count).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 150));
    expect(api.hits.length).toBe(count);
    await expect(e.send({ method: 'GET', url: `${api.url}/w` })).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('local addresses off', () => {
  it('refuses loopback targets, by literal address and by name', async () => {
    const api = await target(ok);
    const byAddress = engine(api.url, { allowLocal: false });
    await expect(byAddress.send({ method: 'GET', url: `${api.url}/` })).rejects.toBeInstanceOf(LocalTargetError);
    const byName = engine(`http://localhost:${api.port}`, { allowLocal: false, retries: 0 });
    const ex = await byName.send({ method: 'GET', url: `http://localhost:${api.port}/` });
    expect(ex.error).toBe('refused: the host resolves to a local address');
    expect(api.hits).toHaveLength(0);
  });

  it('refuses IPv6 literals that carry a loopback IPv4 address, before connecting (issue 18)', async () => {
    for (const host of ['[::7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[::ffff:0:7f00:1]']) {
      const e = engine(`http://${host}:9/`, { allowLocal: false, retries: 0 });
      await expect(e.send({ method: 'GET', url: `http://${host}:9/` }), host).rejects.toBeInstanceOf(LocalTargetError);
      expect(e.requestsSent, host).toBe(0);
    }
  });
});

describe('a request ends whatever the target does (issue 30, item 2)', () => {
  it('times out a body that drips a byte at a time, at the deadline for headers and body together', async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const tick = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(tick));
    });
    const e = engine(t.url, { timeoutMs: 800, retries: 0 });
    const started = performance.now();
    const ex = await e.send({ method: 'GET', url: `${t.url}/drip` });
    expect(ex.error).toBe('timeout');
    expect(ex.response).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out headers that never come', async () => {
    const t = await target(() => undefined);
    const e = engine(t.url, { timeoutMs: 500, retries: 0 });
    const started = performance.now();
    const ex = await e.send({ method: 'GET', url: `${t.url}/silent` });
    expect(ex.error).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('reads an endless event stream up to its bound and keeps what came as a truncated answer', async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let n = 0;
      const tick = setInterval(() => res.write(`data: {"n":${(n += 1)}}\n\n`), 50);
      res.on('close', () => clearInterval(tick));
    });
    const e = engine(t.url, { timeoutMs: 15_000, retries: 0 });
    const started = performance.now();
    const ex = await e.send({ method: 'GET', url: `${t.url}/events` });
    const took = performance.now() - started;
    expect(ex.status).toBe(200);
    expect(ex.response?.truncated).toBe(true);
    expect(ex.body).toContain('data: {"n":1}');
    expect(took).toBeGreaterThanOrEqual(STREAM_LIMITS.ms - 100);
    expect(took).toBeLessThan(STREAM_LIMITS.ms + 1_500);
  });

  it('stops reading a fast stream at its byte bound', async () => {
    const t = await target((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = `${JSON.stringify({ pad: 'x'.repeat(1000) })}\n`;
      const tick = setInterval(() => {
        for (let i = 0; i < 20; i += 1) res.write(line);
      }, 5);
      res.on('close', () => clearInterval(tick));
    });
    const e = engine(t.url, { timeoutMs: 15_000, retries: 0 });
    const ex = await e.send({ method: 'GET', url: `${t.url}/feed` });
    expect(ex.response?.truncated).toBe(true);
    expect(ex.response?.bytes).toBe(STREAM_LIMITS.bytes);
  });
});
