import { describe, expect, it } from 'vitest';
import { assertPublicHost, embeddedIpv4, isLocalAddress, LocalTargetError, refusalReason, UnresolvableHostError } from './net-guard';
import { checkScanTarget } from './target';

describe('local addresses', () => {
  it.each(['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::1]', '224.0.0.1'])(
    '%s is local',
    (a) => expect(isLocalAddress(a)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', 'example.com'])('%s is not', (a) =>
    expect(isLocalAddress(a)).toBe(false),
  );
});

describe('special-purpose ranges and IPv4 carried in IPv6 (issue 18)', () => {
  // One address inside each IANA special-purpose range (IPv4 and IPv6), its edges where a mask is
  // easy to get wrong, and every way an IPv6 address carries a local IPv4 one.
  const refused = [
    // IPv4 special-purpose registry
    ['0.1.2.3', '"this network"'],
    ['10.255.255.255', 'private-use'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private-use'],
    ['172.31.255.255', 'private-use'],
    ['192.0.0.9', 'IETF protocol assignments'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.0.1', 'private-use'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.10', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6 special-purpose registry
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['2001:2::1', 'IETF protocol assignments'],
    ['2001:db8::1', 'documentation'],
    ['2002:808:808::1', '6to4'],
    ['3fff::1', 'documentation'],
    ['3fff:fff:ffff::1', 'documentation'],
    ['5f00::1', 'SRv6'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'outside global unicast'],
    // IPv4 carried in IPv6: the embedded address is judged
    ['::7f00:1', 'IPv4-compatible address of 127.0.0.1'],
    ['[::127.0.0.1]', 'IPv4-compatible address of 127.0.0.1'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped address of 127.0.0.1'],
    ['::ffff:7f00:1', 'IPv4-mapped address of 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped address of 169.254.169.254'],
    ['::ffff:192.0.2.1', 'IPv4-mapped address of 192.0.2.1'],
    ['[::ffff:0:7f00:1]', 'IPv4-translated (SIIT) address of 127.0.0.1'],
    ['::ffff:0:808:808', 'IPv4-translated (SIIT)'],
    ['[64:ff9b::7f00:1]', 'NAT64 address of 127.0.0.1'],
    ['64:ff9b::10.0.0.1', 'NAT64 address of 10.0.0.1'],
    ['64:ff9b::c000:201', 'NAT64 address of 192.0.2.1'],
    ['64:ff9b:1:7f00:0:100::', 'local-use NAT64 /48 address of 127.0.0.1'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['[2002:7f00:1::1]', '6to4 address of 127.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 address of 169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo address of 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo address of 192.0.2.45'],
    ['2001::1', 'Teredo'],
  ] as const;
  it.each(refused)('%s is refused: %s', (address, why) => {
    expect(isLocalAddress(address)).toBe(true);
    expect(refusalReason(address)).toContain(why);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '100.128.0.1', '172.32.0.1', '192.0.1.255', '192.0.3.0', '198.20.0.1', '223.255.255.255', '2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e', '2620:fe::fe', '::ffff:93.184.215.14', '::ffff:5db8:d70e', '64:ff9b::93.184.215.14', '64:ff9b::808:808'])(
    '%s may be scanned',
    (address) => {
      expect(refusalReason(address)).toBeNull();
      expect(isLocalAddress(address)).toBe(false);
    },
  );

  it('decodes every IPv4 embedding', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('::127.0.0.1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('::ffff:0:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('64:ff9b::7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('2002:7f00:1::1')).toEqual(['127.0.0.1']);
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (stored inverted).
    expect(embeddedIpv4('2001:0000:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['192.0.2.45']);
    expect(embeddedIpv4('2606:4700::1111')).toEqual([]);
    expect(embeddedIpv4('127.0.0.1')).toEqual([]);
  });

  it('refuses such hosts by address and by what a name resolves to', async () => {
    await expect(assertPublicHost('[::7f00:1]')).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('[64:ff9b::7f00:1]')).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('rebound.example', async () => ['2606:4700::1111', '2002:7f00:1::1'])).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('docs.example', async () => ['198.51.100.7'])).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('public.example', async () => ['93.184.215.14', '2606:4700::1111'])).resolves.toBeUndefined();
  });

  it('refuses them in a URL as the WHATWG parser writes it', async () => {
    for (const base of ['http://[::127.0.0.1]:8080/', 'http://[::ffff:0:127.0.0.1]/', 'http://[64:ff9b::127.0.0.1]/', 'http://[2002:7f00:1::1]/', 'http://192.0.2.1/', 'http://0x7f.1/']) {
      expect(await checkScanTarget(base, false), base).toMatchObject({ ok: false, status: 403 });
    }
  });
});

describe('resolved-address check', () => {
  it('checks what a name resolves to, not the name', async () => {
    await expect(assertPublicHost('innocent.example', async () => ['93.184.216.34', '10.0.0.5'])).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('innocent.example', async () => ['93.184.215.14'])).resolves.toBeUndefined();
    await expect(assertPublicHost('nowhere.example', async () => [])).rejects.toBeInstanceOf(UnresolvableHostError);
    await expect(assertPublicHost('localhost')).rejects.toBeInstanceOf(LocalTargetError);
  });

  it('gives the route its status and message', async () => {
    expect(await checkScanTarget('http://127.0.0.1:3000/api', false)).toEqual({
      ok: false,
      status: 403,
      message: 'Scans for local APIs are disabled in this environment',
    });
    expect((await checkScanTarget('http://127.0.0.1:3000/api', true)).ok).toBe(true);
    expect(await checkScanTarget('ftp://example.com', true)).toMatchObject({ ok: false, status: 400 });
    expect(await checkScanTarget('/relative', true)).toMatchObject({ ok: false, status: 400 });
    expect(await checkScanTarget('https://api.example', false, async () => ['93.184.215.14'])).toMatchObject({ ok: true });
  });
});
