import { describe, expect, it } from 'vitest';
import { compareBodies, containedIn, isEmptyBody, sameData, sameShapeOtherData } from './similarity';

describe('similarity', () => {
  const alice = JSON.stringify({ id: 1, name: 'Alice', email: 'alice@example.com', updated_at: '2026-01-01T10:00:00Z', requestId: 'a1' });
  const alice2 = JSON.stringify({ id: 1, name: 'Alice', email: 'alice@example.com', updated_at: '2026-02-02T11:11:11Z', requestId: 'b2' });
  const bob = JSON.stringify({ id: 2, name: 'Bob', email: 'bob@example.com', updated_at: '2026-01-01T10:00:00Z', requestId: 'c3' });

  it('ignores volatile fields', () => {
    expect(sameData(alice, alice2)).toBe(true);
    expect(compareBodies(alice, alice2).values).toBe(1);
  });

  it('tells the same object from another of the same type', () => {
    expect(sameData(alice, bob)).toBe(false);
    expect(sameShapeOtherData(alice, bob)).toBe(true);
    expect(sameShapeOtherData(alice, '{"error":"forbidden"}')).toBe(false);
  });

  it('treats a list that gained an item as containing the earlier one', () => {
    const before = JSON.stringify({ items: [{ id: 1, n: 'a' }, { id: 2, n: 'b' }, { id: 3, n: 'c' }] });
    const after = JSON.stringify({ items: [{ id: 0, n: 'z' }, { id: 1, n: 'a' }, { id: 2, n: 'b' }, { id: 3, n: 'c' }] });
    expect(containedIn(before, after)).toBe(true);
    expect(containedIn(JSON.stringify({ items: [{ id: 9, n: 'q' }] }), after)).toBe(false);
  });

  it('knows empty bodies', () => {
    for (const b of ['', '  ', 'null', '{}', '[]', '{"data":[]}', '{"items":[],"total":null}']) expect(isEmptyBody(b)).toBe(true);
    expect(isEmptyBody('{"ok":true}')).toBe(false);
    expect(isEmptyBody('<html>hi</html>')).toBe(false);
  });

  it('compares text bodies by words', () => {
    expect(compareBodies('Hello world, user 42', 'Hello world, user 42').values).toBe(1);
    expect(compareBodies('<h1>Login</h1>', '{"id":1}').values).toBeLessThan(0.5);
  });
});
