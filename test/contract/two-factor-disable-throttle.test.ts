// Turning two-factor off checks the password under the same throttle as the code (issue 18, item 1):
// a stolen session that knows the current authenticator code cannot use the route to guess the
// account's password, because a wrong password counts as a failed guess even with a right code.

import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json = { success: boolean; message: string; data?: Record<string, unknown> };

describe.each(['http', 'ipc'] as const)('turning two-factor off over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let user: TestUser;
  let secret = '';
  const code = () => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: tc.clock.now().getTime() });
  const disable = (password: string) => t.call<Json>('POST', '/api/user/2fa/disable', { token: user.token, body: { password, code: code() } });

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    user = await signUpAndLogin(t, 'disable');
    const setup = await t.call<Json>('POST', '/api/user/2fa/setup', { token: user.token });
    secret = (setup.json.data as { secret: string }).secret;
    expect((await t.call<Json>('POST', '/api/user/2fa/enable', { token: user.token, body: { code: code() } })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('throttles password guesses even when each comes with a fresh, right code', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      tc.clock.advance(30_000); // a new time step: the code is fresh and right
      statuses.push((await disable(`guess-${i}`)).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The right password is refused too while the count holds.
    tc.clock.advance(30_000);
    expect((await disable(user.password)).status).toBe(429);
    const status = await t.call<Json>('GET', '/api/user/2fa', { token: user.token });
    expect(status.json.data).toMatchObject({ enabled: true });
  });

  it('turns off with the right password and code once the window has passed', async () => {
    tc.clock.advance(16 * 60_000);
    const res = await disable(user.password);
    expect([res.status, res.json.message]).toEqual([200, 'Two-factor authentication is off.']);
  });
});
