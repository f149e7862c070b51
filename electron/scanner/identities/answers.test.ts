import { describe, expect, it } from 'vitest';
import { Exchange } from '../http/exchange';
import { readValue, whyNotFound } from './answers';

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
