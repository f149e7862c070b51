// Sign-in, sign-up, password reset, OTP, the caller's own profile and addresses.

import crypto from 'node:crypto';
import { hashPassword, isAdmin, type UserRow, verifyPassword } from '../auth';
import { type Ctx, forbidden, notFound, type TargetState, tooMany } from '../context';
import { FetchFailed, FetchRefused } from '../fetcher';
import { HttpError, json, type Router, ValidationError } from '../http';
import type { LoginGrant } from '../identity';
import { SCHEMAS } from '../schemas';
import { defaultPasswordOpens } from './credentials';
import type { Schema } from '../validate';
import { cartIdOf } from './carts';

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
  try {
    fillUser(ctx.t, me.id, input);
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new HttpError(409, 'conflict', 'That email address is already registered.');
    throw e;
  }
  return json(200, userView(ctx.t.auth.userById(me.id)!, ctx));
}

/** The generic "fill the row from the body" both mass-assignment flaws come from. */
function fillUser(t: TargetState, userId: number, input: Record<string, unknown>, skip: string[] = []): void {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(input)) {
    const fill = USER_FILL[key];
    if (!fill || skip.includes(key)) continue;
    sets.push(`${fill[0]} = ?`);
    values.push(fill[1] ? fill[1](value) : value);
  }
  if (sets.length) t.db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...values, userId);
}

const LOGIN_WINDOW = 15 * 60_000;
/** Sign-up attempts per client and 10 minutes in the hardened twin. */
export const SIGNUP_LIMIT = 8;

/**
 * The hardened twin's brute-force throttle, shared by every password sign-in (login, cookie
 * session, the OAuth2 password grant) so that switching doors does not reset it.
 */
function signInThrottle(ctx: Ctx) {
  const { limiter } = ctx.t;
  const on = !ctx.has('login-no-throttle');
  if (on) {
    // Any outcome counts here: credential stuffing uses many usernames from one client.
    const a = limiter.state(`login-any:${ctx.clientIp}`, 60_000);
    if (a.count >= 30) throw tooMany(a.resetSeconds, 'Too many sign-in attempts. Try again later.');
    limiter.record(`login-any:${ctx.clientIp}`);
  }
  return {
    guard(name: string) {
      if (!on) return;
      const u = limiter.state(`login-fail:user:${name}`, LOGIN_WINDOW);
      const c = limiter.state(`login-fail:ip:${ctx.clientIp}`, LOGIN_WINDOW);
      if (u.count >= 5) throw tooMany(u.resetSeconds, 'Too many failed sign-in attempts. Try again later.');
      if (c.count >= 20) throw tooMany(c.resetSeconds, 'Too many failed sign-in attempts. Try again later.');
    },
    failed(name: string) {
      if (!on) return;
      limiter.record(`login-fail:user:${name}`);
      limiter.record(`login-fail:ip:${ctx.clientIp}`);
    },
    succeeded(name: string) {
      limiter.clear(`login-fail:user:${name}`);
    },
  };
}

/** Unknown accounts cost the same scrypt work as wrong passwords. */
function checkPassword(row: UserRow | undefined, password: string): row is UserRow {
  return verifyPassword(password, row?.password_hash ?? DUMMY_HASH) && row !== undefined;
}

const userByName = (t: TargetState, name: string) => t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(username) = ?').get(name.toLowerCase());

/** A username and password sign-in behind the throttle: the user, or undefined when they are wrong. */
export function passwordSignIn(ctx: Ctx, username: string, password: string): UserRow | undefined {
  const throttle = signInThrottle(ctx);
  const name = username.toLowerCase();
  throttle.guard(name);
  const row = userByName(ctx.t, name);
  if (!checkPassword(row, password) && !defaultPasswordOpens(ctx, row, password)) {
    throttle.failed(name);
    return undefined;
  }
  throttle.succeeded(name);
  return row;
}

/** Books a successful sign-in: the user's last login address and the log tests count. */
export function signedIn(ctx: Ctx, user: UserRow, grant: LoginGrant, clientId?: string): void {
  ctx.t.db.prepare('UPDATE users SET last_login_ip = ? WHERE id = ?').run(ctx.clientIp, user.id);
  ctx.t.logins.add({ username: user.username, userId: user.id, grant, ...(clientId ? { clientId } : {}) });
}

