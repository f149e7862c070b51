// Store reviews kept in a document store and filtered with a server-side JavaScript expression built
// from the path id without quotes, "this.store == <id>" (nosql-where-number). The expression runs per
// document in a fresh context with no string code generation and a time limit: the flaw is the
// expression built from input, not an escape from the test process. Hardened: the id is an integer.

import vm from 'node:vm';
import type { Ctx, TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';

const REVIEWS = [
  { id: 1, store: 1, stars: 5, text: 'Friendly staff' },
  { id: 2, store: 1, stars: 4, text: 'Good coffee corner' },
  { id: 3, store: 2, stars: 3, text: 'Busy on Saturdays' },
  { id: 4, store: 3, stars: 5, text: 'Great returns desk' },
  { id: 5, store: 4, stars: 1, text: 'Staff only: inventory notes' },
];

function reviewsWhere(store: string): number[] {
  const context = vm.createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false } });
  (context as Record<string, unknown>).docsJson = JSON.stringify(REVIEWS);
  const code = `JSON.parse(docsJson).filter(function (d) { return (function () { return this.store == ${store}; }).call(d); }).map(function (d) { return d.id; }).join(',')`;
  const ids = String(vm.runInContext(code, context, { timeout: 1000 }));
  return ids ? ids.split(',').map(Number) : [];
}

export function registerStoreReviews(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/stores/{storeId}/reviews', (ctx) => {
    const raw = (ctx.params.storeId ?? '').slice(0, 60);
    let ids: number[];
    if (t.has('nosql-where-number')) {
      try {
        ids = reviewsWhere(raw);
      } catch {
        return json(400, { error: 'bad_request', message: 'Wrong parameters.' });
      }
    } else {
      if (!/^\d{1,9}$/.test(raw)) throw new ValidationError([{ field: 'storeId', message: 'must be an integer' }]);
      ids = REVIEWS.filter((x) => x.store === Number(raw)).map((x) => x.id);
    }
    return json(200, { items: REVIEWS.filter((x) => ids.includes(x.id)) });
  });
}
