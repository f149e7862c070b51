// Cookies the API sets in answers to an identity's requests stay with that identity, as a browser keeps
// them: a session that GET /session/open opens for the key it was sent is sent back by the identity's later
// requests (so the CORS check sees the session-bound answer), and never by requests without credentials.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { corsPolicy } from '../../electron/scanner/checks/api8-misconfiguration/cors';
import { endpoint, scanServer } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function server(): Promise<{ url: string; anonymousCookies: string[] }> {
  const sessions = new Set<string>();
  let n = 0;
  const anonymousCookies: string[] = [];
  const s = http.createServer((req, res) => {
    const cookie = /(?:^|;\s*)SID=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const key = req.headers['x-key'];
    if (!key && req.headers.cookie) anonymousCookies.push(req.headers.cookie);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/session/open') {
      if (key !== 'key-alice-7f3e9a') return send(403, { success: 'false' });
      const sid = `sess-${(n += 1)}-b71c2a9e4d`;
      sessions.add(sid);
      return send(200, { success: 'true', msg: 'logged in' }, { 'set-cookie': `SID=${sid}; path=/; HttpOnly` });
    }
    if (req.url === '/session/key') {
      if (!cookie || !sessions.has(cookie)) return send(403, { success: 'false', cause: 'notLoggedIn' });
      const origin = req.headers.origin;
      return send(200, { user: 'alice', apikey: 'k-8d7c6b5a4f3e2d1c' }, origin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' } : {});
    }
    return send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => s.close(resolve)) });
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, anonymousCookies };
}

describe('cookies an API sets for an identity', () => {
  it('are sent back by that identity: the session-bound answer reflects any origin with credentials', async () => {
    const { url, anonymousCookies } = await server();
    const security = { schemes: { key: { type: 'apiKey' as const, in: 'header' as const, name: 'X-Key' } }, default: [{ key: [] }] };
    const { findings } = await scanServer(url, [endpoint('GET', '/session/open'), endpoint('GET', '/session/key')], [corsPolicy], { 1: 'key-alice-7f3e9a' }, security);
    const cors = findings.filter((f) => f.check_id === corsPolicy.id && f.severity !== 'info');
    expect(cors.map((f) => f.vulnerability_name)).toEqual([expect.stringMatching(/credentials/i)]);
    expect(cors[0]!.evidence).toContain('/session/key');
    // The session is the identity's: nothing sent without credentials carried it.
    expect(anonymousCookies).toEqual([]);
  });
});
