// Sharing an API with another account of this instance: invite, list, change, revoke, leave.

import type { Hono } from 'hono';
import { z } from 'zod';
import { SHARE_PERMISSION_LABELS, SHARE_PERMISSIONS } from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import { validateShare } from '../../../shared/validation';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import type { AppEnv } from '../env';
import { ApiError, badRequest, notFound, validationError } from '../errors';
import { idField, parseBody, parseQuery } from '../input';
import { ok } from '../respond';

const shareSchema = z.object({
  api_id: idField('api_id'),
  email: z.string({ error: API_MESSAGES.enterEmail }),
  permission: z.enum(SHARE_PERMISSIONS, { error: 'Permission must be read (View) or manage.' }),
});
const revokeSchema = z.object({ api_id: idField('api_id'), revoke_user_id: idField('revoke_user_id') });
const apiOnly = z.object({ api_id: idField('api_id') });

export const SHARE_MESSAGES = {
  noAccount: 'No account with this email exists on this server. Ask them to sign up first.',
  self: 'You cannot share an API with yourself.',
  shared: (email: string, permission: 'read' | 'manage') => `API shared with ${email} (${SHARE_PERMISSION_LABELS[permission]}).`,
  changed: (email: string, permission: 'read' | 'manage') =>
    `Access for ${email} changed to ${SHARE_PERMISSION_LABELS[permission]}.`,
  noShare: 'This user has no access to this API.',
  ownerCannotLeave: 'You own this API: delete it instead of leaving it.',
  listed: 'Shares loaded',
} as const;

export function registerShareRoutes(app: Hono<AppEnv>, s: Services): void {
  app.post('/api/apis/share', async (c) => {
    const me = c.get('user');
    const input = await parseBody(c, shareSchema);
    const errors = validateShare(input);
    if (errors.length) throw validationError(errors);
    const { api } = await requireApiAccess(s.repos, me.id, input.api_id, 'admin');
    const email = input.email.trim().toLowerCase();
    const invitee = await s.repos.users.findByEmail(email);
    if (!invitee) throw new ApiError(404, SHARE_MESSAGES.noAccount, [{ field: 'email', message: SHARE_MESSAGES.noAccount }]);
    if (invitee.id === me.id || invitee.id === api.owner_id) throw badRequest(SHARE_MESSAGES.self, 'email');
    const existing = await s.repos.shares.find(api.id, invitee.id);
    await s.repos.shares.upsert(api.id, invitee.id, input.permission, s.clock.now());
    const share = (await s.repos.shares.list(api.id)).find((x) => x.user_id === invitee.id)!;
    const message = existing ? SHARE_MESSAGES.changed(email, input.permission) : SHARE_MESSAGES.shared(email, input.permission);
    s.logger.info('API shared', { api: api.id, with: invitee.id, permission: input.permission });
    return ok(c, message, { share }, existing ? 200 : 201);
  });

  app.get('/api/apis/shares', async (c) => {
    const { api_id } = parseQuery(c, apiOnly);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, api_id, 'admin');
    return ok(c, SHARE_MESSAGES.listed, { shares: await s.repos.shares.list(api.id) });
  });

  app.delete('/api/apis/share', async (c) => {
    const input = await parseBody(c, revokeSchema);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'admin');
    if (!(await s.repos.shares.remove(api.id, input.revoke_user_id))) throw notFound(SHARE_MESSAGES.noShare);
    s.logger.info('Share revoked', { api: api.id, user: input.revoke_user_id });
    return ok(c, API_MESSAGES.accessRevoked);
  });

  app.delete('/api/apis/leave-share', async (c) => {
    const me = c.get('user');
    const input = await parseBody(c, apiOnly);
    const access = await s.repos.apis.access(me.id, input.api_id);
    if (access?.permission === 'owner') throw badRequest(SHARE_MESSAGES.ownerCannotLeave);
    const { api } = await requireApiAccess(s.repos, me.id, input.api_id, 'leave');
    await s.repos.shares.remove(api.id, me.id);
    return ok(c, API_MESSAGES.leftShare);
  });
}
