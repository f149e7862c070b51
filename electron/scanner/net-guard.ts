// Which addresses count as "local" (loopback, private, link-local, unique-local, documentation and
// the other IANA special-purpose ranges, and IPv6 addresses carrying such an IPv4 one), and the guards
// that keep a team server from being aimed at its own network: a check of the resolved address
// before a scan starts, and a DNS lookup for the HTTP client that refuses such addresses while the
// scan runs (a host that resolved to a public address at start can be re-pointed: DNS rebinding).

import dns from 'node:dns';
import net from 'node:net';

// The decision is table-driven rather than a net.BlockList: a BlockList matches prefixes but does
// not decode the IPv4 address that NAT64, 6to4, Teredo, SIIT and IPv4-compatible addresses carry,
// and that decoding is where an SSRF guard is usually bypassed ([::7f00:1], [64:ff9b::7f00:1]...).

type Bytes = readonly number[];

interface SpecialRange {
  readonly prefix: Bytes;
  readonly bits: number;
  readonly name: string;
}

function range(prefix: string, bits: number, name: string): SpecialRange {
  const bytes = parseIp(prefix);
  if (!bytes) throw new Error(`bad prefix ${prefix}`);
  return { prefix: bytes, bits, name };
}

/**
 * IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), every entry refused whatever
 * its "globally reachable" column says: a scan has no business with any of them.
 */
const IPV4_SPECIAL: readonly SpecialRange[] = [
  range('0.0.0.0', 8, '"this network"'),
  range('10.0.0.0', 8, 'private-use'),
  range('100.64.0.0', 10, 'shared address space (CGNAT)'),
  range('127.0.0.0', 8, 'loopback'),
  range('169.254.0.0', 16, 'link-local'),
  range('172.16.0.0', 12, 'private-use'),
  range('192.0.0.0', 24, 'IETF protocol assignments'),
  range('192.0.2.0', 24, 'documentation (TEST-NET-1)'),
  range('192.88.99.0', 24, '6to4 relay anycast'),
  range('192.168.0.0', 16, 'private-use'),
  range('198.18.0.0', 15, 'benchmarking'),
  range('198.51.100.0', 24, 'documentation (TEST-NET-2)'),
  range('203.0.113.0', 24, 'documentation (TEST-NET-3)'),
  range('224.0.0.0', 4, 'multicast'),
  range('240.0.0.0', 4, 'reserved'),
  range('255.255.255.255', 32, 'limited broadcast'),
];

/**
 * IANA IPv6 Special-Purpose Address Registry, plus the deprecated ranges that still parse. The two
 * translation prefixes (IPv4-mapped ::ffff:0:0/96 and NAT64's 64:ff9b::/96) are not here: an
 * address in them is the IPv4 address it carries (DNS64 answers 64:ff9b::/96 for every IPv4-only
 * site on an IPv6-only network), so it is judged by that address alone.
 */
const IPV6_SPECIAL: readonly SpecialRange[] = [
  range('::', 128, 'unspecified'),
  range('::1', 128, 'loopback'),
  range('::', 96, 'IPv4-compatible (deprecated)'),
  range('::ffff:0:0:0', 96, 'IPv4-translated (SIIT)'),
  range('64:ff9b:1::', 48, 'local-use NAT64'),
  range('100::', 64, 'discard-only'),
  range('2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID...)'),
  range('2001:db8::', 32, 'documentation'),
  range('2002::', 16, '6to4'),
  range('3fff::', 20, 'documentation'),
  range('5f00::', 16, 'segment routing (SRv6) SIDs'),
  range('fc00::', 7, 'unique-local'),
  range('fe80::', 10, 'link-local'),
  range('fec0::', 10, 'site-local (deprecated)'),
  range('ff00::', 8, 'multicast'),
];

/** Global unicast, the only IPv6 space IANA hands out for the public Internet. */
const IPV6_GLOBAL_UNICAST = range('2000::', 3, 'global unicast');

/** Prefixes whose addresses stand for the IPv4 address they carry, and nothing else. */
const IPV6_TRANSLATION = [range('::ffff:0:0', 96, 'IPv4-mapped'), range('64:ff9b::', 96, 'NAT64')];

interface Embedding {
  readonly within: SpecialRange;
  /** The IPv4 bytes the address carries. */
  readonly extract: (b: Bytes) => Bytes;
}

const last32 = (b: Bytes): Bytes => b.slice(12, 16);

/** Every way an IPv6 address carries an IPv4 one (RFC 4291, 6052, 6145, 3056, 4380). */
const IPV4_EMBEDDINGS: readonly Embedding[] = [
  { within: range('::ffff:0:0', 96, 'IPv4-mapped'), extract: last32 },
  { within: range('::', 96, 'IPv4-compatible'), extract: last32 },
  { within: range('::ffff:0:0:0', 96, 'IPv4-translated (SIIT)'), extract: last32 },
  { within: range('64:ff9b::', 96, 'NAT64'), extract: last32 },
  // Local-use NAT64 (RFC 8215) may use any RFC 6052 prefix length; /48 and /96 are the usual ones.
  { within: range('64:ff9b:1::', 48, 'local-use NAT64 /48'), extract: (b) => [b[6]!, b[7]!, b[9]!, b[10]!] },
  { within: range('64:ff9b:1::', 48, 'local-use NAT64 /96'), extract: last32 },
  { within: range('2002::', 16, '6to4'), extract: (b) => b.slice(2, 6) },
  // Teredo: the client's address is the last 32 bits, inverted.
  { within: range('2001::', 32, 'Teredo'), extract: (b) => last32(b).map((x) => x ^ 0xff) },
];

