// The older mobile app's sign-in, kept for app versions still in use: a username and password for a
// bearer token, like POST /auth/login. With login-unknown-user-error on it is the legacy code: the
// user row is read without checking that the lookup found one, so an unknown username crashes it and
// is answered 500 while a known one with a wrong password gets 401 (the usernames can be told apart),
// and it never counts failures (no throttle). Hardened, it is the shop's own sign-in: one 401 for
// both, behind the shared sign-in throttle.

import { type UserRow, verifyPassword } from '../auth';
import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';
import { cartIdOf } from './carts';
import { passwordSignIn, signedIn } from './account';

function legacySignIn(t: TargetState, username: string, password: string): UserRow | undefined {
  const row = t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(username) = ?').get(username.toLowerCase());
  try {
    return verifyPassword(password, (row as UserRow).password_hash) ? row : undefined;
  } catch {
    // The legacy catch-all: whatever went wrong, a 500.
    throw new HttpError(500, 'server_error', 'Something went wrong while signing you in.');
  }
}

export function registerMobileLogin(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/mobile/login', async (ctx) => {
    const input = ctx.input<{ username: string; password: string }>(SCHEMAS.LoginRequest);
    const user = ctx.has('login-unknown-user-error') ? legacySignIn(t, input.username, input.password) : passwordSignIn(ctx, input.username, input.password);
    if (!user) throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
    signedIn(ctx, user, 'login');
    return json(200, { accessToken: await t.auth.mint(user, { expiresIn: t.tokenTtlSeconds }), tokenType: 'Bearer', expiresIn: t.tokenTtlSeconds, cartId: cartIdOf(user.id) });
  });
}
