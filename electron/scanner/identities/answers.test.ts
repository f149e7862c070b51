import { describe, expect, it } from 'vitest';
import { Exchange } from '../http/exchange';
import { diagnosePointer, loginAnswerOf, readValue, safeBodyExcerpt, tokenPointers, whyNotFound } from './answers';

function answer(body: string, headers: Record<string, string> = {}): Exchange {
  return new Exchange(1, { method: 'POST', url: 'http://127.0.0.1/login', headers: {}, body: null, auth: { kind: 'none' }, placements: [] }, { status: 200, headers, body, bytes: body.length, truncated: false }, null, 1);
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
}

describe('a regex token source', () => {
  it('reads the first group, or the whole match, from the body or the headers', () => {
    expect(readValue({ from: 'regex', pattern: '"token":"([^"]+)"' }, answer('{"token":"abc.def"}'))).toBe('abc.def');
    expect(readValue({ from: 'regex', pattern: 'tok_[a-z0-9]+' }, answer('here: tok_9x1 done'))).toBe('tok_9x1');
    expect(readValue({ from: 'regex', pattern: 'x-auth: (\\S+)', in: 'headers' }, answer('', { 'x-auth': 's3cr3t' }))).toBe('s3cr3t');
    expect(readValue({ from: 'regex', pattern: 'token=(\\w+)' }, answer('nothing here'))).toBeNull();
  });

  it('runs a catastrophic pattern in linear time: ^(a+)+$ against a run of a and a mismatch', () => {
    // A backtracking engine takes seconds on 28 characters and doubles with each one more.
    const short = timed(() => readValue({ from: 'regex', pattern: '^(a+)+$' }, answer(`${'a'.repeat(28)}!`)));
    expect(short.value).toBeNull();
    expect(short.ms).toBeLessThan(250);
    const long = timed(() => readValue({ from: 'regex', pattern: '^(a+)+$' }, answer(`${'a'.repeat(200_000)}!`)));
    expect(long.value).toBeNull();
    expect(long.ms).toBeLessThan(500);
  });

  it('searches a bounded start of a large answer with a large pattern, and says so when the value is not found', () => {
    const source = { from: 'regex' as const, pattern: '([ab]{900}b{900})!' };
    const body = `${'ab'.repeat(500_000)}!`;
    const r = timed(() => readValue(source, answer(body)));
    expect(r.value).toBeNull();
    expect(r.ms).toBeLessThan(1_000);
    expect(whyNotFound(source, answer(body))).toMatch(/^ \(the pattern searched the first [\d,]+ characters of it\)$/);
    expect(whyNotFound({ from: 'regex', pattern: 'token=(\\w+)' }, answer('short'))).toBe('');
  });

  it('says why a pattern saved before patterns ran on RE2 finds nothing', () => {
    const source = { from: 'regex' as const, pattern: 'token=(?=\\w)(\\w+)' };
    expect(readValue(source, answer('token=abc'))).toBeNull();
    expect(whyNotFound(source, answer('token=abc'))).toMatch(/^ \(pattern uses a lookahead \(\(\?=\.\.\.\)\), which Portcullis does not run: .*"token":"\(\[\^"\]\+\)"\)$/);
  });
});

