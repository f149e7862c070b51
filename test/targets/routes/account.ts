// Sign-in, sign-up, password reset, OTP, the caller's own profile and addresses.

import crypto from 'node:crypto';
import { hashPassword, isAdmin, type UserRow, verifyPassword } from '../auth';
import { type Ctx, forbidden, type TargetState, tooMany } from '../context';
import { FetchFailed, FetchRefused } from '../fetcher';
import { HttpError, json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';

export const money = (cents: number) => Math.round(cents) / 100;

export function userView(u: UserRow, ctx: Ctx): Record<string, unknown> {
  const v: Record<string, unknown> = {
    id: u.id,
    username: u.username,
    email: u.email,
    displayName: u.display_name,
    phone: u.phone,
    role: u.role,
    isAdmin: isAdmin(u),
    verified: u.verified === 1,
    balance: money(u.balance_cents),
    credits: u.credits,
    avatarUrl: u.avatar_url,
    apiKeyHint: `…${u.api_key.slice(-4)}`,
    createdAt: u.created_at,
  };
  // The flawed serialiser spreads columns of the row on top of the declared view.
  if (ctx.has('exposure-password-hash')) v.password_hash = u.password_hash;
  if (ctx.has('exposure-api-key')) v.api_key = u.api_key;
  return v;
}

const bool01 = (v: unknown) => (v === true || v === 1 || v === 'true' || v === '1' ? 1 : 0);
const cents = (v: unknown) => Math.round(Number(v) * 100);

/** How a body key lands on a users column: the flawed "fill" accepts camelCase and snake_case. */
const USER_FILL: Record<string, [column: string, convert?: (v: unknown) => unknown]> = {
  displayName: ['display_name'],
  display_name: ['display_name'],
  email: ['email'],
  phone: ['phone'],
  role: ['role', (v) => String(v)],
  isAdmin: ['is_admin', bool01],
  is_admin: ['is_admin', bool01],
  admin: ['is_admin', bool01],
  verified: ['verified', bool01],
  isVerified: ['verified', bool01],
  balance: ['balance_cents', cents],
  walletBalance: ['balance_cents', cents],
  wallet_balance: ['balance_cents', cents],
  credits: ['credits', (v) => Math.trunc(Number(v)) || 0],
  avatarUrl: ['avatar_url', (v) => String(v)],
};

async function updateMe(ctx: Ctx) {
  const me = await ctx.user();
  const privilege = ctx.has('mass-assign-privilege');
  const input = ctx.input<Record<string, unknown>>(SCHEMAS.User, {
    // Only the database's CHECK constraint guards displayName when size-limit-500 is on.
    sizeLimits: !ctx.has('size-limit-500'),
    rejectUnknown: !privilege,
    dropReadOnly: !privilege,
  });
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(input)) {
    const fill = USER_FILL[key];
    if (!fill) continue;
    sets.push(`${fill[0]} = ?`);
    values.push(fill[1] ? fill[1](value) : value);
  }
  if (sets.length) {
    try {
      ctx.t.db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...values, me.id);
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new HttpError(409, 'conflict', 'That email address is already registered.');
      throw e;
    }
  }
  return json(200, userView(ctx.t.auth.userById(me.id)!, ctx));
}

const LOGIN_WINDOW = 15 * 60_000;

