// The renderer's one way to reach the /api: through the desktop preload bridge when it exists,
// otherwise over HTTP (the team server, or a connected server in sync mode). Screens never know which.

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface PortcullisBridge {
  request(req: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array | null;
  }): Promise<BridgeResponse>;
  subscribe(listener: (event: unknown) => void): () => void;
}

declare global {
  interface Window {
    portcullis?: PortcullisBridge;
  }
}

let httpBaseUrl = '';

/** Sync mode: send every call to this team server over HTTP; '' returns to the default transport. */
export function setServerUrl(url: string): void {
  httpBaseUrl = url.replace(/\/+$/, '');
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
