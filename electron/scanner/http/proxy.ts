// The upstream proxy of a scan (issue 27): undici's ProxyAgent as the engine's dispatcher, plain
// requests in absolute form and https through CONNECT, with the proxy's CA trusted besides the
// system's (a TLS-intercepting proxy such as Burp or ZAP signs every site with it); and the check at
// scan start that the proxy answers at all, so a wrong address fails the scan with one clear reason.

import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { ProxyAgent, type Dispatcher } from 'undici';
import { checkProxyUrl, maskProxyUrl, pemCertificates, PROXY_LIMITS, SCAN_TRAFFIC_MESSAGES } from '../../../shared/scan-traffic';
import { publicOnlyLookup } from '../net-guard';

/** The proxy a scan goes through, as the engine gets it. */
export interface ScanProxy {
  /** http(s)://[user:password@]host:port; the password is a secret (maskProxyUrl to show it). */
  url: string;
  /** PEM certificates to trust besides the system's: the CA of a TLS-intercepting proxy. */
  ca: string | null;
  /** Where the choice came from, for messages: "Settings → Scan traffic", "--proxy", "PORTCULLIS_PROXY". */
  source: string;
  /** The proxy's own address must be public (a user's proxy on a team server without local scans). */
  guarded: boolean;
}

export interface ProxyDispatcherOptions {
  connections: number;
  tlsVerify: boolean;
}

/** The certificates TLS connections trust: the system's, plus the proxy's CA when there is one (a `ca` replaces the defaults). */
function trusted(ca: string | null): string[] | undefined {
  return ca ? [...tls.rootCertificates, ca] : undefined;
}

/** One dispatcher for every origin of the scan: it keeps a connection pool per origin behind the proxy. */
export function proxyDispatcher(proxy: ScanProxy, options: ProxyDispatcherOptions): Dispatcher {
  const ca = trusted(proxy.ca);
  const tlsOptions = { rejectUnauthorized: options.tlsVerify, ...(ca ? { ca } : {}) };
  return new ProxyAgent({
    uri: proxy.url,
    // Plain http in absolute form, as browsers send it to a proxy: Burp and ZAP show it as such.
    proxyTunnel: false,
    connections: Math.max(1, options.connections),
    pipelining: 1,
    keepAliveTimeout: 10_000,
    requestTls: tlsOptions,
    proxyTls: { ...tlsOptions, ...(proxy.guarded ? { lookup: publicOnlyLookup } : {}) },
  });
}

export class ProxyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** The CA text if it holds at least one PEM certificate Node can read; throws ProxyError otherwise. */
export function checkProxyCa(text: string): string {
  if (Buffer.byteLength(text) > PROXY_LIMITS.caMaxBytes) throw new ProxyError(`The CA file is too large (at most ${PROXY_LIMITS.caMaxBytes / 1024} KB).`);
  const certs = pemCertificates(text);
  if (!certs.length) throw new ProxyError(SCAN_TRAFFIC_MESSAGES.invalidCa);
  for (const pem of certs) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ProxyError(SCAN_TRAFFIC_MESSAGES.invalidCa);
    }
  }
  return certs.join('\n');
}

/**
 * The proxy an operator or a CLI run names (PORTCULLIS_PROXY and PORTCULLIS_PROXY_CA, --proxy and
 * --proxy-ca): the URL checked, the CA file read and checked. Null when no URL is given; throws
 * ProxyError with what to fix (the URL's password never in it).
 */
export function proxyFromOptions(input: { url: string | undefined; caFile: string | undefined; source: string; caSource: string }): ScanProxy | null {
  const raw = input.url?.trim();
  if (!raw) {
    if (input.caFile?.trim()) throw new ProxyError(`${input.caSource} names a CA file, but no proxy is set (${input.source}).`);
    return null;
  }
  const checked = checkProxyUrl(raw);
  if (!checked.ok) throw new ProxyError(`${input.source}: ${checked.message}`);
  let ca: string | null = null;
  if (input.caFile?.trim()) {
    let text: string;
    try {
      text = fs.readFileSync(input.caFile.trim(), 'utf8');
    } catch (err) {
      throw new ProxyError(`${input.caSource}: cannot read ${input.caFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
    }
    try {
      ca = checkProxyCa(text);
    } catch (err) {
      throw new ProxyError(`${input.caSource}: ${(err as Error).message}`);
    }
  }
  return { url: raw, ca, source: input.source, guarded: false };
}

/** Where the user changes the proxy, for a message that says what to do. */
function whereToFix(proxy: ScanProxy): string {
  return `check it in ${proxy.source}, or remove it to scan directly`;
}

/**
 * Connects to the proxy (TCP, and TLS for an https:// proxy) and closes the connection: resolves when
 * the proxy can be reached, throws ProxyError with the reason in words when it cannot. The URL in the
 * message has its password masked.
 */
export async function checkProxyReachable(proxy: ScanProxy, timeoutMs: number, tlsVerify: boolean): Promise<void> {
  const checked = checkProxyUrl(proxy.url);
  if (!checked.ok) throw new ProxyError(`The scan's proxy is not valid (${proxy.source}): ${checked.message}`);
  const url = checked.url;
  const shown = maskProxyUrl(proxy.url);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const ca = trusted(proxy.ca);
  await new Promise<void>((resolve, reject) => {
    const options = { host, port, ...(proxy.guarded ? { lookup: publicOnlyLookup } : {}) };
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ ...options, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: tlsVerify, ...(ca ? { ca } : {}) })
        : net.connect(options);
    const timer = setTimeout(() => fail(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })), timeoutMs);
    timer.unref?.();
    function done(): void {
      clearTimeout(timer);
      socket.destroy();
    }
    function fail(err: NodeJS.ErrnoException): void {
      done();
      reject(new ProxyError(`The scan's proxy ${shown} could not be reached (${reasonOf(err, timeoutMs)}), so no request was sent: ${whereToFix(proxy)}.`));
    }
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      done();
      resolve();
    });
    socket.once('error', fail);
  });
}

function reasonOf(err: NodeJS.ErrnoException, timeoutMs: number): string {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens on that port';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name could not be resolved';
  if (code === 'ETIMEDOUT') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  if (code === 'EPORTCULLIS_LOCAL') return 'it resolves to a local address, which this server does not reach';
  if (code.startsWith('ERR_TLS') || code.includes('CERT')) return `TLS error ${code}: trust its certificate with the CA file`;
  return code || err.message;
}