export function registerAccount(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/auth/login', async (ctx) => {
    const throttled = !ctx.has('login-no-throttle');
    let user: UserRow | undefined;
    let name: string;
    if (throttled) {
      // Any outcome counts here: credential stuffing uses many usernames from one client.
      const a = t.limiter.state(`login-any:${ctx.clientIp}`, 60_000);
      if (a.count >= 30) throw tooMany(a.resetSeconds, 'Too many sign-in attempts. Try again later.');
      t.limiter.record(`login-any:${ctx.clientIp}`);
    }
    const guard = (key: string) => {
      if (!throttled) return;
      const u = t.limiter.state(`login-fail:user:${key}`, LOGIN_WINDOW);
      const c = t.limiter.state(`login-fail:ip:${ctx.clientIp}`, LOGIN_WINDOW);
      if (u.count >= 5) throw tooMany(u.resetSeconds, 'Too many failed sign-in attempts. Try again later.');
      if (c.count >= 20) throw tooMany(c.resetSeconds, 'Too many failed sign-in attempts. Try again later.');
    };
    if (ctx.has('nosql-injection')) {
      // Legacy v1 login: the parsed body goes straight into the document filter.
      const body = ctx.body();
      if (!body || typeof body !== 'object') throw new ValidationError([{ field: '(body)', message: 'must be an object' }]);
      const { username, password } = body as Record<string, unknown>;
      name = typeof username === 'string' ? username.toLowerCase() : JSON.stringify(username ?? null);
      guard(name);
      const account = t.legacy.findOne({ username, password });
      user = account ? t.auth.userById(account.userId) : undefined;
    } else {
      const input = ctx.input<{ username: string; password: string }>(SCHEMAS.LoginRequest);
      name = input.username.toLowerCase();
      guard(name);
      const row = t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(username) = ?').get(name);
      // Unknown accounts cost the same scrypt work as wrong passwords.
      const ok = verifyPassword(input.password, row?.password_hash ?? DUMMY_HASH) && row !== undefined;
      user = ok ? row : undefined;
    }
    if (!user) {
      if (throttled) {
        t.limiter.record(`login-fail:user:${name}`);
        t.limiter.record(`login-fail:ip:${ctx.clientIp}`);
      }
      throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
    }
    t.limiter.clear(`login-fail:user:${name}`);
    t.db.prepare('UPDATE users SET last_login_ip = ? WHERE id = ?').run(ctx.clientIp, user.id);
    return json(200, { accessToken: await t.auth.mint(user), tokenType: 'Bearer', expiresIn: 86400 });
  });

  r.post('/api/v2/auth/signup', (ctx) => {
    ctx.throttle('flow-signup', `signup:${ctx.clientIp}`, 5, 10 * 60_000);
    const input = ctx.input<{ username: string; email: string; password: string }>(SCHEMAS.SignupRequest);
    const taken = t.db.prepare('SELECT 1 FROM users WHERE lower(username) = lower(?) OR lower(email) = lower(?)').get(input.username, input.email);
    if (taken) throw new HttpError(409, 'conflict', 'That username or email address is already registered.');
    const id = Number(
      t.db
        .prepare('INSERT INTO users (username, email, display_name, password_hash, api_key, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(input.username, input.email, input.username, hashPassword(input.password), `ak_live_${crypto.randomBytes(18).toString('hex')}`, new Date().toISOString()).lastInsertRowid,
    );
    t.legacy.upsert({ userId: id, username: input.username, email: input.email, password: input.password });
    return json(201, { id, username: input.username, email: input.email }, { location: `/api/v2/users/${id}` });
  });

  r.post('/api/v2/auth/password-reset', (ctx) => {
    const input = ctx.input<{ email: string }>(SCHEMAS.PasswordResetRequest);
    const email = input.email.toLowerCase();
    ctx.throttle('reset-no-throttle', `reset-request:${email}`, 3, 3600_000);
    const user = t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(email) = ?').get(email);
    const reply: Record<string, unknown> = { message: 'If the address is registered, a reset link has been sent.' };
    if (user) {
      const token = crypto.randomBytes(24).toString('base64url');
      t.db.prepare('INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES (?, ?, ?)').run(sha256(token), user.id, Date.now() + 3600_000);
      t.outbox.push({ time: Date.now(), to: user.email, subject: 'Reset your Acme Shop password', body: `${t.origin}/reset?token=${token}` });
      if (ctx.has('token-in-response')) reply.resetToken = token;
    }
    return json(202, reply);
  });

  r.post('/api/v2/auth/password-reset/confirm', (ctx) => {
    const key = `reset-fail:${ctx.clientIp}`;
    if (!ctx.has('reset-no-throttle')) {
      const s = t.limiter.state(key, LOGIN_WINDOW);
      if (s.count >= 5) throw tooMany(s.resetSeconds);
    }
    const input = ctx.input<{ token: string; newPassword: string }>(SCHEMAS.PasswordResetConfirm);
    const row = t.db
      .prepare<[string], { user_id: number; expires_at: number; used: number }>('SELECT user_id, expires_at, used FROM password_resets WHERE token_hash = ?')
      .get(sha256(input.token));
    if (!row || row.used || row.expires_at < Date.now()) {
      if (!ctx.has('reset-no-throttle')) t.limiter.record(key);
      throw new HttpError(400, 'invalid_token', 'The reset link is invalid or has expired.');
    }
    t.db.prepare('UPDATE password_resets SET used = 1 WHERE user_id = ?').run(row.user_id);
    t.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(input.newPassword), row.user_id);
    const u = t.auth.userById(row.user_id)!;
    t.legacy.upsert({ userId: u.id, username: u.username, email: u.email, password: input.newPassword });
    return json(200, { message: 'Your password has been changed.' });
  });

  r.post('/api/v2/auth/otp/send', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-otp', `otp-send:${me.id}`, 5, 60_000);
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    ctx.t.db.prepare('INSERT OR REPLACE INTO otps (user_id, code, expires_at) VALUES (?, ?, ?)').run(me.id, code, Date.now() + 300_000);
    ctx.t.outbox.push({ time: Date.now(), to: me.phone ?? me.email, subject: 'Acme Shop code', body: `Your Acme Shop code is ${code}` });
    return json(202, { message: 'A code has been sent by SMS.', expiresIn: 300 });
  });

  r.post('/api/v2/auth/otp/verify', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-otp', `otp-verify:${me.id}`, 5, 60_000);
    const input = ctx.input<{ code: string }>(SCHEMAS.OtpVerify);
    const row = ctx.t.db.prepare<[number], { code: string; expires_at: number }>('SELECT code, expires_at FROM otps WHERE user_id = ?').get(me.id);
    if (!row || row.expires_at < Date.now() || !crypto.timingSafeEqual(Buffer.from(row.code), Buffer.from(input.code))) {
      throw new HttpError(400, 'invalid_code', 'The code is wrong or has expired.');
    }
    ctx.t.db.prepare('DELETE FROM otps WHERE user_id = ?').run(me.id);
    ctx.t.db.prepare('UPDATE users SET verified = 1 WHERE id = ?').run(me.id);
    return json(200, { verified: true });
  });

  r.get('/api/v2/me', async (ctx) => json(200, userView(await ctx.user(), ctx)));
  r.patch('/api/v2/me', updateMe);
  // Undeclared: the generic resource controller also maps PUT.
  r.put('/api/v2/me', updateMe, { enabled: () => t.has('method-swap') });

  r.put('/api/v2/me/avatar', async (ctx) => {
    const me = await ctx.user();
    const input = ctx.input<{ imageUrl: string }>(SCHEMAS.AvatarRequest);
    let res;
    try {
      res = await ctx.t.fetcher.fetch(input.imageUrl, 'avatar');
    } catch (e) {
      if (e instanceof FetchRefused) throw new HttpError(400, 'url_not_allowed', e.message);
      if (e instanceof FetchFailed) throw new HttpError(502, 'fetch_failed', 'The image could not be downloaded.');
      throw e;
    }
    if (res.status !== 200 || !res.contentType.startsWith('image/')) {
      throw new HttpError(422, 'not_an_image', 'The URL did not return an image.');
    }
    ctx.t.db.prepare('UPDATE users SET avatar_url = ? WHERE id = ?').run(input.imageUrl, me.id);
    return json(200, { avatarUrl: input.imageUrl, contentType: res.contentType, size: res.body.length });
  });

  r.get('/api/v2/users/{userId}/addresses', async (ctx) => {
    const me = await ctx.user();
    const userId = ctx.intParam('userId');
    if (userId !== me.id && !isAdmin(me) && !ctx.has('bola-user-id')) throw forbidden('You can only read your own addresses.');
    const rows = ctx.t.db
      .prepare('SELECT id, label, line1, city, postcode, country FROM addresses WHERE user_id = ? ORDER BY id')
      .all(userId);
    return json(200, rows);
  });
}

export function sha256(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}

const DUMMY_HASH = hashPassword(crypto.randomBytes(12).toString('hex'));

