// Account security over both transports: TOTP enrolment, two-step login, code reuse, throttling,
// recovery codes, disabling; active sessions and recent sign-ins.

import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, openTransport, signUpAndLogin, storedText, type TestCore, type TestUser, type Transport } from '../helpers/core';

type Json = { success: boolean; message: string; data?: Record<string, unknown> };

describe.each(['http', 'ipc'] as const)('two-factor sign-in over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let user: TestUser;
  let secret = '';
  let recovery: string[] = [];

  const code = (offsetMs = 0) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: tc.clock.now().getTime() + offsetMs });
  const password = (u: TestUser) => ({ username: u.username, password: u.password });
  const login = (u: TestUser) => t.call<Json>('POST', '/api/auth/login', { body: password(u) });
  const step2 = (challenge: unknown, c: string) => t.call<Json>('POST', '/api/auth/login/2fa', { body: { challenge, code: c } });
  /** Moves to the next 30-second step, so a fresh code exists. */
  const nextStep = () => tc.clock.advance(30_000);

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    user = await signUpAndLogin(t, 'mfa');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('starts off', async () => {
    const res = await t.call<Json>('GET', '/api/user/2fa', { token: user.token });
    expect(res.json.data).toEqual({ enabled: false, recovery_codes_left: 0 });
  });

  it('sets up with a QR code and the secret', async () => {
    const res = await t.call<Json>('POST', '/api/user/2fa/setup', { token: user.token });
    expect(res.status).toBe(200);
    const data = res.json.data as { secret: string; otpauth_url: string; qr_data_url: string };
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.otpauth_url).toBe(
      `otpauth://totp/Portcullis:${encodeURIComponent(user.email)}?issuer=Portcullis&secret=${data.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(data.qr_data_url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    secret = data.secret;
  });

  it('turns on only with a valid code, and shows ten recovery codes once', async () => {
    const wrong = await t.call<Json>('POST', '/api/user/2fa/enable', { token: user.token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('Invalid code. Please try again.');
    const prefsBefore = await t.call<Json>('GET', '/api/user/preferences', { token: user.token });
    expect((prefsBefore.json.data?.preferences as { security: { twoFactorAuth: boolean } }).security.twoFactorAuth).toBe(false);
    const res = await t.call<Json>('POST', '/api/user/2fa/enable', { token: user.token, body: { code: code() } });
    expect(res.status).toBe(200);
    recovery = (res.json.data as { recovery_codes: string[] }).recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    for (const r of recovery) expect(r).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const prefs = await t.call<Json>('GET', '/api/user/preferences', { token: user.token });
    expect((prefs.json.data?.preferences as { security: { twoFactorAuth: boolean } }).security.twoFactorAuth).toBe(true);
    expect((await t.call<Json>('GET', '/api/user/2fa', { token: user.token })).json.data).toEqual({ enabled: true, recovery_codes_left: 10 });
  });

  it('keeps the secret and the recovery codes out of the database in clear', async () => {
    // The SQLite file itself (WAL checkpointed into it), or every row of the PostgreSQL database.
    const bytes = await storedText(tc.core);
    expect(bytes).toContain(user.username);
    expect(bytes).not.toContain(secret);
    for (const r of recovery) expect(bytes).not.toContain(r);
  });

  it('cannot be turned off through preferences', async () => {
    await t.call('PUT', '/api/user/preferences', { token: user.token, body: { preferences: { security: { twoFactorAuth: false } } } });
    expect((await t.call<Json>('GET', '/api/user/2fa', { token: user.token })).json.data).toMatchObject({ enabled: true });
  });

  it('asks for a code after the password, and gives a session only for a valid one', async () => {
    const first = await login(user);
    expect(first.status).toBe(200);
    expect(first.json.message).toBe('Enter the 6-digit code from your authenticator app, or a recovery code.');
    expect(first.json.data).toEqual({ two_factor_required: true, challenge: expect.any(String) });
    const wrong = await step2(first.json.data?.challenge, '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.json.message).toBe('Invalid code. Please try again.');
    nextStep();
    const ok = await step2(first.json.data?.challenge, code());
    expect(ok.status).toBe(200);
    const token = (ok.json.data as { token: string }).token;
    expect((await t.call('GET', '/api/user/profile', { token })).status).toBe(200);
    // The challenge is spent.
    expect((await step2(first.json.data?.challenge, code())).status).toBe(401);
  });

  it('refuses a code used before, and accepts one within the clock-skew window', async () => {
    nextStep();
    const used = code();
    const a = await login(user);
    expect((await step2(a.json.data?.challenge, used)).status).toBe(200);
    const b = await login(user);
    const again = await step2(b.json.data?.challenge, used);
    expect(again.status).toBe(401);
    expect(again.json.message).toBe('Invalid code. Please try again.');
    // The authenticator's clock runs 30 s ahead: its next code is still accepted.
    expect((await step2(b.json.data?.challenge, code(30_000))).status).toBe(200);
  });

  it('lets a recovery code in once', async () => {
    const a = await login(user);
    expect((await step2(a.json.data?.challenge, recovery[0]!.toUpperCase())).status).toBe(200);
    const b = await login(user);
    expect((await step2(b.json.data?.challenge, recovery[0]!)).status).toBe(401);
    expect((await t.call<Json>('GET', '/api/user/2fa', { token: user.token })).json.data).toEqual({ enabled: true, recovery_codes_left: 9 });
  });

  it('expires the challenge after five minutes', async () => {
    const a = await login(user);
    tc.clock.advance(5 * 60 * 1000 + 1000);
    const res = await step2(a.json.data?.challenge, code());
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('This sign-in has expired. Please log in again.');
  });

  it('throttles wrong codes with 429', async () => {
    tc.clock.advance(16 * 60 * 1000);
    const a = await login(user);
    for (let i = 0; i < 5; i += 1) expect((await step2(a.json.data?.challenge, `99999${i}`)).status).toBe(401);
    nextStep();
    const blocked = await step2(a.json.data?.challenge, code());
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    tc.clock.advance(16 * 60 * 1000);
  });

  it('turns off only with the password and a code', async () => {
    const session = (await step2((await login(user)).json.data?.challenge, recovery[1]!)).json.data as { token: string };
    user.token = session.token;
    nextStep();
    const badPassword = await t.call<Json>('POST', '/api/user/2fa/disable', { token: user.token, body: { password: 'wrong-password', code: code() } });
    expect(badPassword.status).toBe(400);
    expect(badPassword.json.message).toBe('Invalid password or code.');
    nextStep();
    const res = await t.call<Json>('POST', '/api/user/2fa/disable', { token: user.token, body: { password: user.password, code: code() } });
    expect(res.status).toBe(200);
    expect((await t.call<Json>('GET', '/api/user/2fa', { token: user.token })).json.data).toEqual({ enabled: false, recovery_codes_left: 0 });
    const direct = await login(user);
    expect((direct.json.data as { token?: string }).token).toEqual(expect.any(String));
  });
});

describe.each(['http', 'ipc'] as const)('sessions and sign-ins over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    user = await signUpAndLogin(t, 'sess');
    other = await signUpAndLogin(t, 'other');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  const loginAgain = async (agent: string) =>
    (
      await t.call<{ data: { token: string } }>('POST', '/api/auth/login', {
        body: { username: user.username, password: user.password },
        headers: { 'user-agent': agent },
      })
    ).json.data.token;

  it('lists the user\'s sessions, marking the current one', async () => {
    await loginAgain('Laptop Browser/1.0');
    const res = await t.call<Json>('GET', '/api/user/sessions', { token: user.token });
    const sessions = res.json.data?.sessions as { id: string; client: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.some((s) => s.client === 'Laptop Browser/1.0')).toBe(true);
    expect(JSON.stringify(sessions)).not.toMatch(/token/);
  });

  it('signs out one session, never another user\'s', async () => {
    const laptop = await loginAgain('Tablet/2.0');
    const list = (await t.call<Json>('GET', '/api/user/sessions', { token: user.token })).json.data?.sessions as { id: string; client: string }[];
    const tablet = list.find((s) => s.client === 'Tablet/2.0')!;
    expect((await t.call('DELETE', '/api/user/sessions', { token: other.token, body: { session_id: tablet.id } })).status).toBe(404);
    const res = await t.call<Json>('DELETE', '/api/user/sessions', { token: user.token, body: { session_id: tablet.id } });
    expect(res.json.message).toBe('That session is signed out.');
    expect((await t.call('GET', '/api/user/profile', { token: laptop })).status).toBe(401);
  });

  it('signs out everywhere else', async () => {
    const phone = await loginAgain('Phone/3.0');
    const res = await t.call<Json>('POST', '/api/user/sessions/revoke-others', { token: user.token });
    expect(res.json.message).toBe('Signed out of every other session.');
    expect((await t.call('GET', '/api/user/profile', { token: phone })).status).toBe(401);
    expect((await t.call('GET', '/api/user/profile', { token: user.token })).status).toBe(200);
    const list = (await t.call<Json>('GET', '/api/user/sessions', { token: user.token })).json.data?.sessions as unknown[];
    expect(list).toHaveLength(1);
  });

  it('records sign-ins while login notifications are on, not when off', async () => {
    const before = ((await t.call<Json>('GET', '/api/user/sign-ins', { token: user.token })).json.data?.sign_ins as unknown[]).length;
    await loginAgain('Desk/4.0');
    const after = (await t.call<Json>('GET', '/api/user/sign-ins', { token: user.token })).json.data?.sign_ins as { client: string; ip: string; method: string; created_at: string }[];
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ client: 'Desk/4.0', method: 'password', created_at: expect.any(String) });
    await t.call('PUT', '/api/user/preferences', { token: user.token, body: { preferences: { security: { loginNotifications: false } } } });
    await loginAgain('Desk/5.0');
    const off = (await t.call<Json>('GET', '/api/user/sign-ins', { token: user.token })).json.data?.sign_ins as unknown[];
    expect(off.length).toBe(after.length);
  });
});
