import { describe, expect, it } from 'vitest';
import { OWASP_SCRYPT_COST, TEST_SCRYPT_COST, hashPassword, verifyPassword } from './accounts/passwords';
import { resolveConfig } from './config';

describe('password hashing cost', () => {
  it('is the OWASP cost unless a throwaway test server asks for the test cost', () => {
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, {}).scryptCost).toEqual(OWASP_SCRYPT_COST);
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, { PORTCULLIS_TEST_FAST_HASHING: '0' }).scryptCost).toEqual(OWASP_SCRYPT_COST);
    expect(resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, { PORTCULLIS_TEST_FAST_HASHING: '1' }).scryptCost).toEqual(TEST_SCRYPT_COST);
    expect(TEST_SCRYPT_COST.N).toBeLessThan(OWASP_SCRYPT_COST.N);
  });

  it('verifies a hash made at either cost, since the cost travels in the hash', async () => {
    const fast = await hashPassword('Sturdy-pass-9', TEST_SCRYPT_COST);
    expect(fast.startsWith(`scrypt$${TEST_SCRYPT_COST.N}$`)).toBe(true);
    expect(await verifyPassword('Sturdy-pass-9', fast)).toBe(true);
    expect(await verifyPassword('Sturdy-pass-8', fast)).toBe(false);
  });

  it('hashes one password per core at once with as many waiting, unless the environment says otherwise', () => {
    const cfg = (env: Record<string, string>) => resolveConfig({ shell: 'server', dataDir: '/tmp/x' }, env).passwordHashing;
    const cores = cfg({}).concurrent;
    expect(cfg({})).toEqual({ concurrent: cores, queued: cores });
    expect(cfg({ PORTCULLIS_HASH_CONCURRENCY: '1', PORTCULLIS_HASH_QUEUE: '0' })).toEqual({ concurrent: 1, queued: 0 });
    expect(cfg({ PORTCULLIS_HASH_CONCURRENCY: '3' })).toEqual({ concurrent: 3, queued: 3 });
    expect(cfg({ PORTCULLIS_HASH_QUEUE: '200' })).toEqual({ concurrent: cores, queued: 200 });
    // Zero or nonsense cannot stop every sign-in.
    expect(cfg({ PORTCULLIS_HASH_CONCURRENCY: '0', PORTCULLIS_HASH_QUEUE: 'lots' })).toEqual({ concurrent: 1, queued: 1 });
  });
});
