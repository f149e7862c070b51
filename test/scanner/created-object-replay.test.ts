// Issue 29, item 4: a finding whose proof request names an object the scan created before the check
// ran (an order the resource pool made, read by its id) gets curl steps that start with that create,
// read the new id from its answer and use it, so the steps replay on a fresh instance of the API,
// where the scan's order does not exist (before: one command with the scan's literal id, which the
// fresh instance answers 404).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { noOrInvalidCredentials } from '../../electron/scanner/checks/api2-authentication/credentials-not-enforced';
import type { FindingOrigins } from '../../electron/scanner/evidence-origins';
import { buildFinding } from '../../electron/scanner/findings';
import { Exchange, type RequestAuth } from '../../electron/scanner/http/exchange';
import { Redactor } from '../../electron/scanner/redact';
import type { CreatedObject } from '../../electron/scanner/resources';
import { curlVariables } from '../../shared/curl-variables';
import { scanChecks } from '../helpers/check-scan';
import { expectWellFormed, isCurlSequence, targetWith } from './check-harness';

describe('a proof that names an object the scan created replays from that create', () => {
  it('an order read by its id without credentials: the steps create the order, keep its id, read it (fresh instance)', async () => {
    const t = await targetWith('auth-none');
    let curl = '';
    let scannedId = '';
    try {
      const s = await scanChecks(t, [noOrInvalidCredentials], { only: ['GET /me', 'POST /orders', 'GET /orders/{orderId}'] });
      expectWellFormed(s, s.findings);
      const f = s.of(noOrInvalidCredentials).find((x) => x.path === '/orders/{orderId}');
      expect(f, s.findings.map((x) => `${x.method} ${x.path}`).join('\n')).toBeDefined();
      curl = f!.curl;
      scannedId = /\/orders\/(\d+)/.exec(f!.evidence)![1]!;
    } finally {
      await t.close();
    }
    expect(isCurlSequence(curl)).toBe(true);
    const commands = curl.split('\n').filter((l) => !l.startsWith('#'));
    // The first step after BASE creates the order as its owner and keeps the id its answer gives.
    expect(commands[1]).toMatch(/^OBJECT_ID=\$\(curl -s -X POST .*-H 'authorization: Bearer '"\$VICTIM_TOKEN".*"\$BASE"'\/api\/v2\/orders' \| jq -r '\.id'\); echo "OBJECT_ID=\$OBJECT_ID"$/);
    expect(curl).toMatch(/^# 1\. Setup: create the object the next steps name \(key 1\)$/m);
    // The proof reads that id, with no credentials, and no longer names the scan's own order.
    const proof = curl.split('\n')[curl.split('\n').findIndex((l) => / <- the proof$/.test(l)) + 1]!;
    expect(proof).toBe(`curl -i -X GET "$BASE"'/api/v2/orders/'"$OBJECT_ID"`);
    expect(curl).not.toMatch(new RegExp(`/orders/${scannedId}\\b`));
    expect(curlVariables(curl)).toEqual(['VICTIM_TOKEN']);
    expect(curl).toMatch(/^# {3}VICTIM_TOKEN: the token of key 1 \(the victim\)$/m);

    // A fresh instance: none of the scan's orders exist there.
    const fresh = await targetWith('auth-none');
    try {
      const script = curl.replace(/^BASE=.*$/m, `BASE='${new URL(fresh.baseUrl).origin}'`);
      // Asynchronously: the target answers from this process.
      const { stdout: out } = await promisify(execFile)('bash', ['--norc', '-euo', 'pipefail', '-c', script], { env: { PATH: process.env.PATH, VICTIM_TOKEN: fresh.users.alice.key }, encoding: 'utf8', timeout: 20_000 });
      const id = /^OBJECT_ID=(\d+)$/m.exec(out)?.[1];
      expect(id, out).toBeDefined();
      expect(out).toMatch(/^HTTP\/1\.1 200 /m);
      expect(out).toContain(`"id":${id}`);
    } finally {
      await fresh.close();
    }
  });
});

function exchange(seq: number, method: string, url: string, auth: RequestAuth, status: number, body: unknown, reqBody: unknown = null, headers: Record<string, string> = {}): Exchange {
  const text = JSON.stringify(body);
  return new Exchange(
    seq,
    { method, url, headers: { ...headers, ...(reqBody === null ? {} : { 'content-type': 'application/json' }) }, body: reqBody === null ? null : JSON.stringify(reqBody), auth, placements: [{ in: 'header', name: 'authorization', format: 'bearer' }] },
    { status, headers: { 'content-type': 'application/json' }, body: text, bytes: text.length, truncated: false },
    null,
    5,
  );
}

const KEY1 = 'key1-7f3a9c21e4b5d6a7f8e9';
const KEY2 = 'key2-0b1c2d3e4f5a6b7c8d9e';
const AS1: RequestAuth = { kind: 'key', key: 1 };
const AS2: RequestAuth = { kind: 'key', key: 2 };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const created = (id: string, ex: Exchange): CreatedObject => ({ id, key: 1, producer: {} as Endpoint, exchange: ex, location: null, parents: {}, sent: null });
const origins = (objects: CreatedObject[], users: FindingOrigins['user'] = () => null): FindingOrigins => ({ objects: () => objects, user: users });

describe('the steps start with what the proof names that the scan made before (unit)', () => {
  it('a comment of a post: both creates, parent first, each id kept in a variable; an order with the same number elsewhere is not one (trap)', () => {
    const post = exchange(2, 'POST', 'http://127.0.0.1:9/api/posts', AS1, 201, { id: 31, title: 'mine' }, { title: 'mine' }, bearer(KEY1));
    const comment = exchange(4, 'POST', 'http://127.0.0.1:9/api/posts/31/comments', AS1, 201, { id: 77, text: 'hi' }, { text: 'hi' }, bearer(KEY1));
    const order = exchange(5, 'POST', 'http://127.0.0.1:9/api/orders', AS1, 201, { id: 77 }, { item: 3 }, bearer(KEY1));
    const read = exchange(9, 'GET', 'http://127.0.0.1:9/api/posts/31/comments/77', AS2, 200, { id: 77, text: 'hi' }, null, bearer(KEY2));
    const r = new Redactor([
      { label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY1 },
      { label: '[key 2]', envVar: 'PORTCULLIS_KEY_2', value: KEY2 },
    ]);
    const f = buildFinding(noOrInvalidCredentials, { description: 'x', exchanges: [{ label: 'Attack: key 2 reads it', exchange: read }] }, null, r, undefined, origins([created('31', post), created('77', comment), created('77', order)]));
    const lines = f.curl.split('\n');
    expect(lines.filter((l) => /^# \d+\. /.test(l))).toEqual([
      '# 1. Setup: create the object the next steps name (key 1)',
      '# 2. Setup: create the object the next steps name (key 1)',
      '# 3. Attack: key 2 reads it (key 2) <- the proof',
    ]);
    expect(f.curl).toContain(`OBJECT_ID=$(curl -s -X POST -H 'authorization: Bearer '"$VICTIM_TOKEN" -H 'content-type: application/json' --data-raw '{"title":"mine"}' "$BASE"'/api/posts' | jq -r '.id')`);
    expect(f.curl).toContain(`OBJECT_ID_2=$(curl -s -X POST -H 'authorization: Bearer '"$VICTIM_TOKEN" -H 'content-type: application/json' --data-raw '{"text":"hi"}' "$BASE"'/api/posts/'"$OBJECT_ID"'/comments' | jq -r '.id')`);
    expect(lines.at(-1)).toBe(`curl -i -X GET -H 'authorization: Bearer '"$ATTACKER_TOKEN" "$BASE"'/api/posts/'"$OBJECT_ID"'/comments/'"$OBJECT_ID_2"`);
    expect(f.curl).not.toContain('/api/orders');
    expect(curlVariables(f.curl)).toEqual(['VICTIM_TOKEN', 'ATTACKER_TOKEN']);
    // Without what the scan made before, the one command names the scan's own objects.
    const alone = buildFinding(noOrInvalidCredentials, { description: 'x', exchanges: [{ label: 'Attack: key 2 reads it', exchange: read }] }, null, r);
    expect(alone.curl).toBe(`curl -i -X GET -H 'authorization: Bearer '"$PORTCULLIS_KEY_2" 'http://127.0.0.1:9/api/posts/31/comments/77'`);
  });

  it('a request a user the scan registered sends: its registration and login come first, its token read from the login', () => {
    const [password, token] = ['Pc-created4Pw12-7x', 'tok4-9f8e7d6c5b4a3f2e1d0c'];
    const r = new Redactor([
      { label: '[created user]', envVar: 'PORTCULLIS_CREATED_USER_PASSWORD', value: password },
      { label: '[created-4]', envVar: 'PORTCULLIS_CREATED_4_TOKEN', value: token },
    ]);
    const as4: RequestAuth = { kind: 'identity', name: 'created-4' };
    const registration = exchange(1, 'POST', 'http://127.0.0.1:9/users/register', { kind: 'none' }, 201, { status: 'success' }, { username: 'pcs4', password });
    const login = exchange(2, 'POST', 'http://127.0.0.1:9/users/login', { kind: 'none' }, 200, { auth_token: token }, { username: 'pcs4', password });
    const slow = exchange(6, 'PUT', 'http://127.0.0.1:9/users/pcs4/email', as4, 200, { status: 'success' }, { email: 'aaaaaaaaaaaaaaaaaaaaaaaa!' }, bearer(token));
    const user = { identity: 'created-4', role: 'user' as const, registration, logins: [login], password, token };
    const f = buildFinding(noOrInvalidCredentials, { description: 'x', exchanges: [{ label: 'Attack', exchange: slow }] }, null, r, undefined, origins([], (auth) => (auth.kind === 'identity' && auth.name === 'created-4' ? user : null)));
    const lines = f.curl.split('\n');
    expect(lines.filter((l) => /^# \d+\. /.test(l))).toEqual(['# 1. Setup: created-4 (a user) registers (no credentials)', '# 2. Setup: created-4 logs in (no credentials)', '# 3. Attack (created-4) <- the proof']);
    expect(f.curl).toMatch(/^USER_TOKEN=\$\(curl -s -X POST .*'"\$USER_PASSWORD"'.* \| jq -r '\.auth_token'\)$/m);
    expect(lines.at(-1)).toContain(`-H 'authorization: Bearer '"$USER_TOKEN"`);
    // Every variable is set by a step or chosen at the top: nothing to export, no PORTCULLIS_CREATED_4_TOKEN.
    expect(curlVariables(f.curl)).toEqual([]);
    expect(f.curl).not.toContain('PORTCULLIS_CREATED');
    for (const secret of [password, token]) expect(f.curl).not.toContain(secret);
  });
});
