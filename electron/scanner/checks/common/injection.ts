// What the injection checks share: which input points take a payload, in what order, and the
// reference answer a payload's answer is compared with.


import type { Exchange } from '../../http/exchange';
import type { CheckContext } from '../types';
import {
    AS_KEY1,
    isCreate,
    pointSource,
    type InjectionPoint,
    type PointSource,
} from './input-points';


export function scalar(p: InjectionPoint): boolean {
  return ['string', 'integer', 'number', 'unknown'].includes(p.type) && (typeof p.value === 'string' || typeof p.value === 'number');
}

export function numeric(p: InjectionPoint): boolean {
  return p.type === 'integer' || p.type === 'number' || (typeof p.value === 'string' && /^-?\d+(\.\d+)?$/.test(p.value));
}

/** Query and path parameters first (most often concatenated), then body fields. */
export function byPlace(a: InjectionPoint, b: InjectionPoint): number {
  const rank = (p: InjectionPoint) => (p.where === 'query' ? 0 : p.where === 'path' ? 1 : 2);
  return rank(a) - rank(b);
}

/** The unchanged request once more, as the reference for timing and comparison (timing: the faster of it and the baseline). */
export async function reference(ctx: CheckContext, src: PointSource): Promise<Exchange | null> {
  if (ctx.budgetLeft() <= 0) return null;
  const request = src.unchanged ? await src.unchanged() : isCreate(ctx.endpoint) ? ((await pointSource(ctx))?.request ?? null) : src.request;
  return request ? ctx.sendPrepared(request, AS_KEY1) : null;
}
