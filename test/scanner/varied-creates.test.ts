// A create refused because the pair it names exists (one reservation per product): the out-of-range
// check's negative quantity meets the 409 the scan's own earlier create of the example product
// caused, and goes again with another product from the catalogue listing, the quantity kept.

import { afterEach, describe, expect, it } from 'vitest';
import { outOfRangeValues } from '../../electron/scanner/checks/api6-business-flows/out-of-range-values';
import { scanChecks } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type Target } from '../targets';
import { expectWellFormed, expectWithinBudget } from './check-harness';

const ROUTES = ['POST /reservations', 'GET /reservations/{reservationId}', 'GET /products'];

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function target(vulnerable: boolean): Promise<Target> {
  const t = await startTarget({ mode: 'hardened', flaws: vulnerable ? onlyFlaws('reservation-quantity') : {} });
  targets.push(t);
  return t;
}

describe('a create refused as a duplicate varies its other ids', () => {
  it('names another product when the example one is reserved, and finds the stored negative quantity', async () => {
    const t = await target(true);
    const s = await scanChecks(t, [outOfRangeValues], { only: ROUTES });
    const found = s.of(outOfRangeValues);
    expect(found.map((f) => `${f.method} ${f.path} ${f.parameter}`)).toEqual(['POST /reservations quantity']);
    expect(found[0]!.description).toMatch(/quantity = -1 \(the schema says minimum 1, maximum 5\) was accepted \(HTTP 201\); the follow-up read shows it stored/);
    // The duplicate was refused once, then another product went through with the same quantity.
    expect(t.requests.count({ method: 'POST', path: '/api/v2/reservations', status: 409 })).toBeGreaterThanOrEqual(1);
    expect(found[0]!.evidence).not.toContain('"productId":12,"quantity":-1');
    expectWellFormed(s, found);
    expectWithinBudget(s, [outOfRangeValues]);
  });

  it('is silent on the hardened twin, which refuses a quantity below 1', async () => {
    const t = await target(false);
    const s = await scanChecks(t, [outOfRangeValues], { only: ROUTES });
    expect(s.of(outOfRangeValues)).toEqual([]);
    expect(s.sent(outOfRangeValues)).toBeGreaterThan(0);
  });
});
