// The app:// protocol: serves the built renderer to the window with a strict Content-Security-Policy
// header. Only files inside the renderer directory are served (decoded, normalised, then checked with
// path.relative and again after resolving symlinks); routes without an extension get the app shell.

import fs from 'node:fs';
import path from 'node:path';
import { APP_HOST, APP_SCHEME } from './constants';

function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  // connect-src: the renderer calls the core over IPC; in sync mode it calls a team server over https
  // (or http on loopback, which Chromium also treats as secure). Scripts only from the app itself.
  headers['Content-Security-Policy'] =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self' https: http://127.0.0.1:* http://localhost:*; manifest-src 'self'; worker-src 'self'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  headers['X-Content-Type-Options'] = 'nosniff';
  headers['Referrer-Policy'] = 'no-referrer';
  headers['Cross-Origin-Opener-Policy'] = 'same-origin';
  return headers;
}

export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(securityHeaders());
export const APP_CSP = APP_SECURITY_HEADERS['Content-Security-Policy']!;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

export type AppFile = { kind: 'file'; file: string } | { kind: 'refused'; status: 400 | 404 };

/**
 * The file an app:// URL names, or a refusal. A path without an extension is a client-side route
 * (index.html). Traversal in any spelling (../, %2e%2e, %2f, backslashes, NUL) is refused.
 */
export function resolveAppFile(rendererDir: string, requestUrl: string): AppFile {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { kind: 'refused', status: 404 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'refused', status: 400 };
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'refused', status: 400 };
  const root = path.resolve(rendererDir);
  const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
  if (relative === '' || !path.posix.extname(relative)) return { kind: 'file', file: path.join(root, 'index.html') };
  const file = path.resolve(root, ...relative.split('/'));
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { kind: 'refused', status: 400 };
  return { kind: 'file', file };
}

export interface ProtocolDeps {
  rendererDir: string;
  readFile?: (file: string) => Promise<Uint8Array>;
  realpath?: (file: string) => Promise<string>;
}

function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...APP_SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** What `protocol.handle('app', ...)` runs: Request in, Response out, never a file outside the renderer. */
export function createAppProtocolHandler(deps: ProtocolDeps): (request: Request) => Promise<Response> {
  const readFile = deps.readFile ?? ((f: string) => fs.promises.readFile(f));
  const realpath = deps.realpath ?? ((f: string) => fs.promises.realpath(f));
  const root = path.resolve(deps.rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method not allowed');
    const target = resolveAppFile(root, request.url);
    if (target.kind === 'refused') return textResponse(target.status, target.status === 404 ? 'Not found' : 'Bad request');
    try {
      // A symlink inside the renderer directory must not lead outside it either.
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(target.file)]);
      const rel = path.relative(realRoot, realFile);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return textResponse(404, 'Not found');
      const body = await readFile(realFile);
      const type = TYPES[path.extname(realFile).toLowerCase()] ?? 'application/octet-stream';
      const headers: Record<string, string> = { ...APP_SECURITY_HEADERS, 'Content-Type': type };
      if (type.startsWith('text/html')) headers['Cache-Control'] = 'no-cache';
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
    } catch {
      return textResponse(404, 'Not found');
    }
  };
}
