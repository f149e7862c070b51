import { describe, expect, it } from 'vitest';
import { buildManualApi, normalizeManualPath } from './manual-api';

describe('manual APIs', () => {
  it.each([
    ['/users/:id', '/users/{id}'],
    ['/users//:id/', '/users/{id}'],
    ['/', '/'],
    ['/a/{b}/c', '/a/{b}/c'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeManualPath(input)).toBe(expected);
  });

  it('builds endpoints with path parameters and default flags', () => {
    const r = buildManualApi({ name: 'Shop', base_url: 'https://shop.test/', endpoints: [{ method: 'delete', path: '/orders/:orderId', summary: 'Cancel' }] });
    expect(r).toMatchObject({ name: 'Shop', base_url: 'https://shop.test', format: 'manual', warnings: [] });
    expect(r.endpoints[0]).toMatchObject({ method: 'DELETE', path: '/orders/{orderId}', summary: 'Cancel', parameters: [{ name: 'orderId', in: 'path', required: true }] });
    expect(r.endpoints[0]!.flags).toEqual(expect.arrayContaining(['BOLA', 'BFLA', 'SEC_MISC', 'IIM']));
  });
});
