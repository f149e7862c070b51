import { describe, expect, it } from 'vitest';
import { declaredIds, unmatchedPaths } from './declared-objects';

const objects = { '/api/Feedbacks/{id}': ['3', '7'], '/orders/{id}': ['1001'], '/users/{userId}/cards/{cardId}': ['c-1'] };

describe('declaredIds', () => {
  it('gives a path parameter the ids of the declared path, on the path itself and below it, whatever the parameter is called', () => {
    expect(declaredIds(objects, '/api/Feedbacks/{feedbackId}', { name: 'feedbackId', in: 'path' })).toEqual(['3', '7']);
    expect(declaredIds(objects, '/api/Feedbacks/{id}/replies', { name: 'id', in: 'path' })).toEqual(['3', '7']);
    expect(declaredIds(objects, '/users/{uid}/cards/{cardId}', { name: 'cardId', in: 'path' })).toEqual(['c-1']);
    // The parent's parameter is another object: no ids were declared for /users/{userId}.
    expect(declaredIds(objects, '/users/{uid}/cards/{cardId}', { name: 'uid', in: 'path' })).toEqual([]);
    expect(declaredIds(objects, '/api/Products/{id}', { name: 'id', in: 'path' })).toEqual([]);
    expect(declaredIds(undefined, '/api/Feedbacks/{id}', { name: 'id', in: 'path' })).toEqual([]);
  });

  it('gives an id in a query or body the ids of the path whose parameter or collection names it', () => {
    expect(declaredIds(objects, '/invoices/lookup', { name: 'orderId', in: 'body' })).toEqual(['1001']);
    expect(declaredIds(objects, '/cards/download', { name: 'card_id', in: 'query' })).toEqual(['c-1']);
    expect(declaredIds(objects, '/search', { name: 'id', in: 'query' })).toEqual([]);
  });

  it('names the declared paths the API does not have', () => {
    expect(unmatchedPaths(objects, ['/api/Feedbacks/{id}', '/orders/{orderId}', '/users/{id}'])).toEqual(['/users/{userId}/cards/{cardId}']);
  });
});
