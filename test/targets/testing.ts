// Helpers for tests that talk to a test target over real HTTP: a small client, a loopback
// listener (the out-of-band callback server of SSRF tests), and JWT surgery.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { Target } from './target';

// Response bodies are read by tests field by field; a loose type keeps them short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJson = any;

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: AnyJson;
  ms: number;
  /** Each Set-Cookie header as sent ("name=value; Path=/; ..."). */
  setCookies: string[];
}

export interface CallOptions {
  /** Bearer token. */
  key?: string;
  headers?: Record<string, string>;
  /** JSON body (serialised). */
  body?: unknown;
  /** Raw body text (sent as is, with Content-Type application/json unless given). */
  raw?: string;
  /** An application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** Client for https targets (see tlsClient). */
  dispatcher?: Agent;
}

/** One request; `path` is relative to the target's origin (or an absolute URL). */
export async function call(base: Target | string, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const origin = typeof base === 'string' ? base : base.url;
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let body: string | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.form !== undefined) {
    body = new URLSearchParams(o.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const started = performance.now();
  const res = await request(/^https?:/.test(path) ? path : origin + path, { method, headers, body, dispatcher: o.dispatcher });
  const text = await res.body.text();
  const ms = performance.now() - started;
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  let json: AnyJson;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const sc = res.headers['set-cookie'];
  return { status: res.statusCode, headers: flat, text, json, ms, setCookies: sc === undefined ? [] : Array.isArray(sc) ? sc : [sc] };
}

/** An undici client that trusts the target's self-signed certificate. */
export function tlsClient(t: Target): Agent {
  return new Agent({ connect: { ca: t.caCert } });
}

export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface Listener {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records every hit and answers with `respond` (default: a small HTML page). */
export async function listen(respond?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Listener> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    if (respond) respond(req, res);
    else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>listener ${req.url}</title></head><body>ok</body></html>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function jwtParts(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string; raw: string[] } {
  const raw = token.split('.');
  return {
    header: JSON.parse(Buffer.from(raw[0]!, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(raw[1]!, 'base64url').toString()) as Record<string, unknown>,
    signature: raw[2]!,
    raw,
  };
}

/** Re-assembles a token from (possibly edited) parts. */
export function jwtBuild(header: Record<string, unknown>, payload: Record<string, unknown>, signature: string): string {
  return `${b64(header)}.${b64(payload)}.${signature}`;
}

/** Runs `n` requests, `concurrency` at a time, and returns them in order. */
export async function burst(n: number, one: (i: number) => Promise<CallResult>, concurrency = 4): Promise<CallResult[]> {
  const out: CallResult[] = new Array<CallResult>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await one(i);
      }
    }),
  );
  return out;
}

export const STACK_TRACE = /\n\s+at [^\n]+\(?[^\n]+:\d+:\d+\)?/;