/** The relaxed copy of a request schema a flaw validates with: `field` becomes optional. */
const optional = (schema: Schema, field: string): Schema => ({ ...schema, required: (schema.required ?? []).filter((f) => f !== field) });

/**
 * The current password, required by the hardened twin; with `flaw` on it is only checked when the
 * client chose to send it (the "if present" bug). 403, not 401: the caller is signed in, and a 401
 * would tell a client to sign in again.
 */
function confirmCurrent(ctx: Ctx, flaw: 'password-change-other' | 'password-change-no-current' | 'email-change-other', user: UserRow, current: string | undefined): void {
  if (current === undefined && ctx.has(flaw)) return;
  if (current === undefined || !verifyPassword(current, user.password_hash)) throw new HttpError(403, 'wrong_password', 'The current password is wrong.');
}

export function setPassword(t: TargetState, user: UserRow, password: string): void {
  t.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(password), user.id);
  t.legacy.upsert({ userId: user.id, username: user.username, email: user.email, password });
}

/** The account a /users/{userId}/... change is about, when the caller may change it. */
async function ownAccount(ctx: Ctx, flaw: 'password-change-other' | 'email-change-other'): Promise<UserRow> {
  const me = await ctx.user();
  const userId = ctx.intParam('userId');
  if (userId !== me.id && !ctx.has(flaw)) throw forbidden('You can only change your own account.');
  const user = ctx.t.auth.userById(userId);
  if (!user) throw notFound('User');
  return user;
}

