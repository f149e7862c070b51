import { describe, expect, it } from 'vitest';
import { configSecretFields, type IdentityConfig } from './identities';

function withBodies(...bodies: string[]): IdentityConfig {
  return { name: 'alice', role: 'user', login: { steps: bodies.map((body) => ({ request: { method: 'POST', path: '/login', body } })), token: { from: 'body', pointer: '/t' } } } as IdentityConfig;
}

describe('secrets in raw login bodies', () => {
  it('finds key=value and "key": "value" pairs with secret-like keys', () => {
    const found = configSecretFields(withBodies('username=bob&password=hunter2', '{"token": "abc123", \'api_key\': "k-1"} pin=1234, x-secret : zz', 'xpassword=pw9 a"secret"="s3"'));
    expect(found.map((s) => [s.field, s.value])).toEqual([
      ['password', 'hunter2'],
      ['token', 'abc123'],
      ['api_key', 'k-1'],
      ['pin', '1234'],
      ['x-secret', 'zz'],
      ['xpassword', 'pw9'],
      ['secret', 's3'],
    ]);
  });

  it('reads five 16 KB bodies in linear time, whatever they hold', () => {
    // One run of word characters was tried as a key from each of its positions: 1.3 s here.
    const hostile = ['a'.repeat(16_384), '-'.repeat(16_384), `${'x'.repeat(8_000)}${' '.repeat(8_000)}`, 'a="'.repeat(5_000), 'k:'.repeat(8_000)];
    const t = performance.now();
    configSecretFields(withBodies(...hostile));
    expect(performance.now() - t).toBeLessThan(150);
  });
});
