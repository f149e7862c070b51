// The accounts contract, run twice: over real HTTP against the team server and through the IPC
// bridge. Statuses, envelopes, exact messages and the security properties of DESIGN.md section 4.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../shared/constants';
import {
  createTestCore,
  openTransport,
  signUpAndLogin,
  type CallResult,
  type TestCore,
  type TestUser,
  type Transport,
} from '../helpers/core';

type Json = { success: boolean; message: string; data?: Record<string, unknown>; errors?: { field: string; message: string }[] };

describe.each(['http', 'ipc'] as const)('accounts contract over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  /** Every response text of this suite, to prove no password or hash ever leaves the server. */
  const seen: string[] = [];
  const call = async (method: string, path: string, options: Parameters<Transport['call']>[2] = {}): Promise<CallResult<Json>> => {
    const res = await t.call<Json>(method, path, options);
    seen.push(res.text);
    return res;
  };
  const passwords: string[] = [];
  const newUser = async (name = 'user'): Promise<TestUser> => {
    const u = await signUpAndLogin(t, name);
    passwords.push(u.password);
    return u;
  };

  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  describe('envelope and status codes', () => {
    it('answers every call with {success, message}', async () => {
      const res = await call('GET', '/api/environment');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.json).toMatchObject({ success: true, message: expect.any(String), data: expect.any(Object) });
    });

    it('refuses a body that is not JSON', async () => {
      const res = await call('POST', '/api/auth/login', { raw: '{not json', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ success: false, message: 'The request body must be valid JSON.' });
    });

    it('refuses a JSON body over the size limit with 413', async () => {
      const res = await call('POST', '/api/auth/signup', { body: { firstName: 'x'.repeat(2 * 1024 * 1024) } });
      expect(res.status).toBe(413);
      expect(res.json.success).toBe(false);
    });

    it('answers 404 for an unknown route once signed in, 401 before', async () => {
      expect((await call('GET', '/api/nope')).status).toBe(401);
      const u = await newUser();
      const res = await call('GET', '/api/nope', { token: u.token });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ success: false, message: 'Not found' });
    });

    it('answers 500 with a generic message and no stack trace when the store fails', async () => {
      const u = await newUser();
      await tc.core.store.db.schema.alterTable('user_profiles').renameTo('user_profiles_broken').execute();
      try {
        const res = await call('GET', '/api/user/extended-profile', { token: u.token });
        expect(res.status).toBe(500);
        expect(res.json).toEqual({ success: false, message: 'Something went wrong on our side. Please try again.' });
        expect(res.text).not.toMatch(/sqlite|at \w+ \(|\.ts:\d+/i);
        expect(tc.log.lines.some((l) => l.includes('Unhandled error') && l.includes('user_profiles'))).toBe(true);
      } finally {
        await tc.core.store.db.schema.alterTable('user_profiles_broken').renameTo('user_profiles').execute();
      }
    });
  });

  describe('sign-up', () => {
    it('creates an account: 201 with the user, never the password', async () => {
      const res = await call('POST', '/api/auth/signup', {
        body: { firstName: ' Grace ', lastName: 'Hopper', email: 'Grace@Example.com', username: 'Grace', password: 'cobol1959!' },
      });
      expect(res.status).toBe(201);
      expect(res.json.success).toBe(true);
      expect(res.json.message).toBe('Account created successfully');
      expect(res.json.data?.user).toMatchObject({ email: 'grace@example.com', username: 'grace', firstName: 'Grace', lastName: 'Hopper' });
      expect(res.text).not.toContain('cobol1959!');
      passwords.push('cobol1959!');
    });

    it('validates with the spec messages in order', async () => {
      const res = await call('POST', '/api/auth/signup', { body: { firstName: '', lastName: '', email: 'bad', username: 'ab', password: '123' } });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('First name is required');
      expect(res.json.errors?.map((e) => e.message)).toEqual([
        'First name is required',
        'Last name is required',
        'Invalid email',
        'Username too short',
        'Password too short',
      ]);
      const empty = await call('POST', '/api/auth/signup', { body: {} });
      expect(empty.json.errors?.map((e) => e.message)).toEqual([
        'First name is required',
        'Last name is required',
        'Email is required',
        'Username is required',
        'Password required',
      ]);
    });

    it('refuses wrong types without crashing', async () => {
      const res = await call('POST', '/api/auth/signup', { body: { firstName: 1, lastName: ['x'], email: {}, username: null, password: true } });
      expect(res.status).toBe(400);
      expect(res.json.errors?.[0]?.message).toBe('First name is required');
    });

    it('answers 409 for a taken email or username', async () => {
      const u = await newUser();
      const email = await call('POST', '/api/auth/signup', {
        body: { firstName: 'A', lastName: 'B', email: u.email.toUpperCase(), username: 'someoneelse1', password: 'longpassword' },
      });
      expect(email.status).toBe(409);
      expect(email.json.message).toBe('An account with this email already exists.');
      const username = await call('POST', '/api/auth/signup', {
        body: { firstName: 'A', lastName: 'B', email: 'other-unique@example.com', username: u.username, password: 'longpassword' },
      });
      expect(username.status).toBe(409);
      expect(username.json.message).toBe('Username already exists. Please choose a different username.');
    });
  });

  describe('login and sessions', () => {
    it('logs in by username and by email', async () => {
      const u = await newUser();
      for (const body of [{ username: u.username, password: u.password }, { email: u.email, password: u.password }]) {
        const res = await call('POST', '/api/auth/login', { body });
        expect(res.status).toBe(200);
        expect(res.json.message).toBe('Login successful');
        expect(res.json.data).toMatchObject({ token: expect.any(String), user: { id: u.id, username: u.username } });
        expect(res.text).not.toContain(u.password);
      }
    });

    it('needs both identifier and password', async () => {
      const res = await call('POST', '/api/auth/login', { body: { username: 'someone' } });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Please enter both identifier and password');
    });

    it('gives the same answer for a wrong password and an unknown account', async () => {
      const u = await newUser();
      const wrong = await call('POST', '/api/auth/login', { body: { username: u.username, password: 'not-it-at-all' } });
      const unknown = await call('POST', '/api/auth/login', { body: { username: 'nobody-here-xyz', password: 'not-it-at-all' } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json).toEqual(unknown.json);
      expect(wrong.json.message).toBe('Invalid username/email or password.');
    });

    it('throttles repeated failures with 429 and Retry-After, then lets the user back in', async () => {
      const u = await newUser();
      for (let i = 0; i < 5; i += 1) {
        expect((await call('POST', '/api/auth/login', { body: { username: u.username, password: `wrong-${i}` } })).status).toBe(401);
      }
      const blocked = await call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(blocked.json.message).toBe('Too many failed attempts. Please wait a few minutes and try again.');
      tc.clock.advance(15 * 60 * 1000 + 1000);
      expect((await call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })).status).toBe(200);
    });

    it('requires a token: 401 "Not authenticated" without one, "Session expired" for a bad one', async () => {
      const none = await call('GET', '/api/user/profile');
      expect(none.status).toBe(401);
      expect(none.json).toEqual({ success: false, message: 'Not authenticated' });
      const bad = await call('GET', '/api/user/profile', { token: 'x'.repeat(43) });
      expect(bad.status).toBe(401);
      expect(bad.json.message).toContain('Session expired');
      const malformed = await call('GET', '/api/user/profile', { headers: { authorization: 'Basic abc' } });
      expect(malformed.status).toBe(401);
    });

    it('expires an idle session after the user timeout, and use keeps it alive', async () => {
      const u = await newUser();
      tc.clock.advance(20 * 60 * 1000);
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
      tc.clock.advance(20 * 60 * 1000);
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
      tc.clock.advance(31 * 60 * 1000);
      const expired = await call('GET', '/api/user/profile', { token: u.token });
      expect(expired.status).toBe(401);
      expect(expired.json.message).toBe('Session expired. Please log in again.');
    });

    it('honours a changed session timeout on open sessions', async () => {
      const u = await newUser();
      const put = await call('PUT', '/api/user/preferences', { token: u.token, body: { preferences: { security: { sessionTimeout: '120' } } } });
      expect(put.status).toBe(200);
      tc.clock.advance(90 * 60 * 1000);
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
    });

    it('ends a session at its absolute lifetime however active', async () => {
      const u = await newUser();
      for (let i = 0; i < 7 * 24 * 2; i += 1) {
        tc.clock.advance(29 * 60 * 1000);
        if (i % 24 === 0) expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
        else await tc.core.services.repos.sessions.touch((await tc.core.services.accounts.authenticate(u.token)).session.id, tc.clock.now());
      }
      tc.clock.advance(7 * 24 * 60 * 60 * 1000);
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(401);
    });

    it('logs out: the token stops working', async () => {
      const u = await newUser();
      const res = await call('POST', '/api/auth/logout', { token: u.token });
      expect(res.status).toBe(200);
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(401);
    });

    it('stores only a hash of the session token', async () => {
      const u = await newUser();
      const rows = await tc.core.store.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.token_hash === u.token)).toBe(false);
      const dump = JSON.stringify(await tc.core.store.db.selectFrom('sessions').selectAll().execute());
      expect(dump).not.toContain(u.token);
    });
  });

  describe('user_id is checked against the token', () => {
    it('refuses another user id in the query or body with 403, accepts your own', async () => {
      const a = await newUser('alice');
      const b = await newUser('bob');
      const q = await call('GET', `/api/user/profile?user_id=${b.id}`, { token: a.token });
      expect(q.status).toBe(403);
      expect(q.json.message).toBe('You do not have permission to perform this action.');
      const body = await call('PUT', '/api/user/preferences', { token: a.token, body: { user_id: b.id, preferences: {} } });
      expect(body.status).toBe(403);
      const owner = await call('PUT', '/api/user/preferences', { token: a.token, body: { owner_user_id: b.id, preferences: {} } });
      expect(owner.status).toBe(403);
      expect((await call('GET', `/api/user/profile?user_id=${a.id}`, { token: a.token })).status).toBe(200);
      // The claimed id never selects whose data is read.
      const mine = await call('GET', `/api/user/profile?user_id=${a.id}`, { token: a.token });
      expect((mine.json.data?.user as { id: string }).id).toBe(a.id);
    });
  });

  describe('profile', () => {
    it('reads and updates the profile with the Settings rules', async () => {
      const u = await newUser();
      const got = await call('GET', '/api/user/profile', { token: u.token });
      expect(got.json.data?.user).toMatchObject({ id: u.id, email: u.email, username: u.username, profilePicture: null });
      const bad = await call('PUT', '/api/user/update', { token: u.token, body: { firstName: 'A', lastName: '', username: 'x!' } });
      expect(bad.status).toBe(400);
      expect(bad.json.errors?.map((e) => e.message)).toEqual([
        'First name must be at least 2 characters',
        'Last name is required',
        'Username must be at least 3 characters',
      ]);
      const ok = await call('PUT', '/api/user/update', { token: u.token, body: { firstName: 'Ada', lastName: 'Byron', username: 'ada_b-' + u.id.slice(0, 6) } });
      expect(ok.status).toBe(200);
      expect(ok.json.data?.user).toMatchObject({ firstName: 'Ada', lastName: 'Byron' });
    });

    it('answers 409 with the spec text for a taken username', async () => {
      const a = await newUser();
      const b = await newUser();
      const res = await call('PUT', '/api/user/update', { token: a.token, body: { firstName: 'Ada', lastName: 'Byron', username: b.username } });
      expect(res.status).toBe(409);
      expect(res.json.message).toBe('Username already exists. Please choose a different username.');
    });
  });

  describe('password change', () => {
    it('validates with the spec messages', async () => {
      const u = await newUser();
      const res = await call('PUT', '/api/user/password', { token: u.token, body: { currentPassword: '', newPassword: 'abc', confirmPassword: 'abd' } });
      expect(res.status).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.json.errors?.map((e) => e.message)).toEqual([
        'Current password is required.',
        'Password must be at least 8 characters long.',
        'Password must contain at least one uppercase letter.',
        'Password must contain at least one number.',
        'Password confirmation does not match.',
      ]);
    });

    it('refuses a wrong current password with 400', async () => {
      const u = await newUser();
      const res = await call('PUT', '/api/user/password', {
        token: u.token,
        body: { currentPassword: 'Wrong1password', newPassword: 'Brand1newpass', confirmPassword: 'Brand1newpass' },
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Current password is incorrect.');
    });

    it('changes the password, keeps this session and ends the others', async () => {
      const u = await newUser();
      const other = await call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } });
      const otherToken = (other.json.data as { token: string }).token;
      const res = await call('PUT', '/api/user/password', {
        token: u.token,
        body: { currentPassword: u.password, newPassword: 'Brand1newpass', confirmPassword: 'Brand1newpass' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, message: 'Password updated successfully!' });
      passwords.push('Brand1newpass');
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
      expect((await call('GET', '/api/user/profile', { token: otherToken })).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { body: { username: u.username, password: u.password } })).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { body: { username: u.username, password: 'Brand1newpass' } })).status).toBe(200);
    });
  });

  describe('forgot and reset password', () => {
    const resetLinkFor = (email: string): string | undefined => {
      const line = [...tc.log.lines].reverse().find((l) => l.includes(`Password reset link for ${email}:`));
      return line?.match(/token=([A-Za-z0-9_-]+)/)?.[1];
    };

    it('always gives the generic answer, and logs a link only for a real account', async () => {
      const u = await newUser();
      const known = await call('POST', '/api/auth/forgot-password', { body: { email: u.email } });
      const unknown = await call('POST', '/api/auth/forgot-password', { body: { email: 'nobody-xyz@example.com' } });
      expect(known.status).toBe(200);
      expect(unknown.json).toEqual(known.json);
      expect(known.json.message).toBe(
        'If that account exists, we sent a reset link. If you cannot find the email, make sure to check your spam folder.',
      );
      expect(resetLinkFor(u.email)).toBeTruthy();
      expect(resetLinkFor('nobody-xyz@example.com')).toBeUndefined();
      expect(tc.log.lines.join('\n')).toContain(`http://portcullis.test/recover?token=${resetLinkFor(u.email)}`);
    });

    it('resets with the link once; the token cannot be used twice; old sessions end', async () => {
      const u = await newUser();
      await call('POST', '/api/auth/forgot-password', { body: { email: u.email } });
      const token = resetLinkFor(u.email)!;
      const res = await call('POST', '/api/auth/reset-password', { body: { token, password: 'Reset1password' } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, message: 'Password reset. You can log in now.' });
      passwords.push('Reset1password');
      const again = await call('POST', '/api/auth/reset-password', { body: { token, password: 'Another1password' } });
      expect(again.status).toBe(400);
      expect(again.json.message).toBe('Reset failed. Link may be invalid or expired.');
      expect((await call('GET', '/api/user/profile', { token: u.token })).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { body: { email: u.email, password: 'Reset1password' } })).status).toBe(200);
    });

    it('refuses an expired token, a missing token and a short password', async () => {
      const u = await newUser();
      await call('POST', '/api/auth/forgot-password', { body: { email: u.email } });
      const token = resetLinkFor(u.email)!;
      const short = await call('POST', '/api/auth/reset-password', { body: { token, password: 'short' } });
      expect(short.status).toBe(400);
      expect(short.json.message).toBe('Password must be at least 8 characters.');
      const missing = await call('POST', '/api/auth/reset-password', { body: { password: 'Long1password' } });
      expect(missing.json.message).toBe('Missing or invalid token.');
      tc.clock.advance(61 * 60 * 1000);
      const expired = await call('POST', '/api/auth/reset-password', { body: { token, password: 'Long1password' } });
      expect(expired.status).toBe(400);
      expect(expired.json.message).toBe('Reset failed. Link may be invalid or expired.');
    });

    it('validates the email format', async () => {
      const res = await call('POST', '/api/auth/forgot-password', { body: { email: 'not-an-email' } });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Invalid email');
    });
  });

  describe('preferences', () => {
    it('starts from the spec defaults and saves partial changes', async () => {
      const u = await newUser();
      const got = await call('GET', '/api/user/preferences', { token: u.token });
      expect(got.json.data?.preferences).toEqual(DEFAULT_PREFERENCES);
      const put = await call('PUT', '/api/user/preferences', {
        token: u.token,
        body: { preferences: { notifications: { weeklyReport: true }, preferences: { theme: 'dark', emailFrequency: 'monthly' } } },
      });
      expect(put.status).toBe(200);
      const after = await call('GET', '/api/user/preferences', { token: u.token });
      expect(after.json.data?.preferences).toEqual({
        ...DEFAULT_PREFERENCES,
        notifications: { ...DEFAULT_PREFERENCES.notifications, weeklyReport: true },
        preferences: { ...DEFAULT_PREFERENCES.preferences, theme: 'dark', emailFrequency: 'monthly' },
      });
    });

    it('validates values and keeps two-factor off without enrolment', async () => {
      const u = await newUser();
      const bad = await call('PUT', '/api/user/preferences', {
        token: u.token,
        body: { preferences: { preferences: { emailFrequency: 'hourly' }, security: { sessionTimeout: '1' } } },
      });
      expect(bad.status).toBe(400);
      expect(bad.json.errors?.map((e) => e.field)).toEqual(['preferences.security.sessionTimeout', 'preferences.preferences.emailFrequency']);
      await call('PUT', '/api/user/preferences', { token: u.token, body: { preferences: { security: { twoFactorAuth: true } } } });
      const after = await call('GET', '/api/user/preferences', { token: u.token });
      expect((after.json.data?.preferences as typeof DEFAULT_PREFERENCES).security.twoFactorAuth).toBe(false);
    });
  });

  describe('extended profile', () => {
    it('reads empty fields, validates with the spec messages, saves', async () => {
      const u = await newUser();
      const got = await call('GET', '/api/user/extended-profile', { token: u.token });
      expect(got.json.data?.profile).toEqual({
        phone: '',
        company: '',
        position: '',
        timezone: '',
        avatar_url: '',
        bio: '',
        website_url: '',
        location: '',
      });
      const bad = await call('PUT', '/api/user/extended-profile', {
        token: u.token,
        body: { phone: 'call me', website_url: 'ada.dev', bio: 'x'.repeat(501) },
      });
      expect(bad.status).toBe(400);
      expect(bad.json.errors?.map((e) => e.message)).toEqual([
        'Please enter a valid phone number',
        'Website URL must start with http:// or https://',
        'Bio must be less than 500 characters',
      ]);
      const ok = await call('PUT', '/api/user/extended-profile', {
        token: u.token,
        body: { phone: '+27 21 555 0100', company: 'Acme', website_url: 'https://ada.dev', timezone: 'UTC+02:00', bio: 'Hi' },
      });
      expect(ok.status).toBe(200);
      const after = await call('GET', '/api/user/extended-profile', { token: u.token });
      expect(after.json.data?.profile).toMatchObject({ phone: '+27 21 555 0100', company: 'Acme', website_url: 'https://ada.dev', bio: 'Hi' });
    });
  });

  describe('public routes', () => {
    it('environment says whether this is a container, whether local scans are allowed and whether social sign-in is configured', async () => {
      const res = await call('GET', '/api/environment');
      expect(res.json.data).toEqual({ isDocker: expect.any(Boolean), localScans: true, socialSignIn: false });
    });

    it('platform stats are real counts', async () => {
      const before = (await call('GET', '/api/stats/platform')).json.data as Record<string, number>;
      expect(before).toEqual({ vulnerabilitiesFound: expect.any(Number), apisSecured: expect.any(Number), scansToday: expect.any(Number) });
      const u = await newUser();
      await tc.core.services.repos.apis.createWithEndpoints(
        {
          ownerId: u.id,
          name: 'Counted',
          baseUrl: 'http://127.0.0.1:1',
          sourceFormat: 'manual',
          sourceFilename: null,
          specVersion: null,
          security: { schemes: {}, default: [] },
          endpoints: [],
        },
        tc.clock.now(),
      );
      const after = (await call('GET', '/api/stats/platform')).json.data as Record<string, number>;
      expect(after.apisSecured).toBe(before.apisSecured! + 1);
    });
  });

  describe('secrets never leave the server', () => {
    it('no response ever contained a password or a password hash', () => {
      const all = seen.join('\n');
      expect(all).not.toMatch(/scrypt\$/);
      expect(all).not.toMatch(/password_hash/);
      for (const p of passwords) expect(all).not.toContain(p);
    });

    it('no log line holds a password or a session token', async () => {
      const u = await newUser();
      await call('GET', '/api/user/profile', { token: u.token });
      const lines = tc.log.lines.join('\n');
      for (const p of passwords) expect(lines).not.toContain(p);
      expect(lines).not.toContain(u.token);
      expect(lines).not.toMatch(/scrypt\$/);
    });
  });
});
