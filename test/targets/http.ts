// The target's tiny HTTP layer on node:http: a router with path templates, replies, errors and the
// request log tests count on. Plain node:http keeps every header and status under our control.

import type net from 'node:net';
import { parseCookies, SESSION_COOKIE } from './identity';

/**
 * Listens on 127.0.0.1 (port 0: any free one) and returns how to stop: close the server and destroy its
 * open connections, so a keep-alive client cannot hold the stop up.
 */
export async function listenLocal(server: net.Server, port = 0): Promise<() => Promise<void>> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
}

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface FieldError {
  field: string;
  message: string;
}

/** A request that fails schema validation. Thrown by the validator, so its stack is real. */
export class ValidationError extends HttpError {
  constructor(public readonly errors: FieldError[]) {
    super(400, 'validation_failed', 'The request is not valid.', { errors });
    this.name = 'ValidationError';
  }
}

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  body?: Buffer;
  contentType?: string;
  /** An array sends the header once per value (Set-Cookie). */
  headers?: Record<string, string | string[]>;
}

export const json = (status: number, body: unknown, headers?: Record<string, string | string[]>): Reply => ({ status, json: body, headers });

// ---- request log --------------------------------------------------------------------------

export interface RequestRecord {
  seq: number;
  method: string;
  /** The path as received, before any rewriting, without the query string. */
  path: string;
  /** The raw query string without "?" ("" when none). */
  query: string;
  headers: Record<string, string>;
  /** Epoch ms when the request arrived. */
  time: number;
  /** The request body (its first 4 KB), when it had one. */
  body?: string;
  /** Filled in when the answer is sent. */
  status?: number;
  durationMs?: number;
}

export type RequestFilter =
  | ((r: RequestRecord) => boolean)
  | {
      method?: string;
      /** Exact path, or a RegExp tested against the path. */
      path?: string | RegExp;
      pathPrefix?: string;
      /** Only requests received at or after this epoch ms. */
      since?: number;
      /** true: with an Authorization, X-API-Key or X-Api-Token header or a session cookie; false: without. */
      authenticated?: boolean;
      status?: number;
    };

function matches(r: RequestRecord, f: RequestFilter | undefined): boolean {
  if (!f) return true;
  if (typeof f === 'function') return f(r);
  if (f.method && r.method !== f.method.toUpperCase()) return false;
  if (typeof f.path === 'string' && r.path !== f.path) return false;
  if (f.path instanceof RegExp && !f.path.test(r.path)) return false;
  if (f.pathPrefix && !r.path.startsWith(f.pathPrefix)) return false;
  if (f.since !== undefined && r.time < f.since) return false;
  if (f.status !== undefined && r.status !== f.status) return false;
  if (f.authenticated !== undefined) {
    const has = hasCredential(r.headers);
    if (has !== f.authenticated) return false;
  }
  return true;
}

/** Whether request headers carry a credential of any kind the target accepts. */
export function hasCredential(h: Record<string, string | string[] | undefined>): boolean {
  const cookie = h.cookie;
  const cookies = Array.isArray(cookie) ? cookie.join('; ') : (cookie ?? '');
  return h.authorization !== undefined || h['x-api-key'] !== undefined || h['x-api-token'] !== undefined || parseCookies(cookies)[SESSION_COOKIE] !== undefined;
}

/** Every request the target received, in arrival order. */
export class RequestLog {
  private records: RequestRecord[] = [];
  private seq = 0;

  /** @internal */
  add(r: Omit<RequestRecord, 'seq'>): RequestRecord {
    const rec = { ...r, seq: ++this.seq };
    this.records.push(rec);
    return rec;
  }

  all(): readonly RequestRecord[] {
    return this.records;
  }

  filter(f?: RequestFilter): RequestRecord[] {
    return this.records.filter((r) => matches(r, f));
  }

  count(f?: RequestFilter): number {
    let n = 0;
    for (const r of this.records) if (matches(r, f)) n++;
    return n;
  }

  last(f?: RequestFilter): RequestRecord | undefined {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i]!;
      if (matches(r, f)) return r;
    }
    return undefined;
  }

  reset(): void {
    this.records = [];
  }
}

// ---- router -----------------------------------------------------------------------------------

export interface RouteOptions {
  /** Ordinary routes are rate limited (unless the no-rate-limit flaw is on); none: never. */
  rate?: 'ordinary' | 'none';
  /** A route that exists only while this returns true (hidden surfaces switched by a flaw). */
  enabled?: () => boolean;
}

export type Handler<C> = (ctx: C) => Promise<Reply> | Reply;

interface Template<C> {
  template: string;
  regex: RegExp;
  keys: string[];
  literals: number;
  order: number;
  methods: Map<string, { handler: Handler<C>; opts: RouteOptions }>;
}

export interface RouteMatch<C> {
  template: string;
  params: Record<string, string>;
  handler?: Handler<C>;
  opts?: RouteOptions;
  /** Methods this path answers (for 405 and OPTIONS). */
  allowed: string[];
}

function compile(template: string): { regex: RegExp; keys: string[]; literals: number } {
  const keys: string[] = [];
  let literals = 0;
  const parts = template.split('/').map((seg) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m) {
      keys.push(m[1]!);
      return '([^/]+)';
    }
    if (seg === '*') {
      keys.push('rest');
      return '(.*)';
    }
    if (seg) literals++;
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return { regex: new RegExp(`^${parts.join('/')}$`), keys, literals };
}

export class Router<C> {
  private templates: Template<C>[] = [];
  private byTemplate = new Map<string, Template<C>>();

  add(method: string, template: string, handler: Handler<C>, opts: RouteOptions = {}): this {
    let t = this.byTemplate.get(template);
    if (!t) {
      t = { template, ...compile(template), order: this.templates.length, methods: new Map() };
      this.byTemplate.set(template, t);
      this.templates.push(t);
      // Literal segments win over parameters: /products/search before /products/{productId}.
      this.templates.sort((a, b) => b.literals - a.literals || a.order - b.order);
    }
    t.methods.set(method.toUpperCase(), { handler, opts });
    return this;
  }

  get = (template: string, h: Handler<C>, o?: RouteOptions) => this.add('GET', template, h, o);
  post = (template: string, h: Handler<C>, o?: RouteOptions) => this.add('POST', template, h, o);
  put = (template: string, h: Handler<C>, o?: RouteOptions) => this.add('PUT', template, h, o);
  patch = (template: string, h: Handler<C>, o?: RouteOptions) => this.add('PATCH', template, h, o);
  delete = (template: string, h: Handler<C>, o?: RouteOptions) => this.add('DELETE', template, h, o);

  /** The first enabled template matching the path, with the handler for the method if any. */
  match(method: string, path: string): RouteMatch<C> | undefined {
    for (const t of this.templates) {
      const m = t.regex.exec(path);
      if (!m) continue;
      const live = [...t.methods.entries()].filter(([, r]) => !r.opts.enabled || r.opts.enabled());
      if (live.length === 0) continue;
      const params: Record<string, string> = {};
      t.keys.forEach((k, i) => {
        params[k] = m[i + 1] ?? '';
      });
      const allowed = live.map(([verb]) => verb);
      if (allowed.includes('GET')) allowed.push('HEAD');
      const wanted = method === 'HEAD' && !t.methods.has('HEAD') ? 'GET' : method;
      const hit = live.find(([verb]) => verb === wanted)?.[1];
      return { template: t.template, params, handler: hit?.handler, opts: hit?.opts, allowed };
    }
    return undefined;
  }
}
