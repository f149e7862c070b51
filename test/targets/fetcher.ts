// The target's server-side URL fetcher (link previews, avatar import). The hardened policy refuses
// internal addresses and re-checks every redirect; the ssrf, ssrf-file and follow-redirects flaws
// each remove one part of that. Independently of any flaw, an egress sandbox lets the target
// connect to loopback only: anything else is recorded as attempted and fails, so no payload ever
// sends a packet off this machine and no host name is ever resolved.

import fs from 'node:fs/promises';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { FlawId } from './flaws';

export interface OutboundRecord {
  time: number;
  /** The feature that fetched: link-preview, avatar... */
  feature: string;
  url: string;
  /** fetched: a connection was made (or a file read); refused: the URL policy said no;
   * egress-blocked: a non-loopback destination the sandbox stopped; error: the fetch failed. */
  outcome: 'fetched' | 'refused' | 'egress-blocked' | 'error';
  status?: number;
  detail?: string;
}

/** Every URL the target tried (or refused) to fetch. */
export class OutboundLog {
  private records: OutboundRecord[] = [];
  add(r: OutboundRecord): void {
    this.records.push(r);
  }
  all(): readonly OutboundRecord[] {
    return this.records;
  }
  filter(f?: (r: OutboundRecord) => boolean): OutboundRecord[] {
    return f ? this.records.filter(f) : [...this.records];
  }
  count(f?: (r: OutboundRecord) => boolean): number {
    return this.filter(f).length;
  }
  reset(): void {
    this.records = [];
  }
}

export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export class FetchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchFailed';
  }
}

export interface FetchResult {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  body: Buffer;
  redirects: string[];
}

const MAX_BYTES = 256 * 1024;
const MAX_HOPS = 5;

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}

const V4_INTERNAL: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
];

function v4Internal(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_INTERNAL.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0;
  });
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** IPv4 inside an IPv4-mapped IPv6 address, in either dotted or hex form. */
function mappedV4(ip6: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip6);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip6);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for loopback, private, link-local, reserved addresses and internal-looking names. */
export function isInternalHost(hostname: string): boolean {
  const h = bare(hostname);
  const kind = net.isIP(h);
  if (kind === 4) return v4Internal(h);
  if (kind === 6) {
    const v4 = mappedV4(h);
    if (v4) return v4Internal(v4);
    return h === '::' || h === '::1' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
  }
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal') || h === 'metadata';
}

function isLoopback(hostname: string): boolean {
  const h = bare(hostname);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  const v4 = mappedV4(h);
  return h === '::1' || (v4 !== undefined && v4.startsWith('127.'));
}

/**
 * Origins the hardened policy trusts: exact origins ("http://127.0.0.1:4567"), or a host with any
 * port ("http://127.0.0.1:*"), which never covers the target's own origin.
 */
export class FetchAllowlist {
  private readonly exact = new Set<string>();
  private readonly anyPort = new Set<string>();
  /** The target's own origin, set once it listens. */
  self = '';

  add(entry: string): void {
    const m = /^(https?):\/\/([^/]+):\*\/?$/.exec(entry.trim());
    if (m) this.anyPort.add(`${m[1]}://${m[2]!.toLowerCase()}`);
    else this.exact.add(new URL(entry).origin);
  }

  has(url: URL): boolean {
    if (this.exact.has(url.origin)) return true;
    return url.origin !== this.self && this.anyPort.has(`${url.protocol}//${url.hostname}`);
  }
}

export class UrlFetcher {
  private readonly agent = new Agent({ keepAliveTimeout: 1000, connections: 16 });

  constructor(
    private readonly has: (id: FlawId) => boolean,
    private readonly allowlist: FetchAllowlist,
    private readonly log: OutboundLog,
  ) {}

  /** `internal`: the calling feature's own policy for internal addresses (else the ssrf flaw decides). */
  private allowed(url: URL, internal?: boolean): boolean {
    if (internal ?? this.has('ssrf')) return true;
    if (this.allowlist.has(url)) return true;
    return !isInternalHost(url.hostname);
  }

