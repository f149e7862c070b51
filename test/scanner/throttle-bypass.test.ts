// A login limit that keys on a client address the client sends (issue 28 item 5): once the burst is
// throttled, attempts with a new made-up address in X-Forwarded-For (or X-Real-IP...) are processed again.
// Silent where the limit keys on the connection or the account.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { authBruteForce } from '../../electron/scanner/checks/api2-authentication/brute-force';
import { endpoint, scanServer } from './check-harness';

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A login that refuses every password and allows 5 attempts per client, the client told by `clientOf`. */
async function login(clientOf: (req: http.IncomingMessage, user: string) => string): Promise<{ url: string; seen: string[]; addressed: string[] }> {
  const counts = new Map<string, number>();
  const seen: string[] = [];
  const addressed: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const user = String((JSON.parse(body || '{}') as { username?: unknown }).username ?? '');
      const client = clientOf(req, user);
      seen.push(client);
      for (const h of ['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip']) if (req.headers[h]) addressed.push(h);
      const n = (counts.get(client) ?? 0) + 1;
      counts.set(client, n);
      const [status, out] = n > 5 ? [429, { error: 'Too many attempts' }] : [401, { error: 'Invalid username or password' }];
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '900' } : {}) });
      res.end(JSON.stringify(out));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, addressed };
}

const LOGIN = endpoint('POST', '/auth/login', {
  security: [],
  flags: ['BKEN_AUTH'],
  request_body: {
    content_type: 'application/json',
    required: true,
    schema: { type: 'object', required: ['username', 'password'], properties: { username: { type: 'string' }, password: { type: 'string' } } },
  },
});

describe('throttles bypassed by client-address headers', () => {
  it('finds a limit keyed on X-Forwarded-For, with the addresses it sent', async () => {
    const t = await login((req) => String(req.headers['x-forwarded-for'] ?? req.socket.remoteAddress));
    const { findings } = await scanServer(t.url, [LOGIN], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
    expect(findings.map((f) => [f.vulnerability_name, f.parameter, f.severity])).toEqual([['Attempt limit bypassed with X-Forwarded-For', 'x-forwarded-for', 'high']]);
    expect(findings[0]!.description).toContain('limits password guesses (HTTP 429 after a burst)');
    expect(t.seen.filter((c) => c.startsWith('203.0.113.'))).toHaveLength(3);
  });

  it('finds one keyed on the last header tried (True-Client-IP)', async () => {
    const t = await login((req) => String(req.headers['true-client-ip'] ?? req.socket.remoteAddress));
    const { findings } = await scanServer(t.url, [LOGIN], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
    expect(findings.map((f) => f.vulnerability_name)).toEqual(['Attempt limit bypassed with True-Client-IP']);
  });

  it('stays silent where the limit keys on the connection or on the account', async () => {
    for (const clientOf of [(req: http.IncomingMessage) => String(req.socket.remoteAddress), (_: http.IncomingMessage, user: string) => user]) {
      const t = await login(clientOf);
      const { findings } = await scanServer(t.url, [LOGIN], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
      expect(findings).toEqual([]);
      // Each header was tried once after the throttle, then the check stopped.
      expect(t.addressed).toEqual(['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip']);
    }
  });
});

/**
 * A password reset by security answer ({email, answer, new, repeat}) under a limit of `max` attempts per
 * client that announces itself in X-RateLimit-* headers (as express-rate-limit does); the client told by `clientOf`.
 */
async function resetByAnswer(max: number, clientOf: (req: http.IncomingMessage) => string, used = 0): Promise<{ url: string; addressed: string[] }> {
  const counts = new Map<string, number>();
  const addressed: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const client = clientOf(req);
      for (const h of ['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip']) if (req.headers[h]) addressed.push(h);
      const n = (counts.get(client) ?? (client === req.socket.remoteAddress ? used : 0)) + 1;
      counts.set(client, n);
      const headers = { 'x-ratelimit-limit': String(max), 'x-ratelimit-remaining': String(Math.max(0, max - n)) };
      if (n > max) {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '300', ...headers });
        return res.end('Too many requests, please try again later.');
      }
      res.writeHead(401, { 'content-type': 'text/html', ...headers });
      res.end('Wrong answer to security question.');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, addressed };
}

const RESET = endpoint('POST', '/user/reset-password', {
  security: [],
  flags: ['BKEN_AUTH'],
  summary: 'Reset a forgotten password with the security answer',
  request_body: {
    content_type: 'application/json',
    required: true,
    schema: {
      type: 'object',
      required: ['email', 'answer', 'new', 'repeat'],
      properties: { email: { type: 'string', format: 'email' }, answer: { type: 'string' }, new: { type: 'string', format: 'password' }, repeat: { type: 'string', format: 'password' } },
    },
  },
});

describe('reset limits that answer with refusals', () => {
  it('finds a limit the burst did not reach, counted afresh for each X-Forwarded-For', async () => {
    const t = await resetByAnswer(100, (req) => String(req.headers['x-forwarded-for'] ?? req.socket.remoteAddress));
    const { findings } = await scanServer(t.url, [RESET], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
    expect(findings.map((f) => [f.vulnerability_name, f.parameter, f.severity])).toEqual([['Attempt limit bypassed with X-Forwarded-For', 'x-forwarded-for', 'high']]);
    expect(findings[0]!.description).toMatch(/limits reset guesses \(answer\) \(a limit of 100 attempts, counted down in X-RateLimit-Remaining/);
    expect(findings[0]!.description).toContain('99 and 99 left for two new addresses');
  });

  it('finds it when earlier requests used the limit up before the burst', async () => {
    const t = await resetByAnswer(100, (req) => String(req.headers['x-forwarded-for'] ?? req.socket.remoteAddress), 100);
    const { findings } = await scanServer(t.url, [RESET], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
    expect(findings.map((f) => [f.vulnerability_name, f.parameter])).toEqual([['Attempt limit bypassed with X-Forwarded-For', 'x-forwarded-for']]);
  });

  it('reports only the weak limit where it keys on the connection', async () => {
    const t = await resetByAnswer(100, (req) => String(req.socket.remoteAddress));
    const { findings } = await scanServer(t.url, [RESET], [authBruteForce], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' });
    expect(findings.map((f) => [f.vulnerability_name, f.parameter])).toEqual([['No throttling of login, token or password-reset attempts', 'answer']]);
    expect(findings[0]!.description).toContain('wrong reset secrets (answer)');
    expect(t.addressed).toEqual(['x-forwarded-for', 'x-real-ip', 'x-client-ip', 'true-client-ip']);
  });
});
