// A sign-up whose body repeats the password (passwordRepeat) and a create with a bare confirmation:
// api2-confirmation-mismatch registers a user with a contradicting confirmation, which then logs in;
// silent where the server compares the two fields.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { confirmationMismatch } from '../../electron/scanner/checks/api2-authentication/confirmation-mismatch';
import { confirmationPairs } from '../../electron/scanner/checks/common/confirmation-fields';
import { scanChecks } from '../helpers/check-scan';
import { endpoint, expectWellFormed, expectWithinBudget, hardened, scanServer, targetWith } from './check-harness';

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** Sign-up {email, password, passwordRepeat}; `compares` off: the flaw. */
async function shop(compares: boolean): Promise<{ url: string; registered: string[] }> {
  const users = new Map<string, string>();
  const registered: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const b = JSON.parse(body || '{}') as Record<string, string>;
      if (req.method === 'POST' && req.url === '/users') {
        if (!b.email || !b.password) return res.writeHead(400).end('{"error":"email and password are required"}');
        if (compares && b.password !== b.passwordRepeat) return res.writeHead(400).end('{"error":"passwordRepeat does not match password"}');
        users.set(b.email, b.password);
        registered.push(b.email);
        return res.writeHead(201).end(JSON.stringify({ status: 'success', data: { id: users.size + 10, email: b.email } }));
      }
      if (req.method === 'POST' && req.url === '/login') {
        const ok = users.get(b.email ?? '') === b.password;
        return res.writeHead(ok ? 200 : 401).end(JSON.stringify(ok ? { token: `tok-${Buffer.from(b.email!).toString('hex')}` } : { error: 'Invalid email or password.' }));
      }
      res.writeHead(404).end('{"error":"not found"}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, registered };
}

const json = (properties: Record<string, unknown>, required: string[]) => ({ content_type: 'application/json', required: true, schema: { type: 'object', required, properties } });
const SIGNUP = endpoint('POST', '/users', {
  security: [],
  flags: ['BOPLA', 'SEC_MISC'],
  summary: 'Register a customer account',
  request_body: json({ email: { type: 'string', format: 'email' }, password: { type: 'string', format: 'password' }, passwordRepeat: { type: 'string', format: 'password' } }, ['email', 'password', 'passwordRepeat']),
  responses: { '201': { description: 'created', content_type: 'application/json', schema: null } },
});
const LOGIN = endpoint('POST', '/login', {
  security: [],
  flags: ['BKEN_AUTH'],
  request_body: json({ email: { type: 'string', format: 'email' }, password: { type: 'string', format: 'password' } }, ['email', 'password']),
});

describe('confirmation fields', () => {
  it('pairs confirmations by name, and a bare repeat with the one password field', () => {
    const s = { type: 'string' };
    expect(confirmationPairs({ email: s, password: s, passwordRepeat: s })).toEqual([{ confirm: 'passwordRepeat', of: 'password' }]);
    expect(confirmationPairs({ password: s, password_confirmation: s, confirm_email: s, email: s })).toEqual([
      { confirm: 'password_confirmation', of: 'password' },
      { confirm: 'confirm_email', of: 'email' },
    ]);
    expect(confirmationPairs({ email: s, new: { type: 'string', format: 'password' }, repeat: s })).toEqual([{ confirm: 'repeat', of: 'new' }]);
    expect(confirmationPairs({ score: s, region: s, confirmed: { type: 'boolean' } })).toEqual([]);
  });

  it('finds a sign-up that registers a user whose passwordRepeat contradicts its password', async () => {
    const t = await shop(false);
    const { findings } = await scanServer(t.url, [SIGNUP, LOGIN], [confirmationMismatch], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' }, undefined, 'auto');
    expect(findings.map((f) => [f.check_id, f.method, f.path, f.parameter, f.severity])).toEqual([['api2-confirmation-mismatch', 'POST', '/users', 'passwordRepeat', 'low']]);
    expect(findings[0]!.description).toContain('logged in with its password');
    // The scan's own user (key 2's slot), then the one with the contradicting confirmation.
    expect(t.registered).toHaveLength(2);
  });

  it('is silent where the server compares them', async () => {
    const t = await shop(true);
    const { findings } = await scanServer(t.url, [SIGNUP, LOGIN], [confirmationMismatch], { 1: 'k1Q7vXr2LmZ9pT4sW8nB3cY6hJ0dF5gA' }, undefined, 'auto');
    expect(findings).toEqual([]);
    // The scan's own registration types the password twice alike (passwordRepeat is recognised as its confirmation).
    expect(t.registered).toHaveLength(1);
  });
});

describe('on the test target (signup-confirmation-ignored)', () => {
  const ROUTES = ['GET /me', 'POST /auth/signup', 'POST /auth/login'];

  it('registers a user whose passwordConfirmation contradicts its password, which then signs in', async () => {
    const t = await targetWith('signup-confirmation-ignored');
    try {
      const s = await scanChecks(t, [confirmationMismatch], { only: ROUTES, signup: 'auto' });
      expect(s.of(confirmationMismatch).map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(['POST /auth/signup passwordConfirmation']);
      expectWellFormed(s, s.findings);
      expectWithinBudget(s, [confirmationMismatch]);
    } finally {
      await t.close();
    }
  });

  it('is silent on the hardened twin, whose sign-up compares them', async () => {
    const t = await hardened();
    try {
      const s = await scanChecks(t, [confirmationMismatch], { only: ROUTES, signup: 'auto' });
      expect(s.findings).toEqual([]);
      expect(t.internalErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
