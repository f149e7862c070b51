// Social sign-in for the desktop app (RFC 8252): the system browser does the provider's pages, and
// the provider sends the browser back to a one-shot HTTP listener on 127.0.0.1 with a random port.
// The renderer asks the core (local or team server) to start the flow with that redirect address,
// hands the provider URL here, and gets the code back; the core exchanges and verifies it.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const LOOPBACK_TIMEOUT_MS = 5 * 60 * 1000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type LoopbackResult =
  | { ok: true; code: string; state: string; iss?: string }
  | { ok: false; error: string; errorDescription?: string };

export interface LoopbackDeps {
  /** Opens the URL in the system browser (shell.openExternal). */
  openExternal(url: string): Promise<void>;
  timeoutMs?: number;
  /** Brings the app back to the front once the browser has come back. */
  onReturn?(): void;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;line-height:1.5"><h1 style="font-size:1.4rem">${title}</h1><p>${text}</p></body></html>`;
}

/** A provider URL may be opened only if it is a code + PKCE request coming back to our listener. */
export function checkAuthorizationUrl(value: unknown, redirectUri: string): { ok: true; url: URL; state: string } | { ok: false; reason: string } {
  if (typeof value !== 'string' || value.length > 8192) return { ok: false, reason: 'not a URL' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure) return { ok: false, reason: 'the provider must use https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL' };
  const q = url.searchParams;
  if (q.get('redirect_uri') !== redirectUri) return { ok: false, reason: 'the redirect address is not this listener' };
  if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
    return { ok: false, reason: 'not an authorization code request with PKCE' };
  }
  const state = q.get('state');
  if (!state) return { ok: false, reason: 'no state' };
  return { ok: true, url, state };
}

export function createLoopbackAuthorizer(deps: LoopbackDeps) {
  const timeoutMs = deps.timeoutMs ?? LOOPBACK_TIMEOUT_MS;
  let current: {
    server: http.Server;
    redirectUri: string;
    waiting: ((result: LoopbackResult) => void) | null;
    expectedState: string | null;
    timer: NodeJS.Timeout | null;
  } | null = null;

  function close(result?: LoopbackResult): void {
    const c = current;
    if (!c) return;
    current = null;
    if (c.timer) clearTimeout(c.timer);
    c.server.close();
    c.server.closeAllConnections();
    c.waiting?.(result ?? { ok: false, error: 'cancelled', errorDescription: 'The sign-in was cancelled.' });
  }

  function onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const c = current;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!c || req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, PAGE_HEADERS).end(page('Not found', 'Nothing here.'));
      return;
    }
    const q = url.searchParams;
    // Anything without the state we sent (another local program guessing the port) is turned away
    // and does not end the wait.
    if (!c.expectedState || q.get('state') !== c.expectedState) {
      res.writeHead(400, PAGE_HEADERS).end(page('Unexpected sign-in response', 'This response does not belong to the sign-in in progress.'));
      return;
    }
    const error = q.get('error');
    const code = q.get('code');
    let result: LoopbackResult;
    if (error) {
      const description = q.get('error_description');
      result = { ok: false, error: error.slice(0, 100), ...(description ? { errorDescription: description.slice(0, 300) } : {}) };
      res.writeHead(200, PAGE_HEADERS).end(page('Sign-in not completed', 'You can close this tab and return to Portcullis.'));
    } else if (code) {
      const iss = q.get('iss');
      result = { ok: true, code, state: c.expectedState, ...(iss ? { iss } : {}) };
      res.writeHead(200, PAGE_HEADERS).end(page('Signed in', 'You can close this tab and return to Portcullis.'));
    } else {
      result = { ok: false, error: 'invalid_request' };
      res.writeHead(400, PAGE_HEADERS).end(page('Sign-in not completed', 'The response had no code. You can close this tab.'));
    }
    deps.onReturn?.();
    close(result);
  }

  return {
    /** Opens a fresh listener on 127.0.0.1 (closing any earlier one); answers its redirect address. */
    async listen(): Promise<{ redirectUri: string }> {
      close();
      const server = http.createServer(onRequest);
      server.requestTimeout = 10_000;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
      current = { server, redirectUri, waiting: null, expectedState: null, timer: null };
      return { redirectUri };
    },

    /** Opens the provider URL in the system browser and waits for the browser to come back. */
    async authorize(authorizationUrl: unknown): Promise<LoopbackResult> {
      const c = current;
      if (!c || c.waiting) return { ok: false, error: 'invalid_request', errorDescription: 'No sign-in is waiting for a browser.' };
      const checked = checkAuthorizationUrl(authorizationUrl, c.redirectUri);
      if (!checked.ok) {
        close();
        return { ok: false, error: 'invalid_request', errorDescription: `Refused sign-in address: ${checked.reason}.` };
      }
      const done = new Promise<LoopbackResult>((resolve) => {
        c.waiting = resolve;
      });
      c.expectedState = checked.state;
      c.timer = setTimeout(() => close({ ok: false, error: 'timeout', errorDescription: 'The sign-in took too long. Please try again.' }), timeoutMs);
      try {
        await deps.openExternal(checked.url.href); // eng-disable OPEN_EXTERNAL_JS_CHECK (passed checkAuthorizationUrl)
      } catch {
        close({ ok: false, error: 'browser_unavailable', errorDescription: 'The system browser could not be opened.' });
      }
      return done;
    },

    /** Ends any sign-in in progress (window closed, app quitting). */
    cancel(): void {
      close();
    },

    get listening(): boolean {
      return current !== null;
    },
  };
}

export type LoopbackAuthorizer = ReturnType<typeof createLoopbackAuthorizer>;
