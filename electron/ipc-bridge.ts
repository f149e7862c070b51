// The desktop transport: registers the one `api:request` IPC handler that turns the renderer's
// {method, path, headers, body} into a Request for the core and returns {status, headers, body}.
// It takes an IpcMainLike instead of importing electron, so it runs (and is tested) in plain Node.

import type { TransportInfo } from './api/env';

export const API_CHANNEL = 'api:request';
export const EVENT_CHANNEL = 'api:event';

export interface SenderFrameLike {
  url: string;
  /** null for the top frame. */
  parent: unknown;
}

export interface IpcInvokeEventLike {
  senderFrame: SenderFrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface BridgeRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
}

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface BridgeOptions {
  fetch: (request: Request, info: TransportInfo) => Promise<Response>;
  /** The app's own origin, e.g. "app://portcullis" (scheme and host compared, parsed with URL). */
  appOrigin: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const encoder = new TextEncoder();

function refuse(status: number, message: string): BridgeResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: encoder.encode(JSON.stringify({ success: false, message })),
  };
}

/** Top frame of the app's own origin only. Custom schemes have an opaque `origin`, so compare parts. */
export function isTrustedSender(frame: SenderFrameLike | null, appOrigin: string): boolean {
  if (!frame || frame.parent !== null) return false;
  try {
    const expected = new URL(appOrigin);
    const actual = new URL(frame.url);
    return actual.protocol === expected.protocol && actual.host === expected.host;
  } catch {
    return false;
  }
}

function toRequest(input: unknown): Request | null {
  if (!input || typeof input !== 'object') return null;
  const { method, path, headers, body } = input as BridgeRequest;
  if (typeof method !== 'string' || !METHODS.has(method.toUpperCase())) return null;
  // Only /api paths, never an absolute URL or a path that climbs out.
  if (typeof path !== 'string' || !path.startsWith('/api/') || path.includes('..') || path.includes('\\')) return null;
  const url = new URL(path, 'http://portcullis.ipc');
  if (url.host !== 'portcullis.ipc') return null;
  const h = new Headers();
  if (headers && typeof headers === 'object') {
    for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') h.set(k, v);
  }
  const hasBody = body !== undefined && body !== null && method.toUpperCase() !== 'GET';
  if (hasBody && typeof body !== 'string' && !(body instanceof Uint8Array)) return null;
  return new Request(url, { method: method.toUpperCase(), headers: h, body: hasBody ? (typeof body === 'string' ? body : new Uint8Array(body)) : undefined });
}

/** The handler on its own: what `ipcMain.handle(API_CHANNEL, ...)` runs. Never throws. */
export function createBridgeHandler(options: BridgeOptions) {
  return async (event: IpcInvokeEventLike, input: unknown): Promise<BridgeResponse> => {
    if (!isTrustedSender(event.senderFrame, options.appOrigin)) return refuse(403, 'Refused: unknown sender.');
    const request = toRequest(input);
    if (!request) return refuse(400, 'Refused: malformed request.');
    try {
      const response = await options.fetch(request, { transport: 'ipc', clientIp: 'ipc' });
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
    } catch {
      return refuse(500, 'Something went wrong on our side. Please try again.');
    }
  };
}

export function registerApiBridge(ipcMain: IpcMainLike, options: BridgeOptions): () => void {
  const handler = createBridgeHandler(options);
  ipcMain.handle(API_CHANNEL, (event, input) => handler(event, input));
  return () => ipcMain.removeHandler(API_CHANNEL);
}
