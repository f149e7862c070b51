// Sync mode's address rules and the "is this a Portcullis server" probe. An https address, or http on
// this computer only (a bearer token must not cross a network in clear; the desktop app's secure
// origin could not call it anyway). Only the origin is kept: the API lives at /api on it.

import type { Envelope, Environment } from '../../../shared/contract';
import { TEAM_SERVER_MESSAGES } from '../../../shared/messages';

/** http is allowed on these only (the pages' CSP names them; CSP cannot name an IPv6 literal). */
const LOOPBACK = new Set(['localhost', '127.0.0.1']);
export const PROBE_TIMEOUT_MS = 8000;

export type UrlCheck = { ok: true; url: string; host: string } | { ok: false; message: string };

export function checkServerUrl(input: string): UrlCheck {
  const text = input.trim();
  if (!text) return { ok: false, message: TEAM_SERVER_MESSAGES.urlRequired };
  // "portcullis.example.com" means https://portcullis.example.com.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, message: TEAM_SERVER_MESSAGES.urlInvalid };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) return { ok: false, message: TEAM_SERVER_MESSAGES.urlInvalid };
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    return { ok: false, message: TEAM_SERVER_MESSAGES.originOnly };
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return { ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired };
  return { ok: true, url: url.origin, host: url.host };
}

/** Asks GET /api/environment of the server; answers null when it is a Portcullis server, else why not. */
export async function probeServer(origin: string, fetchImpl: typeof fetch = fetch, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(`${origin}/api/environment`, { headers: { accept: 'application/json' }, signal: controller.signal });
  } catch {
    return TEAM_SERVER_MESSAGES.unreachable(origin);
  } finally {
    clearTimeout(timer);
  }
  try {
    const body = (await res.json()) as Envelope<Environment>;
    if (res.ok && body?.success === true && typeof body.data?.isDocker === 'boolean') return null;
  } catch {
    // Not JSON: some other web server.
  }
  return TEAM_SERVER_MESSAGES.notPortcullis(origin);
}
