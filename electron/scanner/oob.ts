// The scan's out-of-band listener: a small HTTP server on 127.0.0.1 that SSRF, open-redirect and
// redirect-following checks point the target at, each injection with its own token, so a hit proves
// which request made the target (or a client) call out. Started per scan, closed at its end. It is
// engine infrastructure: checks reach it only through ctx.oob.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomHex } from './random';

export interface OobHit {
  token: string;
  method: string;
  /** Path and query as received. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  remoteAddress: string;
  /** performance.now() when it arrived. */
  time: number;
  /** Which of the listener's URLs was hit: plain, the redirecting one, or the internal hop it redirects to. */
  kind: OobKind;
}

export type OobKind = 'plain' | 'redirect' | 'internal';

/** What checks see of the listener (CheckContext.oob). */
export interface OobService {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** A fresh token to put in one injection. */
  token(): string;
  /**
   * The listener URL for a token. plain: answers 200 with a page naming the token. redirect: answers
   * 302 to the internal URL of the same token (http://localhost:<port>/...), an address a fetcher
   * that re-checks redirects refuses. internal: that second hop.
   */
  urlFor(token: string, kind?: OobKind): string;
  /** The first hit for the token (of a kind, if given) within the timeout; null when none came. */
  waitForHit(token: string, timeoutMs: number, kind?: OobKind): Promise<OobHit | null>;
  /** Hits recorded for the token so far. */
  hits(token: string): OobHit[];
  /**
   * The plain URL of the token answers this content instead of the page (a key set a JWT's `jku`
   * names): for checks whose target must fetch something the scan controls.
   */
  publish(token: string, body: string, contentType: string): string;
}

const TOKEN = /pcb[0-9a-f]{16}/g;
const PREFIX: Record<OobKind, string> = { plain: 'p', redirect: 'r', internal: 'i' };
const MAX_TOKENS = 100_000;

/** The page the plain URL answers: its title carries the token, so a target that shows fetched content shows it. */
export function oobPage(token: string): string {
  return `<!doctype html><html><head><title>portcullis-oob ${token}</title></head><body>portcullis-oob ${token}</body></html>`;
}

interface Waiter {
  kind?: OobKind;
  resolve(hit: OobHit | null): void;
}

export class OobListener implements OobService {
  private server: http.Server | null = null;
  private readonly recorded = new Map<string, OobHit[]>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly issued = new Set<string>();
  private readonly published = new Map<string, { body: string; contentType: string }>();
  private closed = false;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Crypto-random, not from the scan's seed: a late callback of an earlier scan must never match a token of this one. */
  token(): string {
    if (this.issued.size >= MAX_TOKENS) this.issued.clear();
    const t = `pcb${randomHex(8)}`;
    this.issued.add(t);
    return t;
  }

  urlFor(token: string, kind: OobKind = 'plain'): string {
    const host = kind === 'internal' ? `localhost:${this.port}` : `127.0.0.1:${this.port}`;
    return `http://${host}/${PREFIX[kind]}/${token}`;
  }

  hits(token: string): OobHit[] {
    return [...(this.recorded.get(token) ?? [])];
  }

  publish(token: string, body: string, contentType: string): string {
    if (this.published.size >= 1000) this.published.clear();
    this.published.set(token, { body, contentType });
    return this.urlFor(token, 'plain');
  }

  waitForHit(token: string, timeoutMs: number, kind?: OobKind): Promise<OobHit | null> {
    const already = this.recorded.get(token)?.find((h) => !kind || h.kind === kind);
    if (already) return Promise.resolve(already);
    if (this.closed || timeoutMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      let set = this.waiters.get(token);
      if (!set) this.waiters.set(token, (set = new Set()));
      const waiter: Waiter = {
        kind,
        resolve: (hit) => {
          clearTimeout(timer);
          set!.delete(waiter);
          if (!set!.size) this.waiters.delete(token);
          resolve(hit);
        },
      };
      const timer = setTimeout(() => waiter.resolve(null), timeoutMs);
      timer.unref?.();
      set.add(waiter);
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '/';
    const kind: OobKind = url.startsWith('/r/') ? 'redirect' : url.startsWith('/i/') ? 'internal' : 'plain';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const tokens = [...new Set(url.match(TOKEN) ?? [])].filter((t) => this.issued.has(t));
    for (const token of tokens) {
      const hit: OobHit = { token, method: req.method ?? 'GET', url: url.slice(0, 2000), headers, remoteAddress: req.socket.remoteAddress ?? '', time: performance.now(), kind };
      const list = this.recorded.get(token) ?? [];
      if (list.length < 50) list.push(hit);
      this.recorded.set(token, list);
      for (const w of [...(this.waiters.get(token) ?? [])]) if (!w.kind || w.kind === kind) w.resolve(hit);
    }
    // Drain any body; answer at once.
    req.resume();
    const token = tokens[0] ?? 'none';
    if (kind === 'redirect') {
      res.writeHead(302, { location: this.urlFor(token, 'internal'), 'content-length': '0' });
      res.end();
      return;
    }
    const content = (kind === 'plain' && this.published.get(token)) || { body: oobPage(token), contentType: 'text/html; charset=utf-8' };
    res.writeHead(200, { 'content-type': content.contentType, 'content-length': String(Buffer.byteLength(content.body)) });
    res.end(req.method === 'HEAD' ? undefined : content.body);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const set of this.waiters.values()) for (const w of [...set]) w.resolve(null);
    this.waiters.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }
}