function inRange(bytes: Bytes, r: SpecialRange): boolean {
  if (bytes.length !== r.prefix.length) return false;
  let bits = r.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (r.prefix[i]! & mask)) return false;
  }
  return true;
}

function parseIpv4(text: string): number[] {
  return text.split('.').map(Number);
}

/** 4 bytes for an IPv4 address, 16 for an IPv6 one (zone and brackets removed), null otherwise. */
function parseIp(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return parseIpv4(bare);
  if (family !== 6) return null;
  let text = bare.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = parseIpv4(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groupsOf = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const groups = tail === undefined ? left : [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

const cidr = (r: SpecialRange) => `${formatIp(r.prefix)}/${r.bits}`;

function formatIp(bytes: Bytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The IPv4 addresses an IPv6 address carries, one per embedding it matches ([] for none). */
export function embeddedIpv4(address: string): string[] {
  const bytes = parseIp(address);
  if (!bytes || bytes.length !== 16) return [];
  return IPV4_EMBEDDINGS.filter((e) => inRange(bytes, e.within)).map((e) => formatIp(e.extract(bytes)));
}

function ipv4Refusal(bytes: Bytes): string | null {
  const hit = IPV4_SPECIAL.find((r) => inRange(bytes, r));
  return hit ? `${hit.name} (${cidr(hit)})` : null;
}

/**
 * Why a scan may not reach this address where local scans are off, or null when it may. Refused:
 * every IPv4 and IPv6 special-purpose range, any IPv6 address outside global unicast, and any IPv6
 * address whose embedded IPv4 address is refused. Host names are not judged here (null): resolve
 * them first.
 */
export function refusalReason(address: string): string | null {
  const bytes = parseIp(address);
  if (!bytes) return null;
  if (bytes.length === 4) return ipv4Refusal(bytes);
  const exact = IPV6_SPECIAL.find((r) => r.bits === 128 && inRange(bytes, r));
  if (exact) return `${exact.name} (${cidr(exact)})`;
  for (const e of IPV4_EMBEDDINGS) {
    if (!inRange(bytes, e.within)) continue;
    const v4 = e.extract(bytes);
    const why = ipv4Refusal(v4);
    if (why) return `${e.within.name} address of ${formatIp(v4)}, ${why}`;
  }
  if (IPV6_TRANSLATION.some((r) => inRange(bytes, r))) return null;
  const hit = IPV6_SPECIAL.find((r) => inRange(bytes, r));
  if (hit) return `${hit.name} (${cidr(hit)})`;
  if (!inRange(bytes, IPV6_GLOBAL_UNICAST)) return `outside global unicast (${cidr(IPV6_GLOBAL_UNICAST)})`;
  return null;
}

/**
 * True for every address a scan may not reach where local scans are off: loopback, private,
 * link-local, unique-local, documentation and the other special-purpose ranges, and IPv6 addresses
 * that carry such an IPv4 address. The one decision for scan create, scan start and connect.
 */
export function isLocalAddress(address: string): boolean {
  return refusalReason(address) !== null;
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

/**
 * The guard for requests that go through a proxy, which resolves the target's name itself (so the
 * connect-time lookup above never sees it): each host is resolved here and refused when any of its
 * addresses is local, the verdict kept for `ttlMs`. The proxy's own resolution can still differ (DNS
 * rebinding between the two lookups): docs/decisions.md says what that leaves open.
 */
export class ProxiedHostGuard {
  private readonly verdicts = new Map<string, { until: number; error: NodeJS.ErrnoException | null }>();

  constructor(
    private readonly resolve: Resolver = systemResolver,
    private readonly ttlMs = 10_000,
  ) {}

  /** Resolves when the host may be reached; rejects with code EPORTCULLIS_LOCAL (or ENOTFOUND) when not. */
  async check(hostname: string): Promise<void> {
    const host = hostname.toLowerCase();
    const now = performance.now();
    let verdict = this.verdicts.get(host);
    if (!verdict || verdict.until < now) {
      let error: NodeJS.ErrnoException | null = null;
      try {
        await assertPublicHost(host, this.resolve);
      } catch (err) {
        error = Object.assign(new Error((err as Error).message), { code: err instanceof LocalTargetError ? 'EPORTCULLIS_LOCAL' : 'ENOTFOUND' });
      }
      verdict = { until: now + this.ttlMs, error };
      this.verdicts.set(host, verdict);
    }
    if (verdict.error) throw verdict.error;
  }
}
