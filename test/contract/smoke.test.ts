import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type Transport } from '../helpers/core';

describe.each(['http', 'ipc'] as const)('smoke over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });
  it('signs up, logs in and reads the profile', async () => {
    const u = await signUpAndLogin(t);
    const res = await t.call<{ data: { user: { id: string } } }>('GET', '/api/user/profile', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.json.data.user.id).toBe(u.id);
  });
});
