// A privilege header the operation's own description declares (IsAdmin on a delete): found when the API
// deletes only once the header asserts the privilege, silent where the header changes nothing and where
// any delete succeeds anyway (the control already deletes).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredPrivilegeHeader } from '../../electron/scanner/checks/api5-function-authorization/declared-privilege-header';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, hardened, scanServer, targetWith } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

type Mode = 'trusts-header' | 'ignores-header' | 'deletes-anyway';

async function postsServer(mode: Mode): Promise<{ url: string; deletes: string[] }> {
  const posts = new Map<string, { id: string; title: string; body: string }>();
  let next = 10;
  const deletes: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const m = /^\/posts\/(\d+)\/?$/.exec(req.url ?? '');
      if (req.method === 'POST' && req.url === '/posts') {
        const id = String(next++);
        const input = raw ? (JSON.parse(raw) as { title?: string }) : {};
        posts.set(id, { id, title: input.title ?? 'untitled', body: 'A post body with some words in it.' });
        return send(201, posts.get(id));
      }
      if (req.method === 'GET' && m) return posts.has(m[1]!) ? send(200, posts.get(m[1]!)) : send(404, { detail: 'Not found.' });
      if (req.method === 'DELETE' && m) {
        const flag = req.headers.isadmin;
        deletes.push(String(flag ?? '(none)'));
        // Every delete answers 200 with a message, as the API this was learnt from does.
        if (mode === 'deletes-anyway' || (mode === 'trusts-header' && flag === 'True')) {
          posts.delete(m[1]!);
          return send(200, 'Successfully deleted');
        }
        return send(200, flag === undefined ? 'IsAdmin header missing' : 'Invalid header value');
      }
      return send(404, { detail: 'Not found.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deletes };
}

const ENDPOINTS = [
  endpoint('POST', '/posts', {
    security: [],
    request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { title: { type: 'string' } } } },
    responses: { '201': { description: 'created', content_type: 'application/json', schema: { type: 'object', properties: { id: { type: 'string' } } } } },
  }),
  endpoint('GET', '/posts/{postId}/', { security: [] }),
  endpoint('DELETE', '/posts/{postId}/', {
    security: [],
    parameters: [
      { name: 'postId', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'IsAdmin', in: 'header', required: false, schema: { type: 'string' } },
    ],
  }),
];
const KEYS = { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' };

describe('api5-declared-privilege-header', () => {
  it('reports a delete that happens only once the declared IsAdmin header asserts the privilege, without credentials', async () => {
    const { url, deletes } = await postsServer('trusts-header');
    const { findings } = await scanServer(url, ENDPOINTS, [declaredPrivilegeHeader], KEYS);
    expect(findings.map((f) => [f.check_id, f.method, f.path, f.parameter])).toEqual([['api5-declared-privilege-header', 'DELETE', '/posts/{postId}/', 'IsAdmin']]);
    expect(findings[0]!.cvss_vector).toContain('PR:N');
    expect(findings[0]!.description).toMatch(/IsAdmin: True/);
    // The control first, then the values that assert the privilege until one deletes.
    expect(deletes).toEqual(['false', 'true', 'True']);
  });

  it('is silent where the header changes nothing, and where the delete that asserts nothing already deletes', async () => {
    for (const mode of ['ignores-header', 'deletes-anyway'] as const) {
      const { url, deletes } = await postsServer(mode);
      const { findings } = await scanServer(url, ENDPOINTS, [declaredPrivilegeHeader], KEYS);
      expect(findings, mode).toEqual([]);
      expect(deletes.length, mode).toBeLessThanOrEqual(declaredPrivilegeHeader.budget);
      expect(deletes[0], mode).toBe('false');
    }
  });

  it('finds the moderator header the bulletin removal declares on the test target, and not on the hardened twin', async () => {
    const BULLETINS = ['POST /bulletins', 'GET /bulletins/{bulletinId}', 'DELETE /bulletins/{bulletinId}'];
    for (const [make, expected] of [
      [() => targetWith('declared-privilege-header'), [['DELETE', '/bulletins/{bulletinId}', 'X-Is-Moderator']]],
      [() => hardened(), []],
    ] as const) {
      const t: Target = await make();
      open.push(t);
      const s = await scanChecks(t, [declaredPrivilegeHeader], { only: BULLETINS, key2: false });
      expect(s.of(declaredPrivilegeHeader).map((f) => [f.method, f.path, f.parameter])).toEqual(expected);
      expect(s.sent(declaredPrivilegeHeader)).toBeLessThanOrEqual(declaredPrivilegeHeader.budget);
    }
  }, 60_000);
});
