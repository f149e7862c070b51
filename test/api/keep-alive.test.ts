// The team server keeps idle keep-alive connections open longer than a load balancer's idle timeout
// (60 s is common) and says so, so a client or balancer reusing one never races the server closing it.

import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEEP_ALIVE_MS, startServer, type RunningServer } from '../../electron/server';
import { createTestCore, type TestCore } from '../helpers/core';

let tc: TestCore;
let server: RunningServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  tc = await createTestCore();
  server = await startServer({ core: tc.core, host: '127.0.0.1', port: 0, staticDir: null });
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
  await tc?.close();
});

function get(path: string): Promise<{ status: number; keepAlive: string | undefined; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive']?.toString(), socket: req.socket! }));
    });
    req.on('error', reject);
  });
}

it('keeps an idle connection past the 5 s Node closes it at by default, and tells clients how long', async () => {
  const first = await get('/api/health');
  expect(first.status).toBe(200);
  expect(first.keepAlive).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  await new Promise((r) => setTimeout(r, 5_500));
  const second = await get('/api/health');
  expect(second.status).toBe(200);
  // The same socket: the server did not close it while idle.
  expect(second.socket).toBe(first.socket);
}, 30_000);
