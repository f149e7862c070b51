import { describe, expect, it } from 'vitest';
import { assertPublicHost, isLocalAddress, LocalTargetError, UnresolvableHostError } from './net-guard';
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

describe('resolved-address check', () => {
  it('checks what a name resolves to, not the name', async () => {
    await expect(assertPublicHost('innocent.example', async () => ['93.184.216.34', '10.0.0.5'])).rejects.toBeInstanceOf(LocalTargetError);
    await expect(assertPublicHost('innocent.example', async () => ['93.184.216.34'])).resolves.toBeUndefined();
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
    expect(await checkScanTarget('https://api.example', false, async () => ['203.0.113.10'])).toMatchObject({ ok: true });
  });
});
