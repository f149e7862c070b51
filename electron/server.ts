// The team server: the core's /api app over HTTP, and the built renderer for browsers.

import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Core } from './core';

export interface ServerOptions {
  core: Core;
  host: string;
  port: number;
  /** The renderer build (index.html and assets); pages are not served without it. */
  staticDir?: string | null;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

function pagesApp(staticDir: string | null | undefined): Hono {
  const pages = new Hono();
  pages.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(PAGE_HEADERS)) c.header(k, v);
  });
  const index = staticDir ? path.join(staticDir, 'index.html') : null;
  if (!staticDir || !index || !fs.existsSync(index)) {
    pages.get('*', (c) =>
      c.text('Portcullis team server: the /api is up. The web app is not built; run `npm run build:renderer`.', 404),
    );
    return pages;
  }
  pages.use('/assets/*', serveStatic({ root: staticDir }));
  pages.use('*', serveStatic({ root: staticDir }));
  // Client-side routes: every other GET gets the app shell.
  const html = fs.readFileSync(index, 'utf8');
  pages.get('*', (c) => c.html(html));
  return pages;
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const pages = pagesApp(options.staticDir);
  const fetch = (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return options.core.fetch(request, { transport: 'http', clientIp: env.incoming.socket.remoteAddress ?? 'unknown' });
    }
    return pages.fetch(request, env);
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive sockets would hold close() open.
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
