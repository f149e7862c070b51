import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import { ChallengeFiller } from './challenge-fill';
import { curlSequence } from './evidence';
import { withChallengeSteps } from './evidence-challenge';
import type { ProbeRequest } from './http/engine';
import { Exchange } from './http/exchange';
import { Redactor } from './redact';
import { prepareRequest } from './requests';

const run = promisify(execFile);

/**
 * A small API behind a CAPTCHA: GET /captcha hands out a challenge (what `next` returns), POST /ratings
 * stores a rating only with the id and answer of a challenge it handed out, each answered once.
 */
function captchaApi() {
  const pending = new Map<string, string>();
  let n = 0;
  const state = { next: (id: number): { body: unknown; answer: string } => ({ body: { captchaId: id, captcha: '6 × 7 = ?' }, answer: '42' }), posts: 0 };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET' && req.url === '/captcha') {
        n += 1;
        const c = state.next(n);
        pending.set(String(n), c.answer);
        return send(200, c.body);
      }
      if (req.method === 'POST' && req.url === '/ratings') {
        state.posts += 1;
        const body = JSON.parse(text) as { captchaId?: unknown; challengeId?: unknown; captcha?: unknown; answer?: unknown; rating: number };
        const id = String(body.captchaId ?? body.challengeId).replace(/^c-/, '');
        const expected = pending.get(id);
        pending.delete(id);
        if (expected === undefined || String(body.captcha ?? body.answer) !== expected) return send(400, { error: 'Wrong answer to the CAPTCHA' });
        return send(201, { stored: { rating: body.rating } });
      }
      send(404, { error: 'not found' });
    });
  });
  return { server, state };
}

/** The challenge route and the write, whose body has `properties`. */
const endpoints = (properties: Record<string, unknown>): Endpoint[] => [
  { id: 'c', method: 'GET', path: '/captcha', parameters: [], request_body: null, operation_id: null } as unknown as Endpoint,
  { id: 'r', method: 'POST', path: '/ratings', parameters: [], operation_id: null, request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties } } } as unknown as Endpoint,
];
const NUMBERED = { captchaId: { type: 'integer' }, captcha: { type: 'string' }, rating: { type: 'integer' } };
const NAMED = { challengeId: { type: 'string' }, answer: { type: 'string' }, rating: { type: 'integer' } };

let seq = 0;
async function exchange(req: ProbeRequest): Promise<Exchange> {
  const res = await fetch(String(req.url), { method: req.method, headers: req.headers, body: req.body ?? undefined });
  const body = await res.text();
  const request = { method: req.method, url: String(req.url), headers: req.headers ?? {}, body: req.body ?? null, auth: { kind: 'none' as const }, placements: [], ...(req.operation ? { operation: req.operation } : {}), ...(req.challenge ? { challenge: req.challenge } : {}) };
  return new Exchange(++seq, request, { status: res.status, headers: { 'content-type': 'application/json' }, body, bytes: body.length, truncated: false }, null, 1);
}

/** What the scan does: the filler fetches a fresh challenge and fills the write, which is sent; then the finding's curl text. */
async function scannedCurl(base: string, properties: Record<string, unknown>, rating: number): Promise<{ write: Exchange; curl: string }> {
  const eps = endpoints(properties);
  const filler = new ChallengeFiller({ endpoints: eps, base: (p) => new URL(p, base), send: exchange });
  // The body as the scan builds it from the description, with a check's probe of the rating.
  const built = prepareRequest(eps[1]!, { base: (p) => new URL(p, base), placements: [], pathValues: {} }).bodyValue as Record<string, unknown>;
  const req: ProbeRequest = { method: 'POST', url: `${base}/ratings`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...built, rating }), operation: 'r' };
  const filled = await filler.fill(req);
  expect(filled?.challenge).toBeDefined();
  const write = await exchange(filled!);
  const labelled = [{ label: 'Attack: an out-of-range rating', exchange: write }];
  const steps = withChallengeSteps(null, write, labelled)!;
  return { write, curl: curlSequence(steps, write, new Redactor([])) };
}

const bash = async (text: string) => {
  try {
    return (await run('bash', ['--norc', '--noprofile', '-c', text], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 20_000 })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
};

describe('a write filled from a fresh challenge replays with a challenge of its own', () => {
  const api = captchaApi();
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => api.server.close(() => resolve())));

  it('works out an arithmetic question ("6 × 7 = ?") in the shell and sends it as the body types it', async () => {
    api.state.next = (id) => ({ body: { captchaId: id, captcha: '6 × 7 = ?' }, answer: '42' });
    const { write, curl } = await scannedCurl(base, NUMBERED, 99);
    expect(write.status, `${write.request.body} -> ${write.body}`).toBe(201);
    expect(curl).toContain('# 1. Setup: fetch a fresh challenge and read its id and answer');
    expect(curl).toContain('# 2. Attack: an out-of-range rating (no credentials) <- the proof');
    // The spent id and answer of the scan's challenge are not in the text: a fresh one's are read into variables.
    expect(curl).toContain(`"captchaId":'"$CAPTCHA_ID"'`);
    expect(curl).toContain(`"captcha":"'"$ANSWER"'"`);
    expect(curl).not.toContain('42');
    // The answer to another question, a day later.
    api.state.next = (id) => ({ body: { captchaId: id, captcha: '12 x 3 - 4 =' }, answer: '32' });
    const out = await bash(curl);
    expect(out).toMatch(/HTTP\/1\.1 201/);
    expect(out).toContain('"rating":99');
  });

  it('reads a handed-out answer and a string id from an answer that wraps the challenge', async () => {
    api.state.next = (id) => ({ body: { data: { challengeId: `c-${id}`, question: 'Type the word shown', answer: 'tulip' } }, answer: 'tulip' });
    const { write, curl } = await scannedCurl(base, NAMED, 7);
    expect(write.status).toBe(201);
    expect(write.request.challenge).toMatchObject({ id: { filter: '.data.challengeId' }, answer: { filter: '.data.answer', how: 'leaked' } });
    expect(curl).toContain(`CHALLENGE_ID=$(jq -c '.data.challengeId' <<<"$CHALLENGE")`);
    expect(curl).toContain(`{"challengeId":'"$CHALLENGE_ID"',"answer":'"$ANSWER"',"rating":7}`);
    api.state.next = (id) => ({ body: { data: { challengeId: `c-${id}`, question: 'Type the word shown', answer: 'daisy' } }, answer: 'daisy' });
    expect(await bash(curl)).toMatch(/HTTP\/1\.1 201/);
  });

  it('never lets the API\'s question run as a command: anything but digits and + - * / stops the steps', async () => {
    api.state.next = (id) => ({ body: { captchaId: id, captcha: '2 + 3' }, answer: '5' });
    const { curl } = await scannedCurl(base, NUMBERED, 4);
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-challenge-')), 'ran');
    // A hostile API a day later: arithmetic that would run a command in an array index.
    api.state.next = (id) => ({ body: { captchaId: id, captcha: `a[$(touch ${marker})]+1` }, answer: '1' });
    const posts = api.state.posts;
    const out = await bash(curl);
    expect(out).toContain('Not an arithmetic question');
    expect(fs.existsSync(marker)).toBe(false);
    expect(api.state.posts).toBe(posts);
  });
});
