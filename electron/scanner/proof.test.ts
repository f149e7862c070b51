import { describe, expect, it } from 'vitest';
import { Exchange } from './http/exchange';
import { asAnswered, differenceMarker, findingProof, memberMarker } from './proof';
import { Redactor } from './redact';

const KEY = 'sk-proof-test-0123456789abcdef';
const redactor = new Redactor([{ label: '[key 1]', envVar: 'PORTCULLIS_KEY_1', value: KEY }]);

function ex(method: string, url: string, status: number, answer: string, body: string | null = null, headers: Record<string, string> = {}): Exchange {
  return new Exchange(1, { method, url, headers: {}, body, auth: { kind: 'none' }, placements: [] }, { status, headers: { 'content-type': 'application/json', ...headers }, body: answer, bytes: answer.length, truncated: false }, null, 1);
}

const curlOf = (e: Exchange) => `curl -i -X ${e.request.method}${e.request.body ? ` --data-raw '${e.request.body.replace(/'/g, `'\\''`)}'` : ''} '${e.request.url}'`;

describe('a finding\'s replay proof', () => {
  it('keeps the marker a check chose when the answer holds it, and null when the status alone proves it', () => {
    const e = ex('GET', 'http://api.test/notes?q=x', 200, '{"id":"9b1c2d3e-0000-4000-8000-000000000000","title":"Usage: head [OPTION]"}');
    expect(findingProof(e, 1, { marker: 'Usage: head' }, curlOf(e), '/notes', redactor)).toEqual({ step: 1, status: [200], marker: 'Usage: head' });
    expect(findingProof(e, 3, { marker: null, status: [200, 201] }, curlOf(e), '/notes', redactor)).toEqual({ step: 3, status: [200, 201], marker: null });
    // A chosen text the answer does not hold (or a secret) falls back to a derived marker: here a field name, never the generated id.
    expect(findingProof(e, 1, { marker: 'not in the answer' }, curlOf(e), '/notes', redactor)!.marker).toBe('"title"');
  });

  it('derives a value the request sent and the answer echoes, as the curl text sends it', () => {
    const payload = `pcx1"'><svg onload=alert(1)>`;
    const e = ex('POST', 'http://api.test/books', 200, JSON.stringify({ id: 7, title: payload, user: 'name1' }), JSON.stringify({ title: payload, n: 1 }));
    expect(findingProof(e, 1, undefined, curlOf(e), '/books', redactor)!.marker).toBe(JSON.stringify(payload).slice(1, -1));
    // A value the curl text does not send as is (an id read into a variable by an earlier step) is no marker.
    expect(findingProof(e, 2, undefined, curlOf(e).replace(`'><svg`, `'"$OBJECT_ID"'`), '/books', redactor)!.marker).toBe('"title"');
    // A flag the request set and the answer kept.
    const admin = ex('PUT', 'http://api.test/users/me', 200, '{"name": "bob", "isAdmin": true}', '{"isAdmin":true}');
    expect(findingProof(admin, 1, undefined, curlOf(admin), '/users/me', redactor)!.marker).toBe('"isAdmin": true');
  });

  it('never states a secret, and has no proof for a request that got no answer', () => {
    const e = ex('GET', `http://api.test/me?token=${KEY}`, 200, JSON.stringify({ token: KEY }));
    expect(findingProof(e, 1, { marker: KEY }, curlOf(e), '/me', redactor)).toEqual({ step: 1, status: [200], marker: '"token"' });
    const none = new Exchange(1, { method: 'GET', url: 'http://api.test/x', headers: {}, body: null, auth: { kind: 'none' }, placements: [] }, null, 'timeout', 1);
    expect(findingProof(none, 1, undefined, 'curl -i http://api.test/x', '/x', redactor)).toBeNull();
  });

  it('marks a difference by what the accepted answer has and the refused one lacks', () => {
    const yes = ex('GET', 'http://api.test/stores', 200, '{"items":[{"id":1,"name":"Lyon","city":"Lyon"}]}');
    const no = ex('GET', 'http://api.test/stores', 200, '{"items":[]}');
    expect(differenceMarker(yes, no)).toBe('"name"');
    const login = ex('POST', 'http://api.test/login', 200, '{"accessToken":"eyJ..."}');
    const refused = ex('POST', 'http://api.test/login', 401, '{"error":"invalid_credentials"}');
    expect(differenceMarker(login, refused)).toBe('"accessToken"');
    // The same fields on both sides: a value only the accepted answer has, never a time or an id.
    const more = ex('GET', 'http://api.test/c', 200, '{"code":"STAFF-ONLY-50","at":"2026-01-01T00:00:00Z"}');
    const less = ex('GET', 'http://api.test/c', 200, '{"code":"WELCOME10","at":"2026-01-02T00:00:00Z"}');
    expect(differenceMarker(more, less)).toBe('STAFF-ONLY-50');
    expect(differenceMarker(ex('GET', 'http://api.test/c', 200, 'plain text'), less)).toBeNull();
  });

  it('finds a member and a text as the answer writes them', () => {
    const e = ex('POST', 'http://api.test/ratings', 201, '{"id":14, "rating": -4,"ratingX":-40}');
    expect(memberMarker(e, 'rating', -4)).toBe('"rating": -4');
    expect(memberMarker(e, 'rating', -40)).toBeNull();
    expect(asAnswered(ex('GET', 'http://api.test/', 200, '{"m":"a \\"quoted\\" word"}'), 'a "quoted" word')).toBe('a \\"quoted\\" word');
  });
});