/** regex-backtracking: nested quantifiers in the local part backtrack exponentially on a run of letters with no @. */
const BACKTRACKING_EMAIL = /^([a-zA-Z0-9]([-.\w]*[a-zA-Z0-9])*)@([a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}$/;

function backtrackingEmailCheck(body: unknown): void {
  const email = body && typeof body === 'object' ? (body as Record<string, unknown>).email : undefined;
  // Longer values go to the schema's check: 64 characters is already far past what the scan sends.
  if (typeof email === 'string' && email.length <= 64 && !BACKTRACKING_EMAIL.test(email)) {
    throw new ValidationError([{ field: 'email', message: 'must be an email address' }]);
  }
}

export function registerAccount(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/auth/login', async (ctx) => {
    let user: UserRow | undefined;
    if (ctx.has('nosql-injection')) {
      // Legacy v1 login: the parsed body goes straight into the document filter.
      const throttle = signInThrottle(ctx);
      const body = ctx.body();
      if (!body || typeof body !== 'object') throw new ValidationError([{ field: '(body)', message: 'must be an object' }]);
      const { username, password } = body as Record<string, unknown>;
      const name = typeof username === 'string' ? username.toLowerCase() : JSON.stringify(username ?? null);
      throttle.guard(name);
      const account = t.legacy.findOne({ username, password });
      user = account ? t.auth.userById(account.userId) : undefined;
      if (!user && typeof username === 'string' && typeof password === 'string') {
        const row = userByName(t, name);
        if (defaultPasswordOpens(ctx, row, password)) user = row;
      }
      if (user) throttle.succeeded(name);
      else throttle.failed(name);
    } else {
      const input = ctx.input<{ username: string; password: string }>(SCHEMAS.LoginRequest);
      user = passwordSignIn(ctx, input.username, input.password);
    }
    if (!user) {
      const name = (ctx.body() as { username?: unknown } | undefined)?.username;
      if (ctx.has('login-user-enumeration') && typeof name === 'string' && !userByName(t, name)) throw new HttpError(401, 'unknown_user', 'No account with that username.');
      throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
    }
    signedIn(ctx, user, 'login');
    // token-claims-secret: the whole user row's secret rides along in the token.
    const claims = ctx.has('token-claims-secret') ? { claims: { pwdHash: user.password_hash } } : {};
    return json(200, { accessToken: await t.auth.mint(user, { expiresIn: t.tokenTtlSeconds, ...claims }), tokenType: 'Bearer', expiresIn: t.tokenTtlSeconds, cartId: cartIdOf(user.id) });
  });

  r.post('/api/v2/auth/signup', (ctx) => {
    // 8, not fewer: a scan registers its own test users (2-4, at most 8) and must not be stopped;
    // a burst of 10 (the scanner's flow check) still meets the limit.
    ctx.throttle('flow-signup', `signup:${ctx.clientIp}`, SIGNUP_LIMIT, 10 * 60_000);
    const privilege = ctx.has('signup-mass-assignment');
    const input = ctx.input<Record<string, unknown> & { username: string; email: string; password: string; passwordConfirmation?: string }>(SCHEMAS.SignupRequest, { rejectUnknown: !privilege });
    if (input.passwordConfirmation !== undefined && input.passwordConfirmation !== input.password && !ctx.has('signup-confirmation-ignored')) {
      throw new ValidationError([{ field: 'passwordConfirmation', message: 'does not match password' }]);
    }
    const taken = t.db.prepare('SELECT 1 FROM users WHERE lower(username) = lower(?) OR lower(email) = lower(?)').get(input.username, input.email);
    if (taken) throw new HttpError(409, 'conflict', 'That username or email address is already registered.');
    const id = Number(
      t.db
        .prepare('INSERT INTO users (username, email, display_name, password_hash, api_key, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(input.username, input.email, input.username, hashPassword(input.password), `ak_live_${crypto.randomBytes(18).toString('hex')}`, new Date().toISOString()).lastInsertRowid,
    );
    if (privilege) fillUser(t, id, input, ['username', 'email', 'password']);
    t.legacy.upsert({ userId: id, username: input.username, email: input.email, password: input.password });
    return json(201, { id, username: input.username, email: input.email }, { location: `/api/v2/users/${id}` });
  });

  r.post('/api/v2/auth/password-reset', (ctx) => {
    if (ctx.has('regex-backtracking')) backtrackingEmailCheck(ctx.body());
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

  // ---- account changes: each hardened route asks who and for the current password ----
  r.put('/api/v2/me/password', async (ctx) => {
    const me = await ctx.user();
    const flaw = 'password-change-no-current';
    const input = ctx.input<{ currentPassword?: string; newPassword: string }>(ctx.has(flaw) ? optional(SCHEMAS.PasswordChange, 'currentPassword') : SCHEMAS.PasswordChange);
    confirmCurrent(ctx, flaw, me, input.currentPassword);
    setPassword(ctx.t, me, input.newPassword);
    return json(200, { message: 'Your password has been changed.' });
  });

  r.put('/api/v2/users/{userId}/password', async (ctx) => {
    const flaw = 'password-change-other';
    const user = await ownAccount(ctx, flaw);
    const input = ctx.input<{ currentPassword?: string; newPassword: string }>(ctx.has(flaw) ? optional(SCHEMAS.PasswordChange, 'currentPassword') : SCHEMAS.PasswordChange);
    confirmCurrent(ctx, flaw, user, input.currentPassword);
    setPassword(ctx.t, user, input.newPassword);
    return json(200, { message: 'The password has been changed.' });
  });

  r.put('/api/v2/users/{userId}/email', async (ctx) => {
    const flaw = 'email-change-other';
    const user = await ownAccount(ctx, flaw);
    const input = ctx.input<{ email: string; currentPassword?: string }>(ctx.has(flaw) ? optional(SCHEMAS.EmailChange, 'currentPassword') : SCHEMAS.EmailChange);
    confirmCurrent(ctx, flaw, user, input.currentPassword);
    const taken = ctx.t.db.prepare('SELECT 1 FROM users WHERE lower(email) = lower(?) AND id <> ?').get(input.email, user.id);
    if (taken) throw new HttpError(409, 'conflict', 'That email address is already registered.');
    ctx.t.db.prepare('UPDATE users SET email = ? WHERE id = ?').run(input.email, user.id);
    return json(200, userView(ctx.t.auth.userById(user.id)!, ctx));
  });

  r.delete('/api/v2/users/{userId}', async (ctx) => {
    const me = await ctx.user();
    const user = ctx.t.auth.userById(ctx.intParam('userId'));
    // Administrators' accounts need an administrator in both modes; the flaw is about customers.
    const allowed = isAdmin(me) || user?.id === me.id || (ctx.has('account-delete-other') && user !== undefined && !isAdmin(user));
    if (!allowed) throw forbidden('You can only delete your own account.');
    if (!user) throw notFound('User');
    ctx.t.db.transaction(() => {
      ctx.t.db.prepare('DELETE FROM addresses WHERE user_id = ?').run(user.id);
      ctx.t.db.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    })();
    // Its tokens, API key, sessions and refresh tokens now name nobody: they stop working by themselves.
    ctx.t.legacy.remove(user.id);
    return { status: 204 };
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

