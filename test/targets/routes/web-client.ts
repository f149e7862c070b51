// What a web client and the web root reveal beyond the spec: robots.txt naming a folder with a directory
// listing and a backup (robots-listing), and an HTML page whose script calls an undocumented redirect route
// (client-bundle-route). The scan can only reach these routes by reading robots.txt, listings and scripts.

import type { Ctx } from '../context';
import { HttpError, type Router } from '../http';
import type { TargetState } from '../context';
import { SHOP_ORIGIN } from './outbound';

const EXPORTS = '/api/v2/exports/';
const BACKUP = 'orders-2024.sql.bak';

function listing(): string {
  const rows = [BACKUP, 'readme.txt'].map((f) => `<a href="${f}">${f}</a>`).join('\n');
  return `<!doctype html><html><head><title>Index of ${EXPORTS}</title></head><body><h1>Index of ${EXPORTS}</h1><pre><a href="../">../</a>\n${rows}\n</pre></body></html>`;
}

function ordersDump(t: TargetState): string {
  const rows = t.db.prepare('SELECT id, owner_id, total_cents FROM orders ORDER BY id LIMIT 20').all() as { id: number; owner_id: number; total_cents: number }[];
  return ['-- orders export', 'CREATE TABLE orders (id INTEGER PRIMARY KEY, owner_id INTEGER, total_cents INTEGER);', ...rows.map((o) => `INSERT INTO orders VALUES (${o.id}, ${o.owner_id}, ${o.total_cents});`), ''].join('\n');
}

/** A small client script as a bundler would emit it: routes in string literals among code, comments and a regex. */
const APP_JS = `/* Acme Shop web client */
(function(){var e=/^\\/(?:api|static)\\//,t="/static/logo.png";
function go(n){return fetch("/api/v2/outbound?url="+encodeURIComponent(n))}
// the offers page links out through the shop's redirector
var offers='/api/v2/outbound?url=https://shop.acme.example/offers';
window.acme={go:go,offers:offers,logo:t,isApi:function(p){return e.test(p)}};})();
`;

const PAGE = '<!doctype html><html><head><title>Acme Shop</title><script src="/static/app.js"></script></head><body><div id="root"></div></body></html>';

export function registerWebClient(r: Router<Ctx>, t: TargetState): void {
  r.get('/robots.txt', (ctx) => ({ status: 200, contentType: 'text/plain; charset=utf-8', text: `User-agent: *\n${ctx.has('robots-listing') ? `Disallow: ${EXPORTS}\n` : ''}Disallow: /private-nothing-here/\n` }), { rate: 'none' });
  const listed = { enabled: () => t.has('robots-listing'), rate: 'none' as const };
  r.get(EXPORTS, () => ({ status: 200, contentType: 'text/html; charset=utf-8', text: listing() }), listed);
  r.get(`${EXPORTS}${BACKUP}`, () => ({ status: 200, contentType: 'application/octet-stream', text: ordersDump(t) }), listed);
  r.get(`${EXPORTS}readme.txt`, () => ({ status: 200, contentType: 'text/plain', text: 'Nightly exports of the orders table.\n' }), listed);

  const client = { enabled: () => t.has('client-bundle-route'), rate: 'none' as const };
  r.get('/static/app.js', () => ({ status: 200, contentType: 'application/javascript; charset=utf-8', text: APP_JS }), client);
  r.get('/api/v2/outbound', (ctx) => {
    const target = ctx.query.get('url') ?? '';
    let allowed = target.startsWith('/') && !target.startsWith('//');
    try {
      allowed ||= new URL(target).origin === SHOP_ORIGIN;
    } catch {
      // not a URL: refused below
    }
    if (!allowed && !ctx.has('client-bundle-route')) throw new HttpError(400, 'invalid_redirect', 'Links may only point to the shop.');
    return { status: 302, headers: { location: target } };
  });
}

/** The page at / for a browser (Accept: text/html) when the web client is served; null otherwise. */
export function webClientPage(ctx: Ctx): { status: number; contentType: string; text: string } | null {
  return ctx.has('client-bundle-route') && /text\/html/.test(ctx.header('accept') ?? '') ? { status: 200, contentType: 'text/html; charset=utf-8', text: PAGE } : null;
}
