// A real HTTP proxy on 127.0.0.1 that records what passes through it: plain requests in absolute form
// (forwarded, answer streamed back) and CONNECT tunnels (piped), with optional Basic credentials
// (407 without them), as Burp, ZAP or Squid would receive a scan's traffic.

import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** The absolute URL of a plain request, or host:port of a CONNECT. */
  target: string;
  proxyAuthorization: string | null;
}

export interface RecordingProxy {
  url: string;
  port: number;
  /** Every request the proxy received, in order (refused ones too). */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(options: { credentials?: { user: string; password: string } } = {}): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const expected = options.credentials ? `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}` : null;
  const sockets = new Set<net.Socket>();
  const upstream = new http.Agent({ keepAlive: true });
  const allowed = (auth: string | undefined) => expected === null || auth === expected;

  const server = http.createServer((req, res) => {
    const auth = req.headers['proxy-authorization'];
    requests.push({ method: req.method ?? '', target: req.url ?? '', proxyAuthorization: auth ?? null });
    if (!allowed(auth)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form request expected');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = http.request(url, { method: req.method, headers, agent: upstream }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const auth = req.headers['proxy-authorization'];
    requests.push({ method: 'CONNECT', target: req.url ?? '', proxyAuthorization: auth ?? null });
    if (!allowed(auth)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const remote = net.connect(Number(port), host!.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) remote.write(head);
      remote.pipe(client);
      client.pipe(remote);
    });
    sockets.add(remote);
    remote.on('close', () => sockets.delete(remote));
    remote.on('error', () => client.destroy());
    client.on('error', () => remote.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        upstream.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
