// E-mail verification by a 6-digit code mailed at sign-up (public: the new user is not signed in yet).

import crypto from 'node:crypto';
import type { UserRow } from '../auth';
import { type Ctx, type TargetState, tooMany } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';

const WINDOW = 15 * 60_000;
/** Wrong codes per address and window in the hardened twin. */
export const VERIFY_LIMIT = 5;

/** The pending code of each unverified user, "mailed" when it is first asked for. */
const codes = new WeakMap<TargetState, Map<number, string>>();

function pendingCode(t: TargetState, user: UserRow): string | null {
  if (user.verified === 1) return null;
  let map = codes.get(t);
  if (!map) codes.set(t, (map = new Map()));
  let code = map.get(user.id);
  if (!code) {
    code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    map.set(user.id, code);
    t.outbox.push({ time: Date.now(), to: user.email, subject: 'Verify your Acme Shop address', body: `Your code is ${code}` });
  }
  return code;
}

function verify(ctx: Ctx, t: TargetState) {
  const input = ctx.input<{ email: string; code: string }>(SCHEMAS.EmailVerify);
  const email = input.email.toLowerCase();
  const key = `verify-fail:${email}`;
  const guarded = !ctx.has('verification-code-no-throttle');
  if (guarded) {
    const s = t.limiter.state(key, WINDOW);
    if (s.count >= VERIFY_LIMIT) throw tooMany(s.resetSeconds, 'Too many wrong codes. Ask for a new one later.');
  }
  const user = t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(email) = ?').get(email);
  const code = user ? pendingCode(t, user) : null;
  if (!user || !code || !crypto.timingSafeEqual(Buffer.from(code), Buffer.from(input.code))) {
    if (guarded) t.limiter.record(key);
    throw new HttpError(400, 'invalid_code', 'The code is wrong or has expired.');
  }
  codes.get(t)?.delete(user.id);
  t.db.prepare('UPDATE users SET verified = 1 WHERE id = ?').run(user.id);
  return json(200, { verified: true });
}

export function registerVerification(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/auth/verify-email', (ctx) => verify(ctx, t));
}
