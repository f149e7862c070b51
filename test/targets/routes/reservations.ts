// Product reservations: a user holds at most one reservation per product (a unique pair, answered 409
// when it exists), read back by id. reservation-quantity: the quantity's minimum is not enforced, so a
// negative or zero reservation is stored. A second probe of the same product meets the 409 first.

import { type Ctx, notFound, type TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';

interface Reservation {
  id: number;
  userId: number;
  productId: number;
  quantity: number;
}

/** The request schema without the quantity's minimum (reservation-quantity). */
const ANY_QUANTITY = (() => {
  const s = structuredClone(SCHEMAS.ReservationRequest);
  delete s.properties!.quantity!.minimum;
  return s;
})();

export function registerReservations(r: Router<Ctx>, t: TargetState): void {
  const held = new Map<number, Reservation>();
  let next = 1;
  const shown = (x: Reservation) => ({ id: x.id, productId: x.productId, quantity: x.quantity, status: 'held' });

  r.post('/api/v2/reservations', async (ctx) => {
    const me = await ctx.user();
    const input = ctx.input<{ productId: number; quantity: number }>(t.has('reservation-quantity') ? ANY_QUANTITY : SCHEMAS.ReservationRequest);
    if (!ctx.t.db.prepare('SELECT 1 FROM products WHERE id = ?').get(input.productId)) throw notFound('Product');
    if ([...held.values()].some((x) => x.userId === me.id && x.productId === input.productId)) {
      throw new HttpError(409, 'conflict', 'You already have a reservation for this product.');
    }
    const reservation = { id: next++, userId: me.id, productId: input.productId, quantity: input.quantity };
    held.set(reservation.id, reservation);
    return json(201, shown(reservation));
  });

  r.get('/api/v2/reservations/{reservationId}', async (ctx) => {
    const me = await ctx.user();
    const found = held.get(Number(ctx.params.reservationId));
    if (!found || found.userId !== me.id) throw notFound('Reservation');
    return json(200, shown(found));
  });
}
