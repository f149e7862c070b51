// Which addresses count as "local" (loopback, private, link-local, unique-local...), and the guards
// that keep a team server from being aimed at its own network: a check of the resolved address
// before a scan starts, and a DNS lookup for the HTTP client that refuses such addresses while the
// scan runs (a host that resolved to a public address at start can be re-pointed: DNS rebinding).

import dns from 'node:dns';
import net from 'node:net';

const blocked = new net.BlockList();
// IPv4: "this network", private, CGNAT, loopback, link-local, IETF protocol, benchmarking,
// multicast, reserved and broadcast.
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
// IPv6: unspecified, loopback, unique-local, link-local, site-local (deprecated), multicast.
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
blocked.addSubnet('fc00::', 7, 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addSubnet('fec0::', 10, 'ipv6');
blocked.addSubnet('ff00::', 8, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, if it is one. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1]!;
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True for loopback, private, link-local, unique-local, unspecified and multicast addresses. */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return false;
}

export class LocalTargetError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a local address`);
    this.name = 'LocalTargetError';
  }
}

export class UnresolvableHostError extends Error {
  constructor(readonly host: string) {
    super(`The host ${host} could not be resolved`);
    this.name = 'UnresolvableHostError';
  }
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => {
  const results = await dns.promises.lookup(host, { all: true, verbatim: true });
  return results.map((r) => r.address);
};

/**
 * Resolves the host and throws LocalTargetError when any of its addresses is local (the client may
 * pick any of them), UnresolvableHostError when it has none.
 */
export async function assertPublicHost(hostname: string, resolve: Resolver = systemResolver): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (isLocalAddress(host)) throw new LocalTargetError(hostname, host);
    return;
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new UnresolvableHostError(hostname);
  }
  if (addresses.length === 0) throw new UnresolvableHostError(hostname);
  const local = addresses.find(isLocalAddress);
  if (local) throw new LocalTargetError(hostname, local);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that refuses local addresses: the HTTP client of a scan uses it
 * when local scans are off, so the check holds for every connection, not only at start.
 */
export function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const local = list.find((a) => isLocalAddress(a.address));
    if (local) {
      const e = new LocalTargetError(hostname, local.address) as unknown as NodeJS.ErrnoException;
      e.code = 'EPORTCULLIS_LOCAL';
      return callback(e, '', 0);
    }
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  });
}
