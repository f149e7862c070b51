import { describe, expect, it } from 'vitest';
import { parseTrustProxyList, trustedProxies, TrustProxyError } from './trusted-proxies';

describe('trustedProxies', () => {
  it('with no trusted proxy takes the socket peer and ignores the header', () => {
    const client = trustedProxies([]);
    expect(client({ peer: '127.0.0.1', forwardedFor: '203.0.113.7' })).toBe('127.0.0.1');
    expect(client({ peer: '::ffff:127.0.0.1', forwardedFor: '203.0.113.7' })).toBe('127.0.0.1');
    expect(client({ peer: undefined, forwardedFor: undefined })).toBe('unknown');
  });

  it('takes the rightmost forwarded address that is not a trusted proxy', () => {
    const client = trustedProxies(['10.0.0.0/8', '192.168.1.5']);
    expect(client({ peer: '10.1.2.3', forwardedFor: '203.0.113.7' })).toBe('203.0.113.7');
    // A client-sent value sits left of what the balancers appended.
    expect(client({ peer: '10.1.2.3', forwardedFor: '6.6.6.6, 203.0.113.7, 192.168.1.5' })).toBe('203.0.113.7');
    // Every hop trusted: the leftmost address is the client.
    expect(client({ peer: '10.1.2.3', forwardedFor: '10.9.9.9, 192.168.1.5' })).toBe('10.9.9.9');
    // No header: the proxy itself.
    expect(client({ peer: '10.1.2.3', forwardedFor: undefined })).toBe('10.1.2.3');
  });

  it('ignores the header of a peer it does not trust', () => {
    const client = trustedProxies(['10.0.0.0/8']);
    expect(client({ peer: '198.51.100.1', forwardedFor: '203.0.113.7' })).toBe('198.51.100.1');
    expect(client({ peer: '11.0.0.1', forwardedFor: '10.0.0.1' })).toBe('11.0.0.1');
  });

  it('matches IPv6 ranges, and IPv4 ranges for IPv4-mapped IPv6 peers', () => {
    const client = trustedProxies(['fd00::/8', '127.0.0.0/8']);
    expect(client({ peer: 'fd12::1', forwardedFor: '2001:db8::42' })).toBe('2001:db8::42');
    expect(client({ peer: '::ffff:127.0.0.1', forwardedFor: '203.0.113.7' })).toBe('203.0.113.7');
    expect(client({ peer: 'fd12::1', forwardedFor: '::ffff:203.0.113.7' })).toBe('203.0.113.7');
    expect(client({ peer: 'fe80::1', forwardedFor: '203.0.113.7' })).toBe('fe80::1');
    expect(trustedProxies(['loopback'])({ peer: '::1', forwardedFor: '2001:db8::9' })).toBe('2001:db8::9');
  });

  it('never takes something that is not an address: the trusted hop that passed it on stands in', () => {
    const client = trustedProxies(['10.0.0.0/8']);
    expect(client({ peer: '10.0.0.2', forwardedFor: 'not-an-ip' })).toBe('10.0.0.2');
    expect(client({ peer: '10.0.0.2', forwardedFor: '203.0.113.7, "x=1\nINFO forged", 10.0.0.3' })).toBe('10.0.0.3');
    expect(client({ peer: '10.0.0.2', forwardedFor: '2130706433' })).toBe('10.0.0.2');
  });

  it('refuses entries that are not addresses or CIDR ranges', () => {
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'example.com', '10.0.0.0/8/1', '10.0.0.0/255.0.0.0', '']) {
      expect(() => trustedProxies([bad]), bad).toThrow(TrustProxyError);
    }
    expect(() => trustedProxies(['10.0.0.0/8', '::1', 'uniquelocal', '2001:db8::/32'])).not.toThrow();
  });

  it('reads lists separated by commas or spaces', () => {
    expect(parseTrustProxyList(['10.0.0.0/8, fd00::/8', ' 127.0.0.1 '])).toEqual(['10.0.0.0/8', 'fd00::/8', '127.0.0.1']);
    expect(parseTrustProxyList([''])).toEqual([]);
  });
});