  async fetch(raw: string, feature: string, policy: { internal?: boolean } = {}): Promise<FetchResult> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new FetchRefused('The URL is not valid.');
    }
    if (url.protocol === 'file:') {
      if (policy.internal !== undefined || !this.has('ssrf-file')) {
        this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'refused', detail: 'scheme' });
        throw new FetchRefused('Only http and https URLs are allowed.');
      }
      return this.readFile(url, feature);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'refused', detail: 'scheme' });
      throw new FetchRefused('Only http and https URLs are allowed.');
    }
    if (!this.allowed(url, policy.internal)) {
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'refused', detail: 'internal address' });
      throw new FetchRefused('The URL is not allowed.');
    }
    const redirects: string[] = [];
    for (let hop = 0; ; hop++) {
      const res = await this.get(url, feature);
      const location = res.status >= 300 && res.status < 400 ? res.location : undefined;
      if (!location || hop >= MAX_HOPS) {
        return { url: raw, finalUrl: url.href, status: res.status, contentType: res.contentType, body: res.body, redirects };
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new FetchFailed('The server sent an invalid redirect.');
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new FetchFailed('Redirect to an unsupported scheme.');
      // The hardened fetcher holds every hop to the policy of the first URL.
      if (!this.has('follow-redirects') && !this.allowed(next, policy.internal)) {
        this.log.add({ time: Date.now(), feature, url: next.href, outcome: 'refused', detail: 'redirect to an internal address' });
        throw new FetchRefused('The URL redirects to an address that is not allowed.');
      }
      redirects.push(next.href);
      url = next;
    }
  }

  private async readFile(url: URL, feature: string): Promise<FetchResult> {
    try {
      const fh = await fs.open(fileURLToPath(url), 'r');
      try {
        const buf = Buffer.alloc(MAX_BYTES);
        const { bytesRead } = await fh.read(buf, 0, MAX_BYTES, 0);
        this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'fetched', status: 200 });
        return { url: url.href, finalUrl: url.href, status: 200, contentType: 'text/plain', body: buf.subarray(0, bytesRead), redirects: [] };
      } finally {
        await fh.close();
      }
    } catch (e) {
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'error', detail: (e as Error).message });
      throw new FetchFailed((e as Error).message);
    }
  }

  private async get(url: URL, feature: string): Promise<{ status: number; contentType: string; body: Buffer; location?: string }> {
    if (!isLoopback(url.hostname)) {
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'egress-blocked' });
      throw new FetchFailed(`connect ENETUNREACH ${url.host}`);
    }
    // Loopback names are connected by address: no resolver is ever asked.
    const target = new URL(url.href);
    const h = bare(url.hostname);
    if (h === 'localhost' || h.endsWith('.localhost')) target.hostname = '127.0.0.1';
    try {
      const res = await request(target, {
        method: 'GET',
        dispatcher: this.agent,
        headers: { host: url.host, 'user-agent': 'AcmeShop-Fetcher/2.4 (+https://acme-shop.test/bot)', accept: '*/*' },
        headersTimeout: 3000,
        bodyTimeout: 3000,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const b = chunk as Buffer;
        chunks.push(b);
        size += b.length;
        if (size >= MAX_BYTES) break;
      }
      if (size >= MAX_BYTES) res.body.destroy();
      const ct = res.headers['content-type'];
      const loc = res.headers.location;
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'fetched', status: res.statusCode });
      return {
        status: res.statusCode,
        contentType: (Array.isArray(ct) ? ct[0] : ct) ?? '',
        body: Buffer.concat(chunks).subarray(0, MAX_BYTES),
        location: Array.isArray(loc) ? loc[0] : loc,
      };
    } catch (e) {
      this.log.add({ time: Date.now(), feature, url: url.href, outcome: 'error', detail: (e as Error).message });
      throw new FetchFailed((e as Error).message);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
