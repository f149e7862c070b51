// Administration: the documented admin API (role-checked in the hardened twin) and the
// undocumented internal console that the admin-path-variants flaw leaves reachable.

import { isAdmin, type UserRow } from '../auth';
import { type Ctx, forbidden, notFound, type TargetState } from '../context';
import { json, type Router } from '../http';
import { SCHEMAS } from '../schemas';
import { money } from './account';
import { claimsInternalClient } from './views';

const adminUserView = (u: UserRow) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  role: u.role,
  isAdmin: isAdmin(u),
  verified: u.verified === 1,
  createdAt: u.created_at,
});

async function requireAdmin(ctx: Ctx): Promise<void> {
  if (claimsInternalClient(ctx)) return;
  const me = await ctx.user();
  if (!isAdmin(me) && !ctx.has('bfla-admin')) throw forbidden('Administrators only.');
}

const CONSOLE: Record<string, string> = {
  orders: 'SELECT id, owner_id, status, reference, total_cents, note, internal_notes, created_at FROM orders ORDER BY id',
  notes: 'SELECT id, owner_id, title, body, created_at, deleted_at FROM notes ORDER BY created_at',
  documents: 'SELECT id, owner_id, title, file_name, content FROM documents ORDER BY id',
  transfers: 'SELECT * FROM transfers ORDER BY id',
  payments: 'SELECT id, user_id, brand, holder, exp_month, exp_year, substr(card_number, -4) AS last4 FROM payment_methods ORDER BY id',
  products: 'SELECT id, name, category, price_cents, stock FROM products ORDER BY id LIMIT 100',
  users: 'SELECT id, username, email, role, is_admin, verified, balance_cents, last_login_ip, created_at FROM users ORDER BY id',
  customers: 'SELECT id, username, email, role, is_admin, verified, balance_cents, last_login_ip, created_at FROM users ORDER BY id',
};

export function registerAdmin(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/admin/users', async (ctx) => {
    await requireAdmin(ctx);
    return json(200, ctx.t.db.prepare<[], UserRow>('SELECT * FROM users ORDER BY id').all().map(adminUserView));
  });

  r.get('/api/v2/admin/stats', async (ctx) => {
    await requireAdmin(ctx);
    const n = (sql: string) => (ctx.t.db.prepare(sql).get() as { n: number }).n;
    return json(200, {
      users: n('SELECT COUNT(*) AS n FROM users'),
      orders: n('SELECT COUNT(*) AS n FROM orders'),
      revenue: money(n("SELECT COALESCE(SUM(total_cents), 0) AS n FROM orders WHERE status IN ('paid', 'shipped', 'delivered')")),
      products: n('SELECT COUNT(*) AS n FROM products'),
    });
  });

  r.patch('/api/v2/admin/users/{userId}', async (ctx) => {
    await requireAdmin(ctx);
    const id = ctx.intParam('userId');
    if (!ctx.t.auth.userById(id)) throw notFound('User');
    const input = ctx.input<{ role?: string; verified?: boolean }>(SCHEMAS.AdminUserUpdate);
    if (input.role !== undefined) ctx.t.db.prepare('UPDATE users SET role = ?, is_admin = ? WHERE id = ?').run(input.role, input.role === 'admin' ? 1 : 0, id);
    if (input.verified !== undefined) ctx.t.db.prepare('UPDATE users SET verified = ? WHERE id = ?').run(input.verified ? 1 : 0, id);
    return json(200, adminUserView(ctx.t.auth.userById(id)!));
  });

  // ---- the internal console: no auth at all, it trusted the network ----
  const on = { enabled: () => t.has('admin-path-variants'), rate: 'none' as const };
  const collection = (ctx: Ctx) => {
    const name = (ctx.params.collection ?? '').toLowerCase();
    const sql = CONSOLE[name];
    if (!sql) throw notFound('Collection');
    const rows = ctx.t.db.prepare(sql).all();
    return json(200, { collection: name, count: rows.length, rows });
  };
  const home = (ctx: Ctx) => {
    const n = (table: string) => (ctx.t.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const html = `<!doctype html><html><head><title>Acme Shop admin console</title></head><body>
<h1>Acme Shop admin console</h1>
<ul>
<li><a href="/admin/users">Users</a>: ${n('users')}</li>
<li><a href="/admin/orders">Orders</a>: ${n('orders')}</li>
<li><a href="/admin/notes">Notes</a>: ${n('notes')}</li>
<li><a href="/admin/documents">Documents</a>: ${n('documents')}</li>
<li><a href="/admin/transfers">Transfers</a>: ${n('transfers')}</li>
<li><a href="/admin/payments">Payments</a>: ${n('payment_methods')}</li>
</ul></body></html>`;
    return { status: 200, text: html, contentType: 'text/html; charset=utf-8' };
  };
  r.get('/admin', home, on);
  r.get('/admin/', home, on);
  r.get('/api/admin', home, on);
  r.get('/api/v2/admin', home, on);
  r.get('/admin/{collection}', collection, on);
  r.get('/admin/api/v2/{collection}', collection, on);
  r.get('/api/admin/{collection}', collection, on);
  r.get('/api/v2/admin/{collection}', collection, on);
  r.get('/api/v2/{collection}/admin', collection, on);
}
