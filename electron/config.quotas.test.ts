import { describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS, parseQuota, resolveConfig, resolveQuotas } from './config';

describe('per-user quotas in the configuration (issue 18, item 6)', () => {
  it('default by shell: moderate on a team server, generous on the desktop, none in the CLI', () => {
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, {}).quotas).toEqual({ apis: 200, endpoints: 100_000, bytes: 1024 ** 3 });
    expect(resolveConfig({ shell: 'desktop', dataDir: '/tmp/x' }, {}).quotas).toEqual(DEFAULT_QUOTAS.desktop);
    expect(DEFAULT_QUOTAS.desktop.endpoints).toBeGreaterThanOrEqual(1_000_000);
    expect(resolveConfig({ shell: 'cli', dataDir: '/tmp/x' }, {}).quotas).toEqual({ apis: 0, endpoints: 0, bytes: 0 });
  });

  it('reads PORTCULLIS_QUOTA_* with units for sizes, 0 and "unlimited" for no limit; options win', () => {
    const env = { PORTCULLIS_QUOTA_APIS: ' 50 ', PORTCULLIS_QUOTA_ENDPOINTS: 'Unlimited', PORTCULLIS_QUOTA_BYTES: '512MB' };
    expect(resolveQuotas('server', undefined, env)).toEqual({ apis: 50, endpoints: 0, bytes: 512 * 1024 ** 2 });
    expect(resolveQuotas('server', { apis: 7 }, env)).toEqual({ apis: 7, endpoints: 0, bytes: 512 * 1024 ** 2 });
    expect(resolveQuotas('desktop', undefined, { PORTCULLIS_QUOTA_BYTES: '' })).toEqual(DEFAULT_QUOTAS.desktop);
    expect(parseQuota('X', '0', true)).toBe(0);
    expect(parseQuota('X', '1073741824', true)).toBe(1024 ** 3);
    expect(parseQuota('X', '1 GB', true)).toBe(1024 ** 3);
    expect(parseQuota('X', '1.5g', true)).toBe(1.5 * 1024 ** 3);
    expect(parseQuota('X', '2kb', true)).toBe(2048);
  });

  it('refuses a value it cannot read instead of running without a limit', () => {
    expect(() => parseQuota('PORTCULLIS_QUOTA_APIS', 'lots', false)).toThrow('PORTCULLIS_QUOTA_APIS: "lots" is not a whole number, 0 or "unlimited" (no limit).');
    expect(() => parseQuota('PORTCULLIS_QUOTA_APIS', '10MB', false)).toThrow(/whole number/);
    expect(() => parseQuota('PORTCULLIS_QUOTA_APIS', '2.5', false)).toThrow(/whole number/);
    expect(() => parseQuota('PORTCULLIS_QUOTA_BYTES', '-1', true)).toThrow(/size in bytes/);
    expect(() => parseQuota('PORTCULLIS_QUOTA_BYTES', '5 parsecs', true)).toThrow(/size in bytes/);
    expect(() => resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, { PORTCULLIS_QUOTA_ENDPOINTS: 'ten' })).toThrow(/PORTCULLIS_QUOTA_ENDPOINTS/);
    expect(() => resolveQuotas('server', { bytes: -5 }, {})).toThrow(/bytes quota/);
  });
});
