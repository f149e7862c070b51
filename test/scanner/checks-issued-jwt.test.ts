// A JWT the API issues from one of its own routes (POST /session/jwt), while the scan's credential is an
// opaque key: the token is found in the route's answer, the read it opens is found among those key 1 is
// refused, and tampered there. Found where signatures go unchecked; silent where they are checked.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { issuedJwtTampering } from '../../electron/scanner/checks/api2-authentication/issued-jwt';
import type { ApiSecurity } from '../../shared/contract';
import { endpoint, scanServer } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const SECRET = 'a-long-random-signing-secret-9f8e7d6c5b4a39281706';
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function issue(): string {
  const h = b64({ typ: 'JWT', alg: 'HS256' });
  const p = b64({ iss: 'api', role: 'user', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 1800 });
  return `${h}.${p}.${createHmac('sha256', SECRET).update(`${h}.${p}`).digest('base64url')}`;
}

type Verify = 'nothing' | 'signature-or-none' | 'signature';

/** The payload when the token is accepted: nothing checked but its claims, a signature unless it says "alg": "none", or the signature always. */
function accept(token: string, verify: Verify): Record<string, unknown> | null {
  const [h, p, s] = token.split('.');
  if (!h || !p || s === undefined) return null;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    if (payload.iss !== 'api') return null;
    if (verify === 'signature-or-none' && header.alg === 'none') return s === '' ? payload : null;
    if (verify !== 'nothing' && (header.alg !== 'HS256' || createHmac('sha256', SECRET).update(`${h}.${p}`).digest('base64url') !== s)) return null;
    return payload;
  } catch {
    return null;
  }
}

async function server(verify: Verify): Promise<string> {
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const token = String(req.headers['x-token'] ?? '');
      if (req.method === 'POST' && req.url === '/session/jwt') return send(200, { success: 'true', token: issue() });
      if (req.method === 'GET' && req.url === '/session/jwt') {
        const claims = accept(token, verify);
        return claims ? send(200, { success: 'true', text: `Welcome back, your role is ${String(claims.role)}` }) : send(403, { success: 'false', cause: 'JWT Exception' });
      }
      if (req.method === 'GET' && req.url === '/profile') return token.startsWith('tok-') ? send(200, { id: 7, name: 'Alice Example' }) : send(403, { success: 'false' });
      return send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => s.close(resolve)) });
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const SECURITY: ApiSecurity = { schemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } }, default: [{ token: [] }] };
const ENDPOINTS = [
  endpoint('POST', '/session/jwt', {
    security: [],
    request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } } },
  }),
  endpoint('GET', '/session/jwt'),
  endpoint('GET', '/profile'),
];
const KEYS = { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' };

describe('api2-issued-jwt-tampering', () => {
  it('reports a JWT the API issued that it accepts with any signature, where key 1 (an opaque key) is refused', async () => {
    const url = await server('nothing');
    const { findings } = await scanServer(url, ENDPOINTS, [issuedJwtTampering], KEYS, SECURITY);
    expect(findings.map((f) => [f.method, f.path, f.parameter, f.owasp])).toEqual([['GET', '/session/jwt', 'made-up-signature', 'API2:2023']]);
    expect(findings[0]!.description).toMatch(/a random signature/);
  });

  it('tampers the issued JWT on the read it opens: "alg": "none" accepted where signatures are otherwise checked', async () => {
    const url = await server('signature-or-none');
    const { findings } = await scanServer(url, ENDPOINTS, [issuedJwtTampering], KEYS, SECURITY);
    expect(findings.map((f) => [f.method, f.path, f.parameter])).toEqual([['GET', '/session/jwt', 'alg-none']]);
    expect(findings[0]!.description).toMatch(/issued rebuilt with "alg": "none"/);
  });

  it('is silent where the API checks the signatures of the tokens it issues', async () => {
    const url = await server('signature');
    const { findings } = await scanServer(url, ENDPOINTS, [issuedJwtTampering], KEYS, SECURITY);
    expect(findings).toEqual([]);
  });
});
