// The member directory: every account of the shop, listed to any signed-in user. With user-directory on
// it carries each member's e-mail address and phone number, as an app does that reused its admin
// serializer; hardened, the directory shows display names only.

import type { UserRow } from '../auth';
import type { Ctx, TargetState } from '../context';
import { json, type Router } from '../http';

export function registerMembers(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/members', async (ctx) => {
    await ctx.user();
    const rows = ctx.t.db.prepare<[], UserRow>('SELECT * FROM users ORDER BY id').all();
    const full = t.has('user-directory');
    return json(200, { items: rows.map((u) => (full ? { id: u.id, username: u.username, displayName: u.display_name, email: u.email, phone: u.phone } : { id: u.id, username: u.username, displayName: u.display_name })) });
  });
}
