import { describe, expect, it } from 'vitest';
import { listenerCurl, LISTENER_VAR } from './evidence-listener';
import { Exchange } from './http/exchange';
import { Redactor } from './redact';

const LISTENER = 'http://127.0.0.1:41234/p/tok-1a2b3c';
const KEY = 'sk-listener-test-0123456789abcdef';
const redactor = new Redactor([{ label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY }]);

const sent = (url: string, body: string | null) =>
  new Exchange(1, { method: body ? 'POST' : 'GET', url, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body, auth: { kind: 'key', key: 1 }, placements: [] }, { status: 200, headers: {}, body: '{}', bytes: 2, truncated: false }, null, 1);

describe('an out-of-band proof\'s curl text', () => {
  it('reads the listener address from $LISTENER_URL, in a JSON body and URL-encoded in a query, and says what to set', () => {
    const inBody = listenerCurl(sent('http://api.test/link-preview', JSON.stringify({ url: LISTENER, depth: 1 })), LISTENER, redactor)!;
    expect(inBody).toContain(`--data-raw '{"url":"'"$${LISTENER_VAR}"'","depth":1}'`);
    expect(inBody).toMatch(/^# Set first:\n# {3}LISTENER_URL: an address of a listener of yours/);
    expect(inBody).toContain('"$PORTCULLIS_KEY_1"');
    expect(inBody).not.toContain('tok-1a2b3c');
    expect(inBody).not.toContain(KEY);
    const inQuery = listenerCurl(sent(`http://api.test/fetch?src=${encodeURIComponent(LISTENER)}&x=1`, null), LISTENER, redactor)!;
    expect(inQuery).toContain(`'http://api.test/fetch?src='"$${LISTENER_VAR}"'&x=1'`);
  });

  it('is null when the request does not carry the address whole (a host and a path sent apart)', () => {
    expect(listenerCurl(sent('http://api.test/ping', JSON.stringify({ host: '127.0.0.1:41234', path: '/p/tok-1a2b3c' })), LISTENER, redactor)).toBeNull();
  });
});
