import { describe, expect, it } from 'vitest';
import { isIdSegment, templateHarPath } from './read-har';

describe('HAR path templating', () => {
  it.each([
    ['42', true],
    ['5f2b7c9e8d1a4b3c2d1e0f9a', true],
    ['3fa85f64-5717-4562-b3fc-2c963f66afa6', true],
    ['a1B2c3D4e5F6g7H8', true],
    ['v1', false],
    ['users', false],
    ['2024-01-01', false],
    ['deadbeef', false],
  ])('%s is an id segment: %s', (seg, expected) => {
    expect(isIdSegment(seg)).toBe(expected);
  });

  it('names parameters after the collection before them', () => {
    expect(templateHarPath('/api/users/42/orders/7')).toEqual({ path: '/api/users/{userId}/orders/{orderId}', names: ['userId', 'orderId'], values: ['42', '7'] });
    expect(templateHarPath('/categories/9/line-items/8/x/3/4')).toEqual({
      path: '/categories/{categoryId}/line-items/{lineItemId}/x/{xId}/{id}',
      names: ['categoryId', 'lineItemId', 'xId', 'id'],
      values: ['9', '8', '3', '4'],
    });
    expect(templateHarPath('/a/1/a/2').path).toBe('/a/{aId}/a/{aId2}');
    expect(templateHarPath('/').path).toBe('/');
  });
});
