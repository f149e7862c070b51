// Shopper tips on a store, kept in a document store: a tip is written with PUT on the store's tips
// (the answer says only that it worked), listed with its generated _id (not its author: another
// shopper's e-mail would be an exposure of its own), and edited with PATCH /stores/tips {id, text}, the
// tip named in the body. bola-body-id-update: the edit
// does not check that the tip is the caller's.

import crypto from 'node:crypto';
import { type Ctx, notFound, type TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';

interface Tip {
  _id: string;
  storeId: number;
  author: string;
  text: string;
}

const STORES = new Set([1, 2, 3, 4]);

export function registerStoreTips(r: Router<Ctx>, t: TargetState): void {
  const tips = new Map<string, Tip>();
  for (const [storeId, author, text] of [
    [1, 'carol@acme.test', 'Parking is free after six.'],
    [2, 'dave@acme.test', 'Ask for the loyalty stamp card.'],
  ] as const) {
    const _id = crypto.randomBytes(12).toString('hex');
    tips.set(_id, { _id, storeId, author, text });
  }
  const store = (raw: string | undefined) => {
    if (!/^\d{1,9}$/.test(raw ?? '')) throw new ValidationError([{ field: 'storeId', message: 'must be an integer' }]);
    if (!STORES.has(Number(raw))) throw notFound('Store');
    return Number(raw);
  };

  r.get('/api/v2/stores/{storeId}/tips', (ctx) => {
    const storeId = store(ctx.params.storeId);
    return json(200, { status: 'success', data: [...tips.values()].filter((x) => x.storeId === storeId).map(({ _id, text }) => ({ _id, storeId, text })) });
  });

  r.put('/api/v2/stores/{storeId}/tips', async (ctx) => {
    const me = await ctx.user();
    const storeId = store(ctx.params.storeId);
    const input = ctx.input<{ text: string }>(SCHEMAS.TipRequest);
    const _id = crypto.randomBytes(12).toString('hex');
    tips.set(_id, { _id, storeId, author: me.email, text: input.text });
    return json(201, { status: 'success' });
  });

  r.patch('/api/v2/stores/tips', async (ctx) => {
    const me = await ctx.user();
    const input = ctx.input<{ id: string; text: string }>(SCHEMAS.TipEdit);
    const tip = tips.get(input.id);
    if (!tip || (tip.author !== me.email && !t.has('bola-body-id-update'))) throw notFound('Tip');
    tip.text = input.text;
    return json(200, { status: 'success', data: { _id: tip._id, storeId: tip.storeId, text: tip.text } });
  });
}
