// Settings > Security: two-factor enrolment and removal, recovery codes, the user's active sessions
// and recent sign-ins.

import type { Hono } from 'hono';
import { z } from 'zod';
import { TWO_FACTOR_TEXT } from '../../accounts/two-factor';
import type { Services } from '../../services';
import type { AppEnv } from '../env';
import { notFound } from '../errors';
import { parseBody } from '../input';
import { ok } from '../respond';

export const SECURITY_TEXT = {
  sessions: 'Sessions loaded',
  signedOut: 'That session is signed out.',
  signedOutOthers: 'Signed out of every other session.',
  noSession: 'No such session.',
  signIns: 'Recent sign-ins loaded',
  status: 'Two-factor status loaded',
} as const;

const code = z.string({ error: TWO_FACTOR_TEXT.invalidCode }).trim().min(1, { error: TWO_FACTOR_TEXT.invalidCode }).max(64, { error: TWO_FACTOR_TEXT.invalidCode });
const codeSchema = z.object({ code });
const disableSchema = z.object({ password: z.string().max(1024).optional().default(''), code });
const sessionSchema = z.object({ session_id: z.string({ error: 'session_id is required.' }).min(1).max(100) });

export function registerSecurityRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/api/user/2fa', async (c) => ok(c, SECURITY_TEXT.status, await s.twoFactor.status(c.get('user'))));

  app.post('/api/user/2fa/setup', async (c) => ok(c, TWO_FACTOR_TEXT.setup, await s.twoFactor.setup(c.get('user'))));

  app.post('/api/user/2fa/enable', async (c) => {
    const { code } = await parseBody(c, codeSchema);
    const recovery_codes = await s.twoFactor.enable(c.get('user'), code);
    return ok(c, TWO_FACTOR_TEXT.enabled, { recovery_codes });
  });

  app.post('/api/user/2fa/disable', async (c) => {
    const input = await parseBody(c, disableSchema);
    await s.twoFactor.disable(c.get('user'), input.password, input.code);
    return ok(c, TWO_FACTOR_TEXT.disabled);
  });

  app.post('/api/user/2fa/recovery-codes', async (c) => {
    const { code } = await parseBody(c, codeSchema);
    const recovery_codes = await s.twoFactor.renewRecoveryCodes(c.get('user'), code);
    return ok(c, TWO_FACTOR_TEXT.codesRenewed, { recovery_codes });
  });

  app.get('/api/user/sessions', async (c) => {
    const current = c.get('session').id;
    const rows = await s.repos.sessions.listForUser(c.get('user').id);
    const sessions = rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      last_used_at: r.last_used_at,
      client: r.client,
      ip: r.ip,
      current: r.id === current,
    }));
    return ok(c, SECURITY_TEXT.sessions, { sessions });
  });

  app.delete('/api/user/sessions', async (c) => {
    const { session_id } = await parseBody(c, sessionSchema);
    const mine = await s.repos.sessions.listForUser(c.get('user').id);
    // Only the caller's own sessions: another user's session id is "no such session".
    if (!mine.some((r) => r.id === session_id)) throw notFound(SECURITY_TEXT.noSession);
    await s.repos.sessions.delete(session_id);
    return ok(c, SECURITY_TEXT.signedOut);
  });

  app.post('/api/user/sessions/revoke-others', async (c) => {
    await s.repos.sessions.deleteForUser(c.get('user').id, c.get('session').id);
    return ok(c, SECURITY_TEXT.signedOutOthers);
  });

  app.get('/api/user/sign-ins', async (c) => {
    const rows = await s.repos.loginEvents.recent(c.get('user').id, 20);
    return ok(c, SECURITY_TEXT.signIns, { sign_ins: rows });
  });
}
