// A check's create sent so that a duplicate does not decide it: where the API answers that the
// combination exists (another probe of the scan put the same product into the same basket), the
// create goes once more with its other id fields changed, the field under test and the caller's own
// parent kept (create-conflicts.ts holds the rule, the resource pool the ids and the turns).

import type { Exchange, KeyNumber } from '../../http/exchange';
import type { PreparedRequest } from '../../requests';
import type { CheckContext } from '../types';
import { asKey, isObj } from './objects';
import { ledgerIdsFor, ledgerOf } from './ownership';

/** Body fields that name the key's own object of that kind (its basket, as the ledger knows it): they stay on a retry. */
export function ownParentFields(ctx: CheckContext, request: PreparedRequest, key: KeyNumber): string[] {
  if (!isObj(request.bodyValue)) return [];
  const ledger = ledgerOf(ctx, key);
  const ep = request.endpoint ?? ctx.endpoint;
  return Object.entries(request.bodyValue)
    .filter(([f, v]) => ledgerIdsFor(ledger, ep, f).some((x) => x.value === String(v)))
    .map(([f]) => f);
}

/**
 * Sends a create as `key`; when the API answers that what it names exists already, sends it once more
 * with the other id fields changed (`keep` stays). `build` turns the request into what is sent (a body
 * with a field twice, say). The answer of the last request sent.
 */
export async function sendCreate(
  ctx: CheckContext,
  request: PreparedRequest,
  key: KeyNumber,
  keep: readonly string[],
  build: (r: PreparedRequest) => PreparedRequest = (r) => r,
): Promise<Exchange> {
  const first = await ctx.sendPrepared(build(request), asKey(key));
  const ep = request.endpoint;
  if (first.ok) {
    if (ep) ctx.resources.noteCreated(ep);
    return first;
  }
  if (ctx.budgetLeft() < 1) return first;
  const varied = await ctx.resources.variedCreate(request, first, key, keep);
  if (!varied || ctx.budgetLeft() < 1) return first;
  const second = await ctx.sendPrepared(build(varied), asKey(key));
  if (second.ok && ep) ctx.resources.noteCreated(ep);
  return second;
}
