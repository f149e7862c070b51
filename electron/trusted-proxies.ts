// Who is calling the team server when it sits behind a load balancer: the socket peer, unless that peer
// is a proxy the administrator trusts (`--trust-proxy`), then the address that proxy saw, read from
// X-Forwarded-For. proxy-addr (Express's) walks the header from the right and stops at the first
// address that is not itself trusted, so a client cannot choose its own key by sending the header.

import net from 'node:net';
import proxyaddr from 'proxy-addr';

/** What the HTTP transport knows of a request: its socket peer and the X-Forwarded-For header. */
export interface PeerRequest {
  peer: string | undefined;
  forwardedFor: string | undefined;
}

export type TrustedProxies = (req: PeerRequest) => string;

/** Named ranges proxy-addr knows, accepted next to addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export class TrustProxyError extends Error {
  constructor(entry: string) {
    super(`"${entry}" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or one of loopback, linklocal, uniquelocal.`);
    this.name = 'TrustProxyError';
  }
}

/** Splits `--trust-proxy` values and PORTCULLIS_TRUST_PROXY on commas and spaces. */
export function parseTrustProxyList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
}

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d: one client, one key, whichever socket. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped && net.isIPv4(mapped[1]!) ? mapped[1]! : address;
}

/**
 * The client address of a request. With no trusted proxies the socket peer, always. Otherwise the
 * rightmost X-Forwarded-For address that is not itself a trusted proxy; an entry there that is not an
 * address at all (a proxy that passed garbage on) yields the trusted hop that handed it over.
 */
export function trustedProxies(list: readonly string[]): TrustedProxies {
  if (!list.length) return ({ peer }) => normalize(peer ?? 'unknown');
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const valid =
      NAMED_RANGES.has(entry) ||
      (extra === undefined && net.isIP(address ?? '') !== 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (net.isIPv4(address!) ? 32 : 128))));
    if (!valid) throw new TrustProxyError(entry);
  }
  const trust = proxyaddr.compile([...list]);
  return ({ peer, forwardedFor }) => {
    if (!peer) return 'unknown';
    const chain = proxyaddr.all({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as never, trust);
    const client = chain[chain.length - 1]!;
    return normalize(net.isIP(client) ? client : chain[chain.length - 2]!);
  };
}
