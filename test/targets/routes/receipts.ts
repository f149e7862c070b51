// Order receipts addressed by an encoded id (base64 of the order id), and the administrators'
// demo reset: the routes of the encoded-id and destructive-route flaws.

import { isAdmin, type UserRow } from '../auth';
import { type Ctx, notFound } from '../context';
import { SEED } from '../db';
import { HttpError, json, type Router, ValidationError } from '../http';
import { money } from './account';
import type { OrderRow } from './shop';

/** The receipt id of an order: base64 of its number ("MTAwMQ==" is order 1001). */
export const receiptIdOf = (orderId: number) => Buffer.from(String(orderId)).toString('base64');

function orderIdOf(receiptId: string): number {
  const plain = Buffer.from(receiptId, 'base64').toString('latin1');
  if (!/^\d{1,15}$/.test(plain) || receiptIdOf(Number(plain)) !== receiptId) throw new ValidationError([{ field: 'receiptId', message: 'is not a receipt id' }]);
  return Number(plain);
}

export function registerReceipts(r: Router<Ctx>): void {
  r.get('/api/v2/receipts/{receiptId}', async (ctx) => {
    const me = await ctx.user();
    const id = orderIdOf(ctx.params.receiptId ?? '');
    const order = ctx.t.db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ? AND deleted = 0').get(id);
    if (!order) throw notFound('Receipt');
    if (order.owner_id !== me.id && !isAdmin(me) && !ctx.has('bola-encoded-id')) throw notFound('Receipt');
    const owner = ctx.t.auth.userById(order.owner_id)!;
    return json(200, {
      receiptId: receiptIdOf(order.id),
      orderId: order.id,
      customer: { name: owner.display_name, email: owner.email },
      items: JSON.parse(order.items_json) as unknown,
      total: money(order.total_cents),
      currency: order.currency,
      issuedAt: order.created_at,
    });
  });

  // Demo environments wipe what customers wrote; only administrators may (the flaw skips the check).
  r.get('/api/v2/maintenance/reset', async (ctx) => {
    if (!ctx.has('unauth-reset')) {
      const me: UserRow = await ctx.user();
      if (!isAdmin(me)) throw new HttpError(403, 'forbidden', 'Administrators only.');
    }
    const seeded = [...SEED.notes.alice, ...SEED.notes.bob];
    const removed = ctx.t.db.prepare(`DELETE FROM notes WHERE id NOT IN (${seeded.map(() => '?').join(', ')})`).run(...seeded).changes;
    return json(200, { message: 'Demo data reset.', notesDeleted: removed });
  });
}
