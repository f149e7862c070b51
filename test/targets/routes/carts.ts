// Saved carts: one per user, addressed by a small integer id the login answer hands out (`cartId`),
// owned through a short numeric `UserId`: the routes of the owner-id and parent-id flaws. Nothing in
// a cart names its owner but that number, and cart ids collide with user ids on purpose.

import { isAdmin } from '../auth';
import { type Ctx, notFound, type TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';

interface Cart {
  id: number;
  userId: number;
  items: { sku: string; quantity: number }[];
}

/** The seeded users' carts (user id -> cart): alice (2) has cart 1, bob (3) cart 2, so bob's cart id is alice's user id. */
const SEEDED: Record<number, Omit<Cart, 'userId'>> = {
  1: { id: 4, items: [{ sku: 'ADM-001', quantity: 1 }] },
  2: { id: 1, items: [{ sku: 'KIT-204', quantity: 2 }, { sku: 'MUG-011', quantity: 1 }] },
  3: { id: 2, items: [{ sku: 'TEE-090', quantity: 3 }, { sku: 'CAP-017', quantity: 1 }] },
  4: { id: 3, items: [] },
};

/** The cart id of a user: seeded ones as above, users who signed up later get 100 + their id. */
export function cartIdOf(userId: number): number {
  return SEEDED[userId]?.id ?? 100 + userId;
}

function cartById(id: number): Cart | null {
  for (const [userId, cart] of Object.entries(SEEDED)) if (cart.id === id) return { ...cart, userId: Number(userId) };
  return id > 100 ? { id, userId: id - 100, items: [] } : null;
}

export function registerCarts(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/carts/{cartId}', async (ctx) => {
    const me = await ctx.user();
    const raw = ctx.params.cartId ?? '';
    if (!/^\d{1,9}$/.test(raw)) throw new ValidationError([{ field: 'cartId', message: 'must be a number' }]);
    const cart = cartById(Number(raw));
    if (!cart || !t.auth.userById(cart.userId)) throw notFound('Cart');
    if (cart.userId !== me.id && !isAdmin(me) && !ctx.has('bola-owner-id')) throw notFound('Cart');
    return json(200, { id: cart.id, UserId: cart.userId, items: cart.items, coupon: null, currency: 'EUR' });
  });
}

/** The first value of a top-level key in a raw JSON object text (what a hand-written pre-check reads). */
function firstValueIn(raw: string, key: string): unknown {
  const m = new RegExp(`"${key}"\\s*:\\s*(-?\\d+|"[^"]*")`).exec(raw);
  return m ? (JSON.parse(m[1]!) as unknown) : undefined;
}

let nextItem = 1;

export function registerCartItems(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/cart-items', async (ctx) => {
    const me = await ctx.user();
    // The hardened twin throttles this flow like its other ones (the vulnerable target leaves it open).
    ctx.throttle('bola-parent-id', `cart-items:${me.id}`, 5, 60_000);
    const input = ctx.input<{ cartId: number; sku: string; quantity: number }>(SCHEMAS.CartItemRequest);
    // bola-parent-id: the ownership check reads the first cartId of the raw body, the store the parsed (last) one.
    const checked = ctx.has('bola-parent-id') ? Number(firstValueIn(ctx.rawBody.toString('utf8'), 'cartId')) : input.cartId;
    const mine = cartIdOf(me.id);
    if (checked !== mine && !isAdmin(me)) throw notFound('Cart');
    const cart = cartById(input.cartId);
    if (!cart || !t.auth.userById(cart.userId)) throw notFound('Cart');
    return json(201, { id: nextItem++, cartId: cart.id, sku: input.sku, quantity: input.quantity });
  });
}
