// The traffic recorder: the last requests within the bounds (count and held bytes), the dropped ones
// counted and said; a secret learnt after the request that carried it is still redacted (redaction
// waits for the end); a body is cut after redaction, so no piece of a secret survives a cut.

import { describe, expect, it } from 'vitest';
import { Exchange, type ExchangeResponse } from './http/exchange';
import { Redactor } from './redact';
import { TrafficRecorder } from './traffic';

function exchange(seq: number, body: string, response: Partial<ExchangeResponse> | null = {}, url = `http://api.test/items/${seq}`): Exchange {
  return new Exchange(
    seq,
    { method: 'GET', url, headers: { authorization: 'Bearer tok-3c1f0a9e7d5b4c2a' }, body: null, auth: { kind: 'key', key: 1 }, placements: [] },
    response && { status: 200, headers: { 'content-type': 'application/json' }, body, bytes: body.length, truncated: false, ...response },
    response ? null : 'timeout',
    12,
  );
}

describe('TrafficRecorder', () => {
  it('keeps the last requests within the count bound and says how many were dropped', () => {
    const r = new TrafficRecorder({ maxEntries: 3, maxHeldBytes: 1e6, maxBodyChars: 100 });
    for (let i = 1; i <= 5; i += 1) r.record(exchange(i, `{"n":${i}}`));
    const log = r.toLog(new Redactor([]));
    expect(log.entries).toBe(3);
    expect(log.dropped).toBe(2);
    expect(log.har.log.entries.map((e) => e.request.url)).toEqual(['http://api.test/items/3', 'http://api.test/items/4', 'http://api.test/items/5']);
    expect(log.har.log.comment).toContain('The 2 oldest requests were dropped');
  });

  it('drops the oldest when the bodies held pass the byte bound', () => {
    const r = new TrafficRecorder({ maxEntries: 100, maxHeldBytes: 250, maxBodyChars: 1000 });
    for (let i = 1; i <= 4; i += 1) r.record(exchange(i, 'x'.repeat(100)));
    expect(r.size).toBe(2);
    expect(r.dropped).toBe(2);
  });

  it('redacts a secret learnt after the request that carried it, and cuts bodies only after redaction', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLWFsaWNl';
    const r = new TrafficRecorder({ maxEntries: 10, maxHeldBytes: 1e6, maxBodyChars: 50 });
    // The login's answer carries the token; the scan learns it only once the answer was read. Raw, the body is
    // longer than the cut (50); redacted it fits: cut first, a piece of the token would have stayed.
    r.record(exchange(1, `${'p'.repeat(20)}{"accessToken":"${token}"}`));
    r.record(exchange(2, '', null));
    const redactor = new Redactor([{ label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: 'tok-3c1f0a9e7d5b4c2a' }]);
    redactor.add({ label: '[alice]', envVar: 'PORTCULLIS_ALICE', value: token });
    const log = r.toLog(redactor);
    const text = JSON.stringify(log.har);
    for (const piece of [token, ...token.split('.'), 'tok-3c1f0a9e7d5b4c2a']) expect(text).not.toContain(piece);
    const [login, failed] = log.har.log.entries;
    expect(login!.response.content.text).toBe(`${'p'.repeat(20)}{"accessToken":"[alice]"}`);
    expect(login!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [key 1]' });
    // An answerless request: status 0 and the reason, as Chromium exports a failed request.
    expect(failed!.response.status).toBe(0);
    expect((failed as unknown as { _error: string })._error).toBe('timeout');
  });
});
