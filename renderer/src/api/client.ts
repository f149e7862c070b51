// Typed calls over request(): one function per route of the contract, each answering an ApiResult.
// A response from the server (any status) is a result; only a failed transport throws NetworkError.

import type { ApiContract, Envelope, RouteKey } from '../../../shared/contract';
import type { ValidationError } from '../../../shared/validation';
import { retryAfterMs } from '../lib/busy-retry';
import { request } from './request';

export interface ApiOk<T> {
  ok: true;
  status: number;
  message: string;
  data: T;
}

export interface ApiFail {
  ok: false;
  status: number;
  /** The server's message, '' when it sent none (the caller picks the spec's fallback). */
  message: string;
  errors: ValidationError[];
  /** A 429 or 503 with Retry-After: how long the server asks the client to wait. */
  retryAfterMs?: number;
}

export type ApiResult<T> = ApiOk<T> | ApiFail;

/** The request never got an answer (server down, connection refused, CSP, offline). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'NetworkError';
  }
}

type BodyOf<K extends RouteKey> = ApiContract[K] extends { body: infer B } ? B : never;
type QueryOf<K extends RouteKey> = ApiContract[K] extends { query: infer Q } ? Q : never;
type DataOf<K extends RouteKey> = ApiContract[K]['data'];

export interface CallOptions<K extends RouteKey> {
  body?: BodyOf<K>;
  query?: QueryOf<K>;
  /** Bearer token of the session, for the routes that need one. */
  token?: string | null;
  signal?: AbortSignal;
}

async function readEnvelope(res: Response): Promise<Envelope<unknown> | null> {
  try {
    const parsed: unknown = await res.json();
    return parsed && typeof parsed === 'object' ? (parsed as Envelope<unknown>) : null;
  } catch {
    return null;
  }
}

/** Calls one route of the contract: `call('POST /api/auth/login', { body })`. */
export async function call<K extends RouteKey>(route: K, options: CallOptions<K> = {}): Promise<ApiResult<DataOf<K>>> {
  const space = route.indexOf(' ');
  const method = route.slice(0, space);
  let path = route.slice(space + 1);
  if (options.query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query as Record<string, unknown>)) {
      if (v !== undefined && v !== null) params.set(k, String(v));
    }
    const qs = params.toString();
    if (qs) path += `?${qs}`;
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.body !== undefined) {
    if (options.body instanceof FormData) body = options.body;
    else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
  }
  let res: Response;
  try {
    res = await request(path, { method, headers, body, signal: options.signal });
  } catch (err) {
    throw new NetworkError(err);
  }
  const envelope = await readEnvelope(res);
  const message = typeof envelope?.message === 'string' ? envelope.message : '';
  if (res.ok && envelope?.success !== false) {
    return { ok: true, status: res.status, message, data: envelope?.data as DataOf<K> };
  }
  const errors = Array.isArray(envelope?.errors) ? envelope.errors : [];
  const retryAfter = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : null;
  return { ok: false, status: res.status, message, errors, ...(retryAfter !== null ? { retryAfterMs: retryAfter } : {}) };
}
