import { describe, expect, it } from 'vitest';
import { guardDocument, mayHaveAliases } from './guard-document';
import { IMPORT_LIMITS } from './limits';

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i += 1) v = { a: v };
  return v;
}

describe('guardDocument', () => {
  it('accepts the deepest allowed document and refuses one level more', () => {
    expect(guardDocument(nested(IMPORT_LIMITS.maxDocumentDepth), 'json').height).toBe(IMPORT_LIMITS.maxDocumentDepth);
    expect(() => guardDocument(nested(IMPORT_LIMITS.maxDocumentDepth + 1), 'json')).toThrow(/nests deeper than 256 levels/);
  });

  it('counts shared YAML nodes as often as they appear', () => {
    const shared = { x: [1, 2, 3] };
    const stats = guardDocument({ a: shared, b: shared, c: shared }, 'yaml');
    expect(stats.distinctNodes).toBe(3);
    expect(stats.expandedNodes).toBe(1 + 3 * 5);
  });

  it('refuses a cycle and an exponential expansion', () => {
    const loop: Record<string, unknown> = {};
    loop.self = { again: loop };
    expect(() => guardDocument(loop, 'yaml')).toThrow(/contains it \(a cycle\) \(at \/self\/again\)/);
    let level: unknown = ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'];
    for (let i = 0; i < 8; i += 1) level = Array(10).fill(level);
    expect(() => guardDocument({ bomb: level }, 'yaml')).toThrow(/alias bombs/);
  });

  it('refuses depth reached only through shared nodes', () => {
    // Seen first near the top (200 levels: fine), then again 100 levels down.
    let shared: unknown = 1;
    for (let i = 0; i < 200; i += 1) shared = { a: shared };
    let deep: unknown = { c: shared };
    for (let i = 0; i < 100; i += 1) deep = { b: deep };
    expect(() => guardDocument({ first: shared, deep }, 'yaml')).toThrow(/deeper than 256 levels once its aliases are expanded \(at \/deep\/b\/b/);
  });

  it('knows a YAML text without "&" has no anchors', () => {
    expect(mayHaveAliases('a: b\nc: [d]')).toBe(false);
    expect(mayHaveAliases('a: &x b\nc: *x')).toBe(true);
  });
});
