import { describe, expect, it } from 'vitest';
import { curlFor, renderEvidence, shellQuote } from './evidence';
import { Exchange } from './http/exchange';
import { Redactor } from './redact';

const KEY1 = 'sk_live_51HxYzAbCdEf/+=';
const KEY2 = 'user2:pa ss';
const redactor = new Redactor([
  { label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY1 },
  { label: '[key 2]', envVar: 'PORTCULLIS_KEY_2', value: KEY2 },
]);

function exchange(headers: Record<string, string>, url: string, body: string | null = null): Exchange {
  return new Exchange(
    1,
    { method: 'POST', url, headers, body, auth: { kind: 'key', key: 1 }, placements: [] },
    { status: 200, headers: { 'content-type': 'application/json' }, body: `{"echo":"${KEY1}"}`, bytes: 10, truncated: false },
    null,
    12,
  );
}

describe('redaction', () => {
  it('removes keys in every encoding', () => {
    const text = [KEY1, encodeURIComponent(KEY1), Buffer.from(KEY1).toString('base64'), JSON.stringify(KEY1), Buffer.from(KEY2).toString('base64'), encodeURIComponent(KEY2)].join(' | ');
    const out = redactor.redact(text);
    expect(redactor.leaks(out)).toBe(false);
    expect(out).toContain('[key 1]');
    expect(out).toContain('[key 2]');
  });

  it('evidence starts with Method and Path and holds no key', () => {
    const ex = exchange({ authorization: `Bearer ${KEY1}` }, `http://127.0.0.1:1/items?api_key=${encodeURIComponent(KEY1)}`, `{"token":"${KEY1}"}`);
    const text = renderEvidence({ method: 'POST', path: '/items', exchanges: [{ label: 'Attack', exchange: ex }] }, redactor);
    expect(text.startsWith('Method: POST\nPath: /items\n')).toBe(true);
    expect(text).not.toContain(KEY1);
    expect(redactor.leaks(text)).toBe(false);
  });

  it('curl reads keys from shell variables and stays a valid command', () => {
    const ex = exchange({ authorization: `Bearer ${KEY1}`, 'content-type': 'application/json' }, 'http://127.0.0.1:1/it\'s', `{"a":"it's"}`);
    const cmd = curlFor(ex, redactor);
    expect(cmd).toBe(
      `curl -i -X POST -H 'authorization: Bearer '"$PORTCULLIS_KEY_1" -H 'content-type: application/json' --data-raw '{"a":"it'\\''s"}' 'http://127.0.0.1:1/it'\\''s'`,
    );
    const basic = exchange({ authorization: `Basic ${Buffer.from(KEY2).toString('base64')}` }, 'http://127.0.0.1:1/');
    expect(curlFor(basic, redactor)).toContain('-u "$PORTCULLIS_KEY_2"');
    expect(shellQuote('', redactor)).toBe("''");
  });
});
