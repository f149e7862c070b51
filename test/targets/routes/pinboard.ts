// A shared pinboard and gift-card balances, written the way small apps write them: pins rendered
// into HTML by string concatenation, both in the listing's `format=html` view (a query parameter
// the route needs) and on a separate wall page (pinboard-html), and a card lookup whose unknown codes
// crash with the stack trace in the answer (lookup-traceback). Hardened: escaped, and a plain 404.

import { type Ctx, notFound, type TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';

interface Pin {
  id: number;
  ownerId: number;
  text: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export const GIFT_CARDS: Readonly<Record<string, number>> = { 'gc-7f3a-2b91': 25, 'gc-0c44-e1d8': 50 };

export function registerPinboard(r: Router<Ctx>, t: TargetState): void {
  const pins: Pin[] = [{ id: 1, ownerId: 0, text: 'Welcome to the Acme pinboard' }];
  const page = (ctx: Ctx, title: string) => {
    const field = (s: string) => (ctx.has('pinboard-html') ? s : escapeHtml(s));
    const items = pins.slice(-50).map((p) => `<li>${field(p.text)}</li>`).join('');
    return { status: 200, text: `<!doctype html><html><head><title>${title}</title></head><body><ul>${items}</ul></body></html>`, contentType: 'text/html; charset=utf-8' };
  };

  r.post('/api/v2/pins', async (ctx) => {
    const me = await ctx.user();
    const body = ctx.body() as { text?: unknown } | undefined;
    const text = body?.text;
    if (typeof text !== 'string' || !text || text.length > 500) throw new ValidationError([{ field: 'text', message: 'must be a string of 1 to 500 characters' }]);
    const pin = { id: pins.length + 1, ownerId: me.id, text };
    pins.push(pin);
    return json(201, pin);
  });

  r.get('/api/v2/pins', async (ctx) => {
    await ctx.user();
    if (ctx.enumQuery('format', ['json', 'html'] as const) === 'html') return page(ctx, 'Pins');
    return json(200, { items: pins.slice(-50) });
  });

  r.get('/api/v2/pinboard', async (ctx) => {
    await ctx.user();
    return page(ctx, 'Pinboard');
  });

  r.get('/api/v2/gift-cards/{code}', async (ctx) => {
    await ctx.user();
    const code = ctx.params.code ?? '';
    const balance = GIFT_CARDS[code];
    if (balance !== undefined) return json(200, { code, balance });
    if (!t.has('lookup-traceback')) throw notFound('Gift card');
    // The handler's own debugging aid: the exception's stack, line by line.
    const error = new TypeError(`Cannot read properties of undefined (reading 'balance') for card ${code}`);
    return json(500, (error.stack ?? '').split('\n'));
  });
}
