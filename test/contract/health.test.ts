// GET /api/health (issue 19): public, says whether this node reaches its database and which engine it
// is; 503 when the database does not answer, so a load balancer takes the node out of rotation.

import { afterEach, describe, expect, it } from 'vitest';
import type { Health } from '../../shared/contract';
import { SERVER_MESSAGES } from '../../shared/messages';
import { createTestCore, openTransport, testStore, type TestCore } from '../helpers/core';

type Json = { success: boolean; message: string; data: Health };

describe.each(['http', 'ipc'] as const)('health over %s', (kind) => {
  let tc: TestCore | null = null;
  afterEach(async () => {
    await tc?.close().catch(() => undefined);
    tc = null;
  });

  it('answers 200 without a session while the database answers', async () => {
    tc = await createTestCore();
    const t = await openTransport(kind, tc.core);
    const res = await t.call<Json>('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      message: SERVER_MESSAGES.databaseReachable,
      data: { database: 'reachable', store: testStore() === 'sqlite' ? 'sqlite' : 'postgres' },
    });
    await t.close();
  });

  it('answers 503 once the database is gone, saying nothing more about it', async () => {
    tc = await createTestCore();
    const t = await openTransport(kind, tc.core);
    // Every node of the server loses the database at once (a PostgreSQL pool ended, the SQLite file closed).
    for (const node of tc.nodes) await node.store.db.destroy();
    for (let i = 0; i < tc.nodes.length; i += 1) {
      const res = await t.call<Json>('GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ success: false, message: SERVER_MESSAGES.databaseUnreachable, data: { database: 'unreachable', store: res.json.data.store } });
    }
    expect(tc.log.lines.some((line) => line.includes('health: the database did not answer'))).toBe(true);
    await t.close();
  });
});
