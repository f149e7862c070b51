// Lookups built on input the way injectable apps build them: a category in a path segment put into
// SQL (sqli-path), coupon codes whose bracket keys become query operators (nosql-query), and a
// store filter run as a server-side JavaScript expression (nosql-where). Hardened: typed and exact.

import vm from 'node:vm';
import { type Ctx, notFound, type TargetState } from '../context';
import { CATEGORIES } from '../db';
import { json, type Router, ValidationError } from '../http';
import { matches } from '../legacy-store';
import { productView } from './shop';

/** The first coupon is the staff one: what an operator that matches anything returns. */
const COUPONS = [
  { code: 'STAFF-ONLY-50', percentOff: 50 },
  { code: 'WELCOME10', percentOff: 10 },
  { code: 'SPRING15', percentOff: 15 },
];

const STORES = [
  { id: 1, name: 'Acme Lyon Part-Dieu', city: 'Lyon', listed: true },
  { id: 2, name: 'Acme Paris Bastille', city: 'Paris', listed: true },
  { id: 3, name: 'Acme Lille Centre', city: 'Lille', listed: true },
  { id: 4, name: 'Returns warehouse (not public)', city: 'Roubaix', listed: false },
];

/** The coupon filter as qs-style parsers build it: code=x, or code[$op]=x as {code: {$op: x}}. */
function couponFilter(ctx: Ctx): Record<string, unknown> | null {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of ctx.query) {
    if (key === 'code') filter.code = value;
    const op = /^code\[(\$\w+)\]$/.exec(key)?.[1];
    if (op) filter.code = { ...((filter.code as object) ?? {}), [op]: op === '$in' || op === '$nin' ? [value] : value };
  }
  return 'code' in filter ? filter : null;
}

/**
 * "this.city == '<city>'" run for each store in a fresh context with no string code generation and
 * a time limit: the flaw is the expression built from input, not an escape from the test process.
 */
function storesWhere(city: string): number[] {
  const context = vm.createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false } });
  (context as Record<string, unknown>).docsJson = JSON.stringify(STORES);
  const code = `JSON.parse(docsJson).filter(function (d) { return (function () { return this.city == '${city}'; }).call(d); }).map(function (d) { return d.id; }).join(',')`;
  const ids = String(vm.runInContext(code, context, { timeout: 100 }));
  return ids ? ids.split(',').map(Number) : [];
}

export function registerLookup(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/categories/{category}/products', (ctx) => {
    const category = ctx.params.category ?? '';
    if (t.has('sqli-path')) {
      try {
        const rows = ctx.t.db.prepare(`SELECT * FROM products WHERE category = '${category}' ORDER BY id LIMIT 50`).all() as Record<string, unknown>[];
        return json(200, { items: rows.map(productView), total: rows.length, limit: 50, offset: 0 });
      } catch {
        return json(500, { error: 'internal_error', message: 'Something went wrong.' });
      }
    }
    if (!(CATEGORIES as readonly string[]).includes(category)) throw notFound('Category');
    const rows = ctx.t.db.prepare('SELECT * FROM products WHERE category = ? ORDER BY id LIMIT 50').all(category) as Record<string, unknown>[];
    return json(200, { items: rows.map(productView), total: rows.length, limit: 50, offset: 0 });
  });

  r.get('/api/v2/coupons/check', async (ctx) => {
    await ctx.user();
    const filter = t.has('nosql-query') ? couponFilter(ctx) : ctx.query.get('code') === null ? null : { code: ctx.query.get('code') };
    if (!filter) throw new ValidationError([{ field: 'code', message: 'is required' }]);
    if (typeof filter.code === 'string' && filter.code.length > 32) throw new ValidationError([{ field: 'code', message: 'must be at most 32 characters' }]);
    const coupon = COUPONS.find((c) => matches({ ...c }, filter));
    if (!coupon) throw notFound('Coupon');
    return json(200, coupon);
  });

  r.get('/api/v2/stores', (ctx) => {
    const city = ctx.query.get('city');
    if (!city) throw new ValidationError([{ field: 'city', message: 'is required' }]);
    if (city.length > 64) throw new ValidationError([{ field: 'city', message: 'must be at most 64 characters' }]);
    let ids: number[];
    if (t.has('nosql-where')) {
      try {
        ids = storesWhere(city);
      } catch {
        return json(500, { error: 'internal_error', message: 'Something went wrong.' });
      }
    } else {
      ids = STORES.filter((s) => s.listed && s.city === city).map((s) => s.id);
    }
    const items = STORES.filter((s) => ids.includes(s.id)).map(({ id, name, city: c }) => ({ id, name, city: c }));
    return json(200, { items });
  });
}
