// The team server: the core's /api app over HTTP, and the built renderer for browsers. Browsers on
// other origins (the desktop app's app://portcullis in sync mode, and any origin listed in
// PORTCULLIS_CORS_ORIGINS) may call the /api: CORS for exactly those origins, never with credentials
// (identity is a bearer token, not a cookie).

import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Core } from './core';
import { isLoopbackHost, SecretKeyRequiredError } from './secrets/key-source';
import { trustedProxies } from './trusted-proxies';

export interface ServerOptions {
  core: Core;
  host: string;
  port: number;
  /** The renderer build (index.html and assets); pages are not served without it. */
  staticDir?: string | null;
  /**
   * Load balancers whose X-Forwarded-For is believed (addresses, CIDR ranges, loopback/linklocal/
   * uniquelocal); empty or absent: none, the socket peer is the client.
   */
  trustProxy?: readonly string[];
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self' https: http://127.0.0.1:* http://localhost:*; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const CORS_HEADERS = 'authorization, content-type';
/** Read by the renderer: report file names and the throttling delay. */
const CORS_EXPOSED = 'content-disposition, retry-after';

/** The preflight answer: 204 with the grants for an allowed origin, 403 with none for any other. */
export function preflight(origin: string | null, allowed: ReadonlySet<string>): Response {
  if (!origin || !allowed.has(origin)) {
    return new Response(null, { status: 403, headers: { Vary: 'Origin' } });
  }
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': CORS_METHODS,
      'Access-Control-Allow-Headers': CORS_HEADERS,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    },
  });
}

/** The response of an actual call, with the CORS grant when the origin is allowed. */
export function withCors(response: Response, origin: string | null, allowed: ReadonlySet<string>): Response {
  const headers = new Headers(response.headers);
  headers.append('Vary', 'Origin');
  if (origin && allowed.has(origin)) {
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', CORS_EXPOSED);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Vite names every file under /assets/ after its content hash: those never change; the rest is checked each time. */
export function cacheControl(pathname: string, status: number): string {
  if (status === 200 && pathname.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

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
  // Source maps stay on the build machine: a browser of the team server never gets one.
  pages.use('*', async (c, next) => (c.req.path.endsWith('.map') ? c.text('Not found', 404) : next()));
  pages.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', cacheControl(c.req.path, c.res.status));
  });
  // The build wrote brotli and gzip copies beside each text file (scripts/precompress.ts).
  pages.use('/assets/*', serveStatic({ root: staticDir, precompressed: true }));
  // A file of another build is gone, not a page: the shell in its place would be cached for a year.
  pages.get('/assets/*', (c) => c.text('Not found', 404));
  pages.use('*', serveStatic({ root: staticDir, precompressed: true }));
  // Client-side routes: every other GET gets the app shell.
  const html = fs.readFileSync(index, 'utf8');
  pages.get('*', (c) => c.html(html));
  return pages;
}

/** How long an idle keep-alive connection stays open: longer than a load balancer's idle timeout. */
export const KEEP_ALIVE_MS = 65_000;

export function startServer(options: ServerOptions): Promise<RunningServer> {
  // The core refuses this at start when told the host (listenHost); this catches a core that was not.
  if (!isLoopbackHost(options.host) && options.core.services.secrets.keyInDataDir) return Promise.reject(new SecretKeyRequiredError(options.host));
  const pages = pagesApp(options.staticDir);
  const allowedOrigins: ReadonlySet<string> = new Set(options.core.config.corsOrigins);
  const clientAddress = trustedProxies(options.trustProxy ?? []);
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      const origin = request.headers.get('origin');
      if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflight(origin, allowedOrigins);
      const clientIp = clientAddress({ peer: env.incoming.socket.remoteAddress, forwardedFor: request.headers.get('x-forwarded-for') ?? undefined });
      const response = await options.core.fetch(request, { transport: 'http', clientIp });
      return origin ? withCors(response, origin, allowedOrigins) : response;
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
    // Idle keep-alive connections outlive a load balancer's (60 s is common) and a client's reuse of them:
    // a server that closes an idle socket first races the next request sent on it (a 502, an ECONNRESET).
    const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
    http.keepAliveTimeout = KEEP_ALIVE_MS;
    http.headersTimeout = KEEP_ALIVE_MS + 1000;
    server.once('error', reject);
  });
}
