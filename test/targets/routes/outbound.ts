// Features that talk to other systems: link previews (server-side fetch), the outbound link
// redirector, and the payment provider's webhook receiver.

import crypto from 'node:crypto';
import type { Ctx } from '../context';
import { FetchFailed, FetchRefused } from '../fetcher';
import { HttpError, json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';

export const SHOP_ORIGIN = 'https://shop.acme.example';

function decodeEntities(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

export function registerOutbound(r: Router<Ctx>): void {
  r.post('/api/v2/link-preview', async (ctx) => {
    await ctx.user();
    const { url } = ctx.input<{ url: string }>(SCHEMAS.LinkPreviewRequest);
    let res;
    try {
      res = await ctx.t.fetcher.fetch(url, 'link-preview');
    } catch (e) {
      if (e instanceof FetchRefused) throw new HttpError(400, 'url_not_allowed', e.message);
      if (e instanceof FetchFailed) throw new HttpError(502, 'fetch_failed', `The URL could not be fetched: ${e.message}`);
      throw e;
    }
    const text = res.body.toString('utf8');
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.trim();
    const description = /<meta\s+name=["']description["']\s+content=["']([^"']*)["']/i.exec(text)?.[1];
    return json(200, {
      url,
      finalUrl: res.finalUrl,
      status: res.status,
      contentType: res.contentType,
      title: title ? decodeEntities(title) : null,
      description: description ? decodeEntities(description) : null,
      snippet: text.slice(0, 2000),
    });
  });

  // Saves a copy of a page; the copy comes back base64-encoded (the ssrf-encoded flaw fetches internal addresses too).
  r.post('/api/v2/link-archive', async (ctx) => {
    await ctx.user();
    const { url } = ctx.input<{ url: string }>(SCHEMAS.LinkPreviewRequest);
    let res;
    try {
      res = await ctx.t.fetcher.fetch(url, 'link-archive', { internal: ctx.has('ssrf-encoded') });
    } catch (e) {
      if (e instanceof FetchRefused) throw new HttpError(400, 'url_not_allowed', e.message);
      if (e instanceof FetchFailed) throw new HttpError(502, 'fetch_failed', `The URL could not be fetched: ${e.message}`);
      throw e;
    }
    return json(200, { url, status: res.status, contentType: res.contentType, content: res.body.toString('base64') });
  });

  r.get('/api/v2/links/out', (ctx) => {
    const target = ctx.query.get('url');
    if (!target) throw new ValidationError([{ field: 'url', message: 'is required' }]);
    if (ctx.has('open-redirect')) return { status: 302, headers: { location: target } };
    const relative = target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
    let sameSite = false;
    if (!relative) {
      try {
        sameSite = new URL(target).origin === SHOP_ORIGIN;
      } catch {
        sameSite = false;
      }
    }
    if (!relative && !sameSite) throw new HttpError(400, 'invalid_redirect', 'Links may only point to the shop.');
    return { status: 302, headers: { location: target } };
  });

  r.post(
    '/api/v2/webhooks/payment-provider',
    (ctx) => {
      const sig = ctx.header('x-acme-signature');
      const expected = `sha256=${crypto.createHmac('sha256', ctx.t.webhookSecret).update(ctx.rawBody).digest('hex')}`;
      // The flawed receiver verifies a signature only when one is sent.
      if (sig === undefined ? !ctx.has('unsigned-webhook') : sig.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) {
        throw new HttpError(401, 'invalid_signature', 'The webhook signature is missing or wrong.');
      }
      const event = ctx.input<{ id: string; type: string; orderId: number }>(SCHEMAS.PaymentEvent);
      const order = ctx.t.db.prepare<[number], { id: number; status: string }>('SELECT id, status FROM orders WHERE id = ?').get(event.orderId);
      if (order && event.type === 'payment.succeeded' && order.status === 'pending') {
        ctx.t.db.prepare("UPDATE orders SET status = 'paid', paid_at = ? WHERE id = ?").run(new Date().toISOString(), order.id);
      }
      if (order && event.type === 'refund.created') ctx.t.db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").run(order.id);
      return json(200, { received: true });
    },
    { rate: 'none' },
  );
}


