// Credentials handled the way many small APIs handle them: a sign-in finished by a 4-digit code sent
// by SMS (the code bound to the client that asked for it, checked without credentials), a password
// change over GET with the passwords in the query string, and an installation default password that
// still opens the administrator's account; a storage connection string that keeps its access key; an account summary whose link carries a token it does not verify.

import crypto from 'node:crypto';
import { isAdmin, type UserRow, verifyPassword } from '../auth';
import { type Ctx, type TargetState, tooMany } from '../context';
import { HttpError, json, type Router } from '../http';
import { publicJwks } from '../jwt-keys';
import { SCHEMAS } from '../schemas';
import { setPassword, signedIn } from './account';

/** Wrong codes per pending code in the hardened twin, before the code is dropped. */
export const SMS_CODE_TRIES = 5;
const SMS_CODE_TTL = 5 * 60_000;

/** The installer's default administrator password, still accepted with `default-admin-password` on. */
export const DEFAULT_ADMIN_PASSWORD = 'changeme';

interface Pending {
  userId: number;
  code: string;
  expires: number;
  wrong: number;
}

/** The pending sign-in code of each client address (the second step does not name the account). */
const pending = new WeakMap<TargetState, Map<string, Pending>>();

function pendingOf(t: TargetState): Map<string, Pending> {
  let map = pending.get(t);
  if (!map) pending.set(t, (map = new Map()));
  return map;
}

function decodePayload(token: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The export storage's access key (an AWS-style id and secret), made per target. */
const storageKeys = new WeakMap<TargetState, { id: string; secret: string }>();
function storageKey(t: TargetState): { id: string; secret: string } {
  let k = storageKeys.get(t);
  if (!k) {
    const b32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    const id = `AKIA${Array.from(crypto.randomBytes(16), (b) => b32[b % 32]).join('')}`;
    storageKeys.set(t, (k = { id, secret: crypto.randomBytes(30).toString('base64').slice(0, 40) }));
  }
  return k;
}
const storageKeyId = (t: TargetState) => storageKey(t).id;
const storageSecret = (t: TargetState) => storageKey(t).secret;

const digitsOnly = (s: string) => s.replace(/\D/g, '');

function userByPhone(t: TargetState, phone: string): UserRow | undefined {
  const want = digitsOnly(phone);
  if (want.length < 7) return undefined;
  return t.db.prepare<[], UserRow>('SELECT * FROM users WHERE phone IS NOT NULL').all().find((u) => digitsOnly(u.phone ?? '') === want);
}

/** With `default-admin-password` on, an administrator account also opens with the installer's default password. */
export function defaultPasswordOpens(ctx: Ctx, user: UserRow | undefined, password: string): boolean {
  return !!user && ctx.has('default-admin-password') && isAdmin(user) && password === DEFAULT_ADMIN_PASSWORD;
}

export function registerCredentials(r: Router<Ctx>, t: TargetState): void {
  // The public half of the key partner tokens (RS256) are signed with, as OpenID providers publish it.
  r.get('/.well-known/jwks.json', () => json(200, publicJwks()));

  r.post('/api/v2/auth/sms-login', (ctx) => {
    const input = ctx.input<{ phone: string }>(SCHEMAS.SmsLoginRequest);
    const user = userByPhone(t, input.phone);
    // The same answer whether or not the number is registered.
    if (user) {
      const code = String(crypto.randomInt(0, 10_000)).padStart(4, '0');
      pendingOf(t).set(ctx.clientIp, { userId: user.id, code, expires: Date.now() + SMS_CODE_TTL, wrong: 0 });
      t.outbox.push({ time: Date.now(), to: user.phone ?? user.email, subject: 'Acme Shop sign-in code', body: `Your sign-in code is ${code}` });
    }
    return json(202, { message: 'If the number is registered, a 4-digit code has been sent by SMS.' });
  });

  r.post('/api/v2/auth/sms-login/verify', async (ctx) => {
    const input = ctx.input<{ otp: string }>(SCHEMAS.SmsLoginVerify);
    if (!/^\d{4}$/.test(input.otp)) throw new HttpError(400, 'invalid_format', 'The code has 4 digits.');
    const map = pendingOf(t);
    const p = map.get(ctx.clientIp);
    if (!p || p.expires < Date.now()) throw new HttpError(400, 'no_pending_code', 'Ask for a code first.');
    if (!crypto.timingSafeEqual(Buffer.from(p.code), Buffer.from(input.otp))) {
      p.wrong += 1;
      if (!ctx.has('sms-login-code-no-throttle') && p.wrong >= SMS_CODE_TRIES) {
        map.delete(ctx.clientIp);
        throw tooMany(Math.ceil(SMS_CODE_TTL / 1000), 'Too many wrong codes. Ask for a new one.');
      }
      throw new HttpError(401, 'invalid_code', 'The code is wrong.');
    }
    map.delete(ctx.clientIp);
    const user = t.auth.userById(p.userId)!;
    signedIn(ctx, user, 'login');
    return json(200, { accessToken: await t.auth.mint(user, { expiresIn: t.tokenTtlSeconds }), tokenType: 'Bearer', expiresIn: t.tokenTtlSeconds });
  });

  // The account summary a mail links to: the token rides in the link. The flaw decodes it without checking its signature.
  r.get('/api/v2/account/summary', async (ctx) => {
    const token = ctx.query.get('token') ?? '';
    let user: UserRow | undefined;
    if (ctx.has('token-argument-unverified')) {
      const payload = decodePayload(token);
      const sub = typeof payload?.sub === 'string' && /^\d+$/.test(payload.sub) ? Number(payload.sub) : NaN;
      user = Number.isSafeInteger(sub) ? t.auth.userById(sub) : undefined;
    } else {
      const r = await t.auth.verifyJwt(token);
      user = r.kind === 'user' ? r.user : undefined;
    }
    if (!user) throw new HttpError(401, 'invalid_token', 'The link is invalid or has expired.');
    return json(200, { username: user.username, email: user.email, displayName: user.display_name, verified: user.verified === 1 });
  });

  // Where data exports are written. The flaw: the storage connection string keeps its access key.
  r.get('/api/v2/exports/storage', async (ctx) => {
    await ctx.user();
    const creds = ctx.has('cloud-key-in-answer') ? `${storageKeyId(t)}:${storageSecret(t)}@` : '';
    return json(200, { bucket: 'acme-exports', region: 'eu-west-1', connection: `s3://${creds}acme-exports/exports` });
  });

  // The web client's old change-password link: every value in the query string.
  r.get('/api/v2/account/change-password', async (ctx) => {
    const me = await ctx.user();
    const current = ctx.query.get('current');
    const next = ctx.query.get('new') ?? '';
    if (next.length < 8) throw new HttpError(400, 'validation_failed', 'The new password needs at least 8 characters.');
    if (next !== ctx.query.get('repeat')) throw new HttpError(400, 'validation_failed', 'The new and the repeated password differ.');
    // The flaw: the current password is checked only when the client sends it.
    if (current === null && !ctx.has('password-change-over-get')) throw new HttpError(403, 'wrong_password', 'The current password is wrong.');
    if (current !== null && !verifyPassword(current, me.password_hash)) throw new HttpError(403, 'wrong_password', 'The current password is wrong.');
    setPassword(t, me, next);
    return json(200, { message: 'Your password has been changed.' });
  });
}
