// The renderer's one way to reach the /api: through the desktop preload bridge when it exists,
// otherwise over HTTP (the team server, or a connected server in sync mode). Screens never know which.

import { STORAGE_KEYS } from '../../../shared/constants';

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What a native helper answers: never a thrown error across IPC. */
export type NativeResult<T extends object = object> = ({ ok: true } & T) | { ok: false; message: string };

export type LoopbackResult =
  | { ok: true; code: string; state: string; iss?: string }
  | { ok: false; error: string; errorDescription?: string; message?: string };

/** window.portcullis, exposed by the desktop app's preload (electron/preload.cts). */
export interface PortcullisBridge {
  request(req: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array | null;
  }): Promise<BridgeResponse>;
  /** Pushed events (scan:progress, scan:finished); returns the unsubscribe function. */
  subscribe(listener: (event: unknown) => void): () => void;
  /** Save bytes through the system's save dialog (report downloads). */
  saveFile?(input: { fileName: string; data: Uint8Array }): Promise<NativeResult<{ saved: boolean; fileName?: string }>>;
  /** Open an allowlisted https link in the system browser. */
  openExternal?(url: string): Promise<NativeResult<{ opened: true }>>;
  /** Social sign-in in the system browser with a loopback redirect. */
  oauth?: {
    listen(): Promise<NativeResult<{ redirectUri: string }>>;
    authorize(authorizationUrl: string): Promise<LoopbackResult>;
  };
}

declare global {
  interface Window {
    portcullis?: PortcullisBridge;
  }
}

function storedServerUrl(): string {
  try {
    return (window.localStorage.getItem(STORAGE_KEYS.serverUrl) ?? '').replace(/\/+$/, '');
  } catch {
    return '';
  }
}

// Read before the first call, so a restored session is checked against the server it belongs to.
let httpBaseUrl = typeof window === 'undefined' ? '' : storedServerUrl();

/** Sync mode: send every call to this team server over HTTP; '' returns to the default transport. */
export function setServerUrl(url: string): void {
  httpBaseUrl = url.replace(/\/+$/, '');
}

/** The team server in use ('' in local mode). */
export function serverUrl(): string {
  return httpBaseUrl;
}

/** The desktop bridge, when the app runs in the desktop shell (in sync mode too). */
export function desktopBridge(): PortcullisBridge | undefined {
  return typeof window !== 'undefined' ? window.portcullis : undefined;
}

export function usesBridge(): boolean {
  return typeof window !== 'undefined' && !!window.portcullis && httpBaseUrl === '';
}

async function viaBridge(bridge: PortcullisBridge, path: string, init: RequestInit): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  let body: string | Uint8Array | null = null;
  if (init.body !== undefined && init.body !== null) {
    if (typeof init.body === 'string') body = init.body;
    else {
      // FormData, Blob and the like cannot cross IPC: serialise them as fetch would.
      const encoded = new Request('http://bridge.local/', { method: 'POST', body: init.body });
      const type = encoded.headers.get('content-type');
      if (type) headers['content-type'] = type;
      body = new Uint8Array(await encoded.arrayBuffer());
    }
  }
  const res = await bridge.request({ method, path, headers, body });
  return new Response(res.status === 204 ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
}

/** Like fetch(path, init) for an /api path; resolves with a standard Response. */
export function request(path: string, init: RequestInit = {}): Promise<Response> {
  const bridge = typeof window !== 'undefined' ? window.portcullis : undefined;
  if (bridge && httpBaseUrl === '') return viaBridge(bridge, path, init);
  return fetch(`${httpBaseUrl}${path}`, init);
}
