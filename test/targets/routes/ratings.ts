// Product ratings behind a CAPTCHA, written the way a small shop writes one: GET /api/v2/ratings/captcha
// makes an arithmetic question ("4 * 3 - 2") and keeps its answer by a numeric id; POST /api/v2/ratings
// takes {productId, rating, comment, captchaId, captcha} and refuses the rating unless `captcha` is the
// answer to challenge `captchaId`, each challenge answered once. GET /api/v2/ratings/{ratingId} reads the
// caller's own rating back. The vulnerable route stores any rating, 0 and negative ones included
// (captcha-rating-range); hardened: 400 for a rating outside 1..5, as the schema says, and a throttle.

import { randomInt } from 'node:crypto';
import type { Ctx, TargetState } from '../context';
import { HttpError, json, type Router } from '../http';
import { SCHEMAS } from '../schemas';

const MAX_PENDING = 500;

interface Rating {
  id: number;
  productId: number;
  rating: number;
  comment: string;
  userId: number;
}

/** The rating schema without the rating's range (captcha-rating-range). */
const RATING_ANY_VALUE = (() => {
  const s = structuredClone(SCHEMAS.RatingPost);
  delete s.properties!.rating!.minimum;
  delete s.properties!.rating!.maximum;
  return s;
})();

export function registerRatings(r: Router<Ctx>, t: TargetState): void {
  /** Pending challenges by id, oldest first (a bounded map: old ones drop off). */
  const pending = new Map<number, number>();
  const ratings = new Map<number, Rating>();
  let nextChallenge = 1;

  r.get('/api/v2/ratings/captcha', () => {
    const [a, b, c] = [randomInt(2, 10), randomInt(2, 10), randomInt(1, 10)];
    const captchaId = nextChallenge++;
    pending.set(captchaId, a * b - c);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
    return json(200, { captchaId, captcha: `${a} * ${b} - ${c}` });
  });

  r.post('/api/v2/ratings', async (ctx) => {
    const me = await ctx.user();
    // The hardened twin throttles this flow like its other ones (the vulnerable target leaves it open).
    ctx.throttle('captcha-rating-range', `rating:${me.id}`, 5, 60_000);
    const input = ctx.input<Omit<Rating, 'id' | 'userId'> & { captchaId: number; captcha: string }>(t.has('captcha-rating-range') ? RATING_ANY_VALUE : SCHEMAS.RatingPost);
    const expected = pending.get(input.captchaId);
    pending.delete(input.captchaId);
    if (expected === undefined || String(expected) !== input.captcha.trim()) throw new HttpError(400, 'wrong_captcha', 'Wrong answer to the CAPTCHA. Ask for a new one and try again.');
    const rating: Rating = { id: ratings.size + 1, productId: input.productId, rating: input.rating, comment: input.comment, userId: me.id };
    ratings.set(rating.id, rating);
    return json(201, rating);
  });

  r.get('/api/v2/ratings/{ratingId}', async (ctx) => {
    const me = await ctx.user();
    const rating = ratings.get(ctx.intParam('ratingId'));
    if (!rating || rating.userId !== me.id) throw new HttpError(404, 'not_found', 'Rating not found.');
    return json(200, rating);
  });
}
