// Scan traffic (issue 27, item 4): the upstream proxy a scan's requests go through (Burp, ZAP, a
// corporate egress proxy), how its address is checked and shown without its password, the pace a
// scan may ask for, and the bounds of the traffic a scan keeps (downloadable as HAR 1.2).

/** What a scan may ask for: requests per second (0 = no cap) and requests in flight. The server enforces the same bounds. */
export const SCAN_PACE_LIMITS = {
  rps: { min: 0, max: 1000 },
  concurrency: { min: 1, max: 64 },
} as const;

export const PACE_MESSAGES = {
  rps: `Requests per second must be a whole number from ${SCAN_PACE_LIMITS.rps.min} (no cap) to ${SCAN_PACE_LIMITS.rps.max}.`,
  concurrency: `Requests in flight must be a whole number from ${SCAN_PACE_LIMITS.concurrency.min} to ${SCAN_PACE_LIMITS.concurrency.max}.`,
} as const;

/**
 * The traffic a scan keeps: the last `maxEntries` requests (each attempt, each redirect hop), as long
 * as their bodies add up to at most `maxHeldBytes` while the scan runs; in the HAR each body is cut at
 * `maxBodyChars` characters after redaction. Older requests are dropped first; the HAR says how many.
 */
export const TRAFFIC_LIMITS = {
  maxEntries: 5_000,
  maxHeldBytes: 24 * 1024 * 1024,
  maxBodyChars: 64 * 1024,
} as const;

/** Longest proxy URL and CA file accepted. */
export const PROXY_LIMITS = {
  urlMax: 2048,
  caMaxBytes: 256 * 1024,
} as const;

export const PROXY_SCHEMES = ['http:', 'https:'] as const;

/** What stands for a proxy password wherever the URL is shown. */
export const PROXY_PASSWORD_MASK = '****';

export const SCAN_TRAFFIC_MESSAGES = {
  saved: 'Scan traffic settings saved successfully.',
  harDownloaded: 'Traffic downloaded successfully!',
  harFailed: (reason: string) => `Error downloading traffic: ${reason}`,
  harFallback: 'Failed to download traffic.',
  harNotEnded: (status: string) => `This scan is ${status}: its traffic can be downloaded once it has ended.`,
  harNone: 'No traffic was kept for this scan: it ended before sending a request, or it ran before traffic was recorded.',
  invalidCa: 'The CA file is not a PEM certificate: paste the proxy\'s CA certificate (-----BEGIN CERTIFICATE----- ...), as Burp or ZAP exports it.',
} as const;

export type ProxyUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Checks a proxy URL: http:// or https://, a host, an optional port and user:password, nothing else
 * (no path, query or fragment). The message says what to fix; it never repeats the URL (a password).
 */
export function checkProxyUrl(raw: string): ProxyUrlCheck {
  const text = raw.trim();
  if (!text) return { ok: false, message: 'The proxy URL is empty: give one like http://127.0.0.1:8080, or remove the proxy.' };
  if (text.length > PROXY_LIMITS.urlMax) return { ok: false, message: `The proxy URL is too long (at most ${PROXY_LIMITS.urlMax} characters).` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'The proxy URL is not a valid URL: give one like http://127.0.0.1:8080 (Burp, ZAP) or http://user:password@proxy.example:3128.' };
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(url.protocol)) {
    return { ok: false, message: `The proxy URL must start with http:// or https:// (got ${url.protocol.replace(/:$/, '')}://): an HTTP proxy such as Burp, ZAP or Squid.` };
  }
  if (!url.hostname) return { ok: false, message: 'The proxy URL has no host: give one like http://127.0.0.1:8080.' };
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) {
    return { ok: false, message: 'The proxy URL must be only scheme, host and port (with an optional user:password@): remove the path, query or fragment.' };
  }
  return { ok: true, url };
}

/** The proxy URL as it may be shown or logged: the password (if any) replaced by ****, no trailing slash. */
export function maskProxyUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return '(an invalid proxy URL)';
  }
  if (url.password) url.password = PROXY_PASSWORD_MASK;
  return url.href.replace(/\/$/, '');
}

/** The proxy URL without its password (the user name stays): what the Settings form shows to edit. */
export function proxyUrlWithoutPassword(raw: string): string {
  const url = new URL(raw.trim());
  url.password = '';
  return url.href.replace(/\/$/, '');
}

/** The PEM certificate blocks of a text (a CA file), in order; [] when there is none. */
export function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
