// The shop: products, search, reviews, votes, orders, invoices, checkout, payment methods, transfers.

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isAdmin, type UserRow } from '../auth';
import { type Ctx, notFound, type TargetState } from '../context';
import { CATEGORIES, ORDER_STATUSES, orderReference, SqlError } from '../db';
import { HttpError, json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';
import { money } from './account';

type Row = Record<string, unknown>;

interface ProductRow {
  id: number;
  name: string;
  description: string;
  category: string;
  price_cents: number;
  stock: number;
  votes_up: number;
  votes_down: number;
}

export interface OrderRow {
  id: number;
  owner_id: number;
  status: string;
  reference: string;
  items_json: string;
  total_cents: number;
  currency: string;
  shipping_address_id: number | null;
  note: string | null;
  internal_notes: string | null;
  fraud_score: number | null;
  supplier_cost_cents: number | null;
  warehouse_id: string | null;
  created_at: string;
  paid_at: string | null;
  deleted: number;
}

export function productView(p: ProductRow | Row): Row {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    category: p.category,
    price: money(Number(p.price_cents)),
    stock: p.stock,
    votes: { up: p.votes_up, down: p.votes_down },
  };
}

export function orderView(o: OrderRow, ctx: Ctx): Row {
  const v: Row = {
    id: o.id,
    reference: o.reference,
    ownerId: o.owner_id,
    status: o.status,
    items: JSON.parse(o.items_json) as unknown,
    total: money(o.total_cents),
    currency: o.currency,
    shippingAddressId: o.shipping_address_id,
    note: o.note ?? '',
    createdAt: o.created_at,
    paidAt: o.paid_at,
  };
  if (ctx.has('exposure-undeclared')) {
    v.internal_notes = o.internal_notes;
    v.fraud_score = o.fraud_score;
    v.supplier_cost = o.supplier_cost_cents === null ? null : money(o.supplier_cost_cents);
    v.warehouse_id = o.warehouse_id;
  }
  return v;
}

/** Wagner-Fischer edit distance: O(a x b), which is the point for an oversized query. */
function editDistance(a: string, b: string, rowA: Uint32Array, rowB: Uint32Array): number {
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = del < ins ? (del < sub ? del : sub) : ins < sub ? ins : sub;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length]!;
}

function orderItems(ctx: Ctx, items: { productId: number; quantity: number }[]) {
  const get = ctx.t.db.prepare<[number], ProductRow>('SELECT * FROM products WHERE id = ?');
  const errors: { field: string; message: string }[] = [];
  const lines = items.map((it, i) => {
    const p = get.get(it.productId);
    if (!p) errors.push({ field: `items[${i}].productId`, message: 'is not a known product' });
    return { productId: it.productId, name: p?.name ?? '', quantity: it.quantity, unitPrice: money(p?.price_cents ?? 0) };
  });
  if (errors.length) throw new ValidationError(errors);
  const total = lines.reduce((s, l) => s + Math.round(l.unitPrice * 100) * l.quantity, 0);
  return { lines, total };
}

function ownAddress(ctx: Ctx, me: UserRow, id: unknown): number | null {
  if (id === undefined || id === null) {
    const first = ctx.t.db.prepare<[number], { id: number }>('SELECT id FROM addresses WHERE user_id = ? ORDER BY id').get(me.id);
    return first?.id ?? null;
  }
  const row = ctx.t.db.prepare('SELECT 1 FROM addresses WHERE id = ? AND user_id = ?').get(id, me.id);
  if (!row) throw new ValidationError([{ field: 'shippingAddressId', message: 'is not one of your addresses' }]);
  return Number(id);
}

/** The order schema without the item quantity's minimum (negative-quantity). */
const ORDER_ANY_QUANTITY = (() => {
  const s = structuredClone(SCHEMAS.Order);
  delete s.properties!.items!.items!.properties!.quantity!.minimum;
  return s;
})();

function getOrder(ctx: Ctx, id: number): OrderRow | undefined {
  return ctx.t.db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ? AND deleted = 0').get(id);
}


