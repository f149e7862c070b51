// Hostile request bodies (issue 18, item 8): a file part under a text field's name (user_id above
// all) is refused before anything is stored, over both transports; and a client that hangs up in
// the middle of its body is the client's doing, over real HTTP: no 500 and no stack in the log.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportData } from '../../shared/contract';
import { createTestCore, httpTransport, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';
import { readFixture } from '../importer/fixture-files';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

describe.each(['http', 'ipc'] as const)('multipart text fields over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    owner = await signUpAndLogin(t, 'owner');
    other = await signUpAndLogin(t, 'other');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  const apiCount = async () => {
    const db = tc.core.services.db;
    const row = await db.selectFrom('apis').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };

  function importWith(field: string, part: string | File) {
    const form = new FormData();
    form.append('file', new File([new Uint8Array(readFixture('oai-petstore-3.0.yaml'))], 'oai-petstore-3.0.yaml'));
    form.append(field, part);
    return t.call<Env<ImportData>>('POST', '/api/import', { token: owner.token, raw: form });
  }

  it.each([
    ['user_id', () => other.id],
    ['owner_user_id', () => other.id],
    ['name', () => 'Renamed'],
  ])('refuses %s sent as a file part with 400 and stores nothing', async (field, value) => {
    const before = await apiCount();
    const res = await importWith(field, new File([value()], 'id.txt', { type: 'text/plain' }));
    expect(res.status).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.errors).toEqual([{ field, message: res.json.message }]);
    expect(await apiCount()).toBe(before);
  });

  it('still checks user_id as text: 403 for someone else, 201 for oneself', async () => {
    const before = await apiCount();
    expect((await importWith('user_id', other.id)).status).toBe(403);
    expect(await apiCount()).toBe(before);
    expect((await importWith('user_id', owner.id)).status).toBe(201);
    expect(await apiCount()).toBe(before + 1);
  });
});

describe('a request body cut off mid-way over http', () => {
  let tc: TestCore;
  let t: Awaited<ReturnType<typeof httpTransport>>;
  let u: TestUser;

  beforeAll(async () => {
    tc = await createTestCore();
    t = await httpTransport(tc.core);
    u = await signUpAndLogin(t, 'aborter');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  /** Sends the head and part of the body on a raw socket, then destroys it; answers what the socket got. */
  function cutOff(path: string, headers: string, partial: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let received = '';
      const socket = net.connect(t.server.port, '127.0.0.1', () => {
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${u.token}\r\n${headers}\r\n${partial}`);
        // Let the server start reading the body before hanging up.
        setTimeout(() => {
          socket.destroy();
          resolve(received);
        }, 150);
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', reject);
    });
  }

  async function requestLogged(path: string, from: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!tc.log.lines.slice(from).some((l) => l.includes(' request ') && l.includes(`path=${path} `))) {
      if (Date.now() > deadline) throw new Error(`no request line for ${path}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const json = '{"api_id":"abc","profile":"OWASP';
  const multipart = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n{"openapi":';
  it.each([
    ['JSON with a Content-Length', '/api/scan/create', `Content-Type: application/json\r\nContent-Length: 10000\r\n`, json],
    ['JSON, chunked', '/api/scan/create', `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n`, `${json.length.toString(16)}\r\n${json}\r\n`],
    ['text with a Content-Length', '/api/scan/create', `Content-Type: text/plain\r\nContent-Length: 10000\r\n`, 'abc'],
    ['a public route', '/api/auth/login', `Content-Type: text/plain\r\nContent-Length: 10000\r\n`, 'abc'],
    ['a multipart import', '/api/import', `Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n`, multipart],
  ])('%s: no error log, no stack, at most one warning, nothing sent', async (_name, path, headers, partial) => {
    const from = tc.log.lines.length;
    const received = await cutOff(path, headers, partial);
    await requestLogged(path, from);
    const lines = tc.log.lines.slice(from);
    expect(received).toBe('');
    expect(lines.filter((l) => / (ERROR|WARN) /.test(l) && !l.includes('Client aborted the request body'))).toEqual([]);
    expect(lines.filter((l) => l.includes('Client aborted the request body')).length).toBeLessThanOrEqual(1);
    expect(lines.join('\n')).not.toMatch(/stack|status=500/);
  });

  it('still answers a complete request on a new connection', async () => {
    const res = await t.call('GET', '/api/apis', { token: u.token });
    expect(res.status).toBe(200);
  });
});