describe('what a login answer says when the token pointer is wrong (issue 31)', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwiZXhwIjo5OTk5OTk5OTk5fQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
  const json = (v: unknown) => answer(JSON.stringify(v), { 'content-type': 'application/json' });

  it('names the pointers that look like a token, JWT-shaped first, and never a value', () => {
    const ex = json({ user: { id: 1 }, auth_token: 'opaque-0123456789', data: { jwt }, refresh_token: 'r-0123456789abcdef' });
    const d = diagnosePointer({ from: 'body', pointer: '/token' }, ex)!;
    expect(d.candidates).toEqual(['/data/jwt', '/auth_token', '/refresh_token']);
    expect(d.text).toBe('the answer has no `/token`; it has `/data/jwt`, `/auth_token` and `/refresh_token`');
    expect(d.text).not.toContain('opaque');
    expect(d.text).not.toContain(jwt.slice(0, 12));
  });

  it('an empty pointer on a JSON object is a mistake, not a token', () => {
    const ex = json({ accessToken: jwt, tokenType: 'Bearer' });
    expect(readValue({ from: 'body', pointer: '' }, ex)).toBeNull();
    expect(diagnosePointer({ from: 'body', pointer: '' }, ex)!.text).toBe('the token pointer is empty, which takes the whole answer (a JSON object); it has `/accessToken`');
    // A bare token body still is one.
    expect(readValue({ from: 'body', pointer: '' }, answer(jwt))).toBe(jwt);
    expect(diagnosePointer({ from: 'body', pointer: '' }, answer(jwt))).toBeNull();
  });

  it('a pointer to an object, an answer with nothing token-like, and one that is not JSON', () => {
    expect(diagnosePointer({ from: 'body', pointer: '/data' }, json({ data: { token: 'abcdefgh12345' } }))!.text).toBe('`/data` in the answer is an object, not a token; it has `/data/token`');
    expect(diagnosePointer({ from: 'body', pointer: '/token' }, json({ ok: true, user: 'alice' }))!.text).toBe('the answer has no `/token`; nothing in it looks like a token (its fields: `/ok` and `/user`)');
    expect(diagnosePointer({ from: 'body', pointer: '/token' }, answer('<html>hi</html>', { 'content-type': 'text/html; charset=utf-8' }))!.text).toBe('the answer is not JSON (text/html), so `/token` cannot point into it');
    expect(diagnosePointer({ from: 'body', pointer: '/accessToken' }, json({ accessToken: jwt }))).toBeNull();
    expect(diagnosePointer({ from: 'header', name: 'x-token' }, json({}))).toBeNull();
  });

  it('escapes keys as RFC 6901 pointer segments', () => {
    expect(tokenPointers({ 'a/b': { 'x~token': 'abcdefgh1234' } })).toEqual(['/a~1b/x~0token']);
  });
});

describe('a failed login quoted safely (issue 31)', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

  it('redacts secret-named fields, JWTs and token-like strings, keeps the error, and bounds the length', () => {
    const body = JSON.stringify({ error: 'invalid_credentials', message: 'Wrong username or password.', password: 'hunter2hunter2', session_id: 'abc', challenge: jwt, trace: 'k3J9x0PqLm2Zr8Tw5Yv1Nb7Hc4' });
    const text = safeBodyExcerpt(answer(body), 400);
    expect(text).toContain('invalid_credentials');
    expect(text).toContain('Wrong username or password.');
    for (const secret of ['hunter2hunter2', '"abc"', jwt, 'k3J9x0PqLm2Zr8Tw5Yv1Nb7Hc4']) expect(text).not.toContain(secret);
    expect(safeBodyExcerpt(answer(JSON.stringify({ message: 'x'.repeat(500) })), 50)).toHaveLength(53);
  });

  it('reads an HTML page as its text and a form-like body without its secrets', () => {
    expect(safeBodyExcerpt(answer('<html><head><style>p{}</style></head><body><h1>401</h1><p>Denied</p></body></html>'))).toBe('401 Denied');
    expect(safeBodyExcerpt(answer('error=denied&access_token=s3cr3t-value&user=bob'))).toBe('error=denied&access_token=[redacted]&user=bob');
  });

  it('quotes the request, status and excerpt', () => {
    const ex = new Exchange(1, { method: 'POST', url: 'http://127.0.0.1/api/login?x=1', headers: {}, body: null, auth: { kind: 'none' }, placements: [] }, { status: 401, headers: {}, body: '{"error":"nope"}', bytes: 16, truncated: false }, null, 1);
    expect(loginAnswerOf(ex)).toEqual({ request: 'POST /api/login', status: 401, excerpt: '{"error":"nope"}' });
  });
});