export function registerShop(r: Router<Ctx>, t: TargetState): void {
  // ---- catalogue (public) ----
  r.get('/api/v2/products', async (ctx) => {
    const limit = ctx.intQuery('limit', { def: 20, min: 1, max: 100, unboundedBy: 'page-size-unbounded' });
    const offset = ctx.intQuery('offset', { def: 0, min: 0 });
    let rows: Row[];
    let total: number;
    if (ctx.has('sqli-error')) {
      const category = ctx.query.get('category');
      const where = category ? ` WHERE category = '${category}'` : '';
      try {
        rows = await ctx.t.unsafe.query(`SELECT *, COUNT(*) OVER () AS total FROM products${where} ORDER BY id LIMIT ${limit} OFFSET ${offset}`);
      } catch (e) {
        if (e instanceof SqlError) return json(500, { error: 'database_error', message: `${e.failure.code ?? 'SQLITE_ERROR'}: ${e.message}` });
        throw e;
      }
      total = rows.length ? Number(rows[0]!.total) : 0;
    } else {
      const category = ctx.enumQuery('category', CATEGORIES) ?? null;
      rows = ctx.t.db.prepare('SELECT * FROM products WHERE @category IS NULL OR category = @category ORDER BY id LIMIT @limit OFFSET @offset').all({ category, limit, offset }) as Row[];
      total = (ctx.t.db.prepare('SELECT COUNT(*) AS n FROM products WHERE @category IS NULL OR category = @category').get({ category }) as { n: number }).n;
    }
    return json(200, { items: rows.map(productView), total, limit, offset });
  });

  r.get('/api/v2/products/search', async (ctx) => {
    const q = ctx.query.get('q') ?? '';
    if (q.trim().length < 1) throw new ValidationError([{ field: 'q', message: 'is required' }]);
    if (q.length > 100 && !ctx.has('slow-oversize')) throw new ValidationError([{ field: 'q', message: 'must be at most 100 characters' }]);
    const needle = q.slice(0, 2500).toLowerCase();
    const products = ctx.t.db.prepare<[], ProductRow>('SELECT * FROM products ORDER BY id').all();
    const prev = new Uint32Array(121);
    const cur = new Uint32Array(121);
    const scored: { p: ProductRow; score: number }[] = [];
    for (let i = 0; i < products.length; i++) {
      const p = products[i]!;
      const hay = `${p.name} ${p.description}`.toLowerCase().slice(0, 120);
      const exact = hay.includes(needle) ? 1 : 0;
      const d = editDistance(needle, hay, prev, cur);
      const score = exact || Math.max(0, 1 - d / Math.max(hay.length, needle.length));
      scored.push({ p, score: Math.round(score * 1000) / 1000 });
      // Fuzzy matching is CPU work; yield so other requests are not held up behind it.
      if (i % 20 === 19) await yieldToLoop();
    }
    scored.sort((a, b) => b.score - a.score || a.p.id - b.p.id);
    return json(200, {
      query: q.slice(0, 100),
      items: scored.slice(0, 10).map(({ p, score }) => ({ id: p.id, name: p.name, category: p.category, price: money(p.price_cents), score })),
    });
  });

  r.get('/api/v2/products/{productId}', (ctx) => {
    const id = ctx.intParam('productId');
    const p = ctx.t.db.prepare<[number], ProductRow>('SELECT * FROM products WHERE id = ?').get(id);
    if (!p) {
      if (ctx.has('undeclared-status')) return { status: 204 };
      throw notFound('Product');
    }
    return json(200, productView(p));
  });

  r.get('/api/v2/products/{productId}/reviews', async (ctx) => {
    const pageSize = ctx.intQuery('page_size', { def: 10, min: 1, max: 50, unboundedBy: 'page-size-unbounded' });
    const page = ctx.intQuery('page', { def: 1, min: 1 });
    const offset = (page - 1) * pageSize;
    const select = 'SELECT r.id, r.product_id, r.rating, r.comment, r.created_at, u.username AS author';
    let rows: Row[];
    let total: number;
    if (ctx.has('sqli-time')) {
      const pid = ctx.params.productId;
      try {
        rows = await ctx.t.unsafe.query(
          `${select}, COUNT(*) OVER () AS total FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.product_id = ${pid} ORDER BY r.id LIMIT ${pageSize} OFFSET ${offset}`,
        );
      } catch {
        rows = []; // errors are swallowed: blind
      }
      total = rows.length ? Number(rows[0]!.total) : 0;
    } else {
      const pid = ctx.intParam('productId');
      if (!ctx.t.db.prepare('SELECT 1 FROM products WHERE id = ?').get(pid)) throw notFound('Product');
      rows = ctx.t.db.prepare(`${select} FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.product_id = ? ORDER BY r.id LIMIT ? OFFSET ?`).all(pid, pageSize, offset) as Row[];
      total = (ctx.t.db.prepare('SELECT COUNT(*) AS n FROM reviews WHERE product_id = ?').get(pid) as { n: number }).n;
    }
    const items = rows.map((x) => ({ id: x.id, productId: x.product_id, rating: x.rating, comment: x.comment, author: x.author, createdAt: x.created_at }));
    return json(200, { items, total, page, pageSize });
  });

  r.post('/api/v2/products/{productId}/reviews', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-comment', `comment:${me.id}`, 5, 60_000);
    const pid = ctx.intParam('productId');
    if (!ctx.t.db.prepare('SELECT 1 FROM products WHERE id = ?').get(pid)) throw notFound('Product');
    const input = ctx.input<{ rating: number; comment: string }>(SCHEMAS.Review);
    const createdAt = new Date().toISOString();
    const id = Number(ctx.t.db.prepare('INSERT INTO reviews (product_id, user_id, rating, comment, created_at) VALUES (?, ?, ?, ?, ?)').run(pid, me.id, input.rating, input.comment, createdAt).lastInsertRowid);
    return json(201, { id, productId: pid, rating: input.rating, comment: input.comment, author: me.username, createdAt }, { location: `/api/v2/products/${pid}/reviews` });
  });

  r.post('/api/v2/products/{productId}/votes', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-vote', `vote:${me.id}`, 5, 60_000);
    const pid = ctx.intParam('productId');
    if (!ctx.t.db.prepare('SELECT 1 FROM products WHERE id = ?').get(pid)) throw notFound('Product');
    const input = ctx.input<{ direction: 'up' | 'down' }>(SCHEMAS.VoteRequest);
    ctx.t.db.prepare('INSERT INTO votes (product_id, user_id, direction, created_at) VALUES (?, ?, ?, ?)').run(pid, me.id, input.direction, new Date().toISOString());
    ctx.t.db.prepare(`UPDATE products SET ${input.direction === 'up' ? 'votes_up = votes_up + 1' : 'votes_down = votes_down + 1'} WHERE id = ?`).run(pid);
    const p = ctx.t.db.prepare<[number], ProductRow>('SELECT * FROM products WHERE id = ?').get(pid)!;
    return json(200, { productId: pid, votes: { up: p.votes_up, down: p.votes_down } });
  });

  // ---- orders ----
  r.get('/api/v2/orders', async (ctx) => {
    const me = await ctx.user();
    const pageSize = ctx.intQuery('page_size', { def: 20, min: 1, max: 50, unboundedBy: 'page-size-unbounded' });
    const page = ctx.intQuery('page', { def: 1, min: 1 });
    const offset = (page - 1) * pageSize;
    let rows: Row[];
    if (ctx.has('sqli-time')) {
      const status = ctx.query.get('status');
      const where = `owner_id = ${me.id} AND deleted = 0${status !== null ? ` AND status = '${status}'` : ''}`;
      try {
        rows = await ctx.t.unsafe.query(`SELECT *, COUNT(*) OVER () AS total FROM orders WHERE ${where} ORDER BY id LIMIT ${pageSize} OFFSET ${offset}`);
      } catch {
        rows = [];
      }
    } else {
      const status = ctx.enumQuery('status', ORDER_STATUSES) ?? null;
      rows = ctx.t.db
        .prepare('SELECT *, COUNT(*) OVER () AS total FROM orders WHERE owner_id = @owner AND deleted = 0 AND (@status IS NULL OR status = @status) ORDER BY id LIMIT @limit OFFSET @offset')
        .all({ owner: me.id, status, limit: pageSize, offset }) as Row[];
    }
    const total = rows.length ? Number(rows[0]!.total) : 0;
    return json(200, { items: rows.map((o) => orderView(o as unknown as OrderRow, ctx)), total, page, pageSize });
  });

  r.post('/api/v2/orders', async (ctx) => {
    const me = await ctx.user();
    // Placing an order is a purchase flow too.
    ctx.throttle('flow-checkout', `order:${me.id}`, 5, 60_000);
    const flawed = ctx.has('mass-assign-readonly');
    const schema = ctx.has('negative-quantity') ? ORDER_ANY_QUANTITY : SCHEMAS.Order;
    const input = ctx.input<Row & { items: { productId: number; quantity: number }[] }>(schema, { rejectUnknown: !flawed, dropReadOnly: !flawed });
    const { lines, total } = orderItems(ctx, input.items);
    const addressId = ownAddress(ctx, me, input.shippingAddressId);
    let status = 'pending';
    let totalCents = total;
    let owner = me.id;
    let createdAt = new Date().toISOString();
    if (flawed) {
      // The model is filled from the whole body, readOnly properties included.
      if (typeof input.status === 'string') status = input.status;
      if (input.total !== undefined) totalCents = Math.round(Number(input.total) * 100);
      const ownerIn = input.ownerId ?? input.owner_id;
      if (ownerIn !== undefined && Number.isSafeInteger(Number(ownerIn))) owner = Number(ownerIn);
      if (typeof input.createdAt === 'string') createdAt = input.createdAt;
    }
    const id = Number(
      ctx.t.db
        .prepare('INSERT INTO orders (owner_id, status, reference, items_json, total_cents, shipping_address_id, note, created_at, paid_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(owner, status, 'pending', JSON.stringify(lines), totalCents, addressId, (input.note as string | undefined) ?? '', createdAt, status === 'paid' ? createdAt : null).lastInsertRowid,
    );
    ctx.t.db.prepare('UPDATE orders SET reference = ? WHERE id = ?').run(orderReference(id), id);
    return json(201, orderView(getOrder(ctx, id)!, ctx), { location: `/api/v2/orders/${id}` });
  });

  r.get('/api/v2/orders/{orderId}', async (ctx) => {
    const caller = await ctx.objectCaller();
    const order = getOrder(ctx, ctx.intParam('orderId'));
    if (!order) throw notFound('Order');
    if (caller && order.owner_id !== caller.id && !isAdmin(caller) && !ctx.has('bola-path')) throw notFound('Order');
    return json(200, orderView(order, ctx));
  });

  // Undeclared methods of the generic resource controller (method-swap).
  const editOrder = async (ctx: Ctx) => {
    const me = await ctx.user();
    const order = getOrder(ctx, ctx.intParam('orderId'));
    if (!order || order.owner_id !== me.id) throw notFound('Order');
    const body = (ctx.body() ?? {}) as Row;
    const status = typeof body.status === 'string' ? body.status : order.status;
    const totalCents = body.total !== undefined ? Math.round(Number(body.total) * 100) : order.total_cents;
    const note = typeof body.note === 'string' ? body.note : order.note;
    ctx.t.db.prepare('UPDATE orders SET status = ?, total_cents = ?, note = ? WHERE id = ?').run(status, totalCents, note, order.id);
    return json(200, orderView(getOrder(ctx, order.id)!, ctx));
  };
  const swap = { enabled: () => t.has('method-swap') };
  r.put('/api/v2/orders/{orderId}', editOrder, swap);
  r.patch('/api/v2/orders/{orderId}', editOrder, swap);
  r.delete(
    '/api/v2/orders/{orderId}',
    async (ctx) => {
      const me = await ctx.user();
      const order = getOrder(ctx, ctx.intParam('orderId'));
      if (!order || order.owner_id !== me.id) throw notFound('Order');
      ctx.t.db.prepare('UPDATE orders SET deleted = 1 WHERE id = ?').run(order.id);
      return { status: 204 };
    },
    swap,
  );

  r.post('/api/v2/invoices/lookup', async (ctx) => {
    const caller = await ctx.objectCaller();
    const { orderId } = ctx.input<{ orderId: number }>(SCHEMAS.InvoiceLookup);
    const order = getOrder(ctx, orderId);
    if (!order) throw notFound('Invoice');
    if (caller && order.owner_id !== caller.id && !isAdmin(caller) && !ctx.has('bola-body')) throw notFound('Invoice');
    const owner = ctx.t.auth.userById(order.owner_id);
    const addr = ctx.t.db.prepare('SELECT line1, city, postcode, country FROM addresses WHERE id = ?').get(order.shipping_address_id ?? -1) as Row | undefined;
    return json(200, {
      invoiceNumber: `INV-2026-${order.id}`,
      orderId: order.id,
      billingName: owner?.display_name ?? '',
      billingEmail: owner?.email ?? '',
      billingAddress: addr ?? { line1: '', city: '', postcode: '', country: '' },
      vatId: owner?.vat_id ?? null,
      total: money(order.total_cents),
      currency: order.currency,
      issuedAt: order.paid_at ?? order.created_at,
    });
  });

  // ---- payments ----
  r.post('/api/v2/checkout', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-checkout', `checkout:${me.id}`, 5, 60_000);
    const input = ctx.input<{ items: { productId: number; quantity: number }[]; paymentMethodId: string }>(SCHEMAS.CheckoutRequest);
    if (!ctx.t.db.prepare('SELECT 1 FROM payment_methods WHERE id = ? AND user_id = ?').get(input.paymentMethodId, me.id)) {
      throw new ValidationError([{ field: 'paymentMethodId', message: 'is not one of your payment methods' }]);
    }
    const { lines, total } = orderItems(ctx, input.items);
    const now = new Date().toISOString();
    const id = Number(
      ctx.t.db
        .prepare("INSERT INTO orders (owner_id, status, reference, items_json, total_cents, shipping_address_id, note, created_at, paid_at) VALUES (?, 'paid', 'pending', ?, ?, ?, '', ?, ?)")
        .run(me.id, JSON.stringify(lines), total, ownAddress(ctx, me, undefined), now, now).lastInsertRowid,
    );
    ctx.t.db.prepare('UPDATE orders SET reference = ? WHERE id = ?').run(orderReference(id), id);
    return json(201, { orderId: id, status: 'paid', total: money(total), currency: 'GBP', receiptNumber: `RCPT-${id}` }, { location: `/api/v2/orders/${id}` });
  });

  r.get('/api/v2/payment-methods', async (ctx) => {
    const me = await ctx.user();
    const rows = ctx.t.db.prepare('SELECT * FROM payment_methods WHERE user_id = ? ORDER BY id').all(me.id) as Row[];
    return json(
      200,
      rows.map((p) => ({
        id: p.id,
        brand: p.brand,
        last4: String(p.card_number).slice(-4),
        expMonth: p.exp_month,
        expYear: p.exp_year,
        holder: p.holder,
        ...(ctx.has('exposure-card-number') ? { cardNumber: p.card_number, cvc: p.cvc } : {}),
      })),
    );
  });

  const transferView = (x: Row) => ({ id: x.id, from: x.from_name, to: x.to_name, amount: money(Number(x.amount_cents)), memo: x.memo, createdAt: x.created_at });
  const transferSelect =
    'SELECT t.*, f.username AS from_name, r.username AS to_name FROM transfers t JOIN users f ON f.id = t.from_user_id JOIN users r ON r.id = t.to_user_id';

  r.get('/api/v2/transfers', async (ctx) => {
    const me = await ctx.user();
    const rows = ctx.t.db.prepare(`${transferSelect} WHERE t.from_user_id = @me OR t.to_user_id = @me ORDER BY t.id DESC LIMIT 50`).all({ me: me.id }) as Row[];
    return json(200, rows.map(transferView));
  });

  r.post('/api/v2/transfers', async (ctx) => {
    const me = await ctx.user();
    ctx.throttle('flow-transfer', `transfer:${me.id}`, 5, 60_000);
    const input = ctx.input<{ to: string; amount: number; memo?: string }>(SCHEMAS.Transfer);
    const to = ctx.t.db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(username) = lower(?)').get(input.to);
    if (!to) throw new HttpError(422, 'unknown_recipient', 'There is no customer with that username.');
    if (to.id === me.id) throw new HttpError(422, 'invalid_recipient', 'You cannot send money to yourself.');
    const amount = Math.round(input.amount * 100);
    const fresh = ctx.t.auth.userById(me.id)!;
    if (amount > fresh.balance_cents) throw new HttpError(422, 'insufficient_funds', 'Your balance is too low for this transfer.');
    const id = ctx.t.db.transaction(() => {
      ctx.t.db.prepare('UPDATE users SET balance_cents = balance_cents - ? WHERE id = ?').run(amount, me.id);
      ctx.t.db.prepare('UPDATE users SET balance_cents = balance_cents + ? WHERE id = ?').run(amount, to.id);
      return Number(
        ctx.t.db.prepare('INSERT INTO transfers (from_user_id, to_user_id, amount_cents, memo, created_at) VALUES (?, ?, ?, ?, ?)').run(me.id, to.id, amount, input.memo ?? '', new Date().toISOString()).lastInsertRowid,
      );
    })();
    return json(201, transferView(ctx.t.db.prepare(`${transferSelect} WHERE t.id = ?`).get(id) as Row), { location: `/api/v2/transfers` });
  });
}
