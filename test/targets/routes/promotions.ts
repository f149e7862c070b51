// Promo codes a customer may redeem once, crediting store credit. Redeeming asks the loyalty ledger
// first (a short wait, as a call to another service would be): the vulnerable route checks "already
// redeemed?" before that wait and records the redemption after it, so parallel requests all pass the
// check (race-promo-code). Hardened: the redemption is claimed before the wait, in one step.

import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';

/** Codes and the store credit each gives. */
export const PROMO_CODES: Record<string, number> = { WELCOME5: 5, SPRING10: 10 };
/** How long the loyalty ledger takes to answer. */
const LEDGER_MS = 40;

const redeemed = new WeakMap<TargetState, Set<string>>();

export function registerPromotions(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/promotions/redeem', async (ctx) => {
    const me = await ctx.user();
    const { code } = ctx.input<{ code: string }>(SCHEMAS.PromoRedeem);
    const credit = PROMO_CODES[code.toUpperCase()];
    if (!credit) throw new HttpError(404, 'not_found', 'This promo code does not exist.');
    let used = redeemed.get(t);
    if (!used) redeemed.set(t, (used = new Set()));
    const key = `${me.id}:${code.toUpperCase()}`;
    if (used.has(key)) throw new HttpError(409, 'already_redeemed', 'You have already used this promo code.');
    if (!t.has('race-promo-code')) used.add(key);
    await new Promise((resolve) => setTimeout(resolve, LEDGER_MS));
    used.add(key);
    t.db.prepare('UPDATE users SET credits = credits + ? WHERE id = ?').run(credit, me.id);
    const { credits } = t.db.prepare<[number], { credits: number }>('SELECT credits FROM users WHERE id = ?').get(me.id)!;
    return json(200, { redeemed: true, code: code.toUpperCase(), credit, credits });
  });
}
