// Bulletins on the shop's notice board: any signed-in user posts one, anyone reads it, moderators remove
// them. The removal trusts a header its own description declares (X-Is-Moderator: true), as an app does
// that was fronted by a gateway which once set it (declared-privilege-header). Hardened: only an
// administrator's account removes a bulletin; the header is ignored.

import { isAdmin } from '../auth';
import { type Ctx, forbidden, notFound, type TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';

interface Bulletin {
  id: number;
  ownerId: number;
  text: string;
}

export function registerBulletins(r: Router<Ctx>, t: TargetState): void {
  const bulletins = new Map<number, Bulletin>();
  let next = 1;
  const find = (ctx: Ctx): Bulletin => {
    const b = bulletins.get(ctx.intParam('bulletinId'));
    if (!b) throw notFound('Bulletin');
    return b;
  };

  r.post('/api/v2/bulletins', async (ctx) => {
    const me = await ctx.user();
    const text = (ctx.body() as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || !text || text.length > 500) throw new ValidationError([{ field: 'text', message: 'must be a string of 1 to 500 characters' }]);
    const b = { id: next++, ownerId: me.id, text };
    bulletins.set(b.id, b);
    return json(201, b);
  });

  r.get('/api/v2/bulletins/{bulletinId}', (ctx) => json(200, find(ctx)));

  r.delete('/api/v2/bulletins/{bulletinId}', async (ctx) => {
    const me = await ctx.user();
    const b = find(ctx);
    const claimed = t.has('declared-privilege-header') && (ctx.header('x-is-moderator') ?? '').toLowerCase() === 'true';
    if (!claimed && !isAdmin(me)) throw forbidden('Moderators only.');
    bulletins.delete(b.id);
    return { status: 204 };
  });
}
