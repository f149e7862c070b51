// Two-factor secrets survive a restart: the start-up sweep removes only scan keys that no scan refers
// to, never a user's authenticator secret (it did: after a restart only recovery codes worked).

import fs from 'node:fs';
import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, tempDir } from '../helpers/core';

type Json = { success: boolean; message: string; data?: Record<string, unknown> };

describe('two-factor across a restart', () => {
  const dataDir = tempDir('portcullis-2fa-restart-');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('still accepts authenticator codes after the core starts again', async () => {
    const first = await createTestCore({ dataDir });
    const t1 = await openTransport('http', first.core);
    const user = await signUpAndLogin(t1, 'restart');
    const setup = await t1.call<Json>('POST', '/api/user/2fa/setup', { token: user.token });
    const secret = (setup.json.data as { secret: string }).secret;
    const totp = (at: Date) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
    const enabled = await t1.call<Json>('POST', '/api/user/2fa/enable', { token: user.token, body: { code: totp(first.clock.now()) } });
    expect(enabled.status).toBe(200);
    await t1.close();
    await first.core.close();

    const clock = first.clock;
    clock.advance(60_000);
    const second = await createTestCore({ dataDir, clock });
    const t2 = await openTransport('http', second.core);
    try {
      const login = await t2.call<Json>('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
      const challenge = (login.json.data as { challenge?: string }).challenge;
      expect(challenge).toBeTruthy();
      const step2 = await t2.call<Json>('POST', '/api/auth/login/2fa', { body: { challenge, code: totp(clock.now()) } });
      expect(step2.status, step2.json.message).toBe(200);
      expect((step2.json.data as { token?: string }).token).toBeTruthy();
    } finally {
      await t2.close();
      await second.core.close();
    }
  });
});
