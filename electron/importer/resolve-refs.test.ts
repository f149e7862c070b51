import { describe, expect, it } from 'vitest';
import { newBudget, RefResolver } from './resolve-refs';
import { Warnings } from './warnings';

function resolver(doc: unknown) {
  const warnings = new Warnings();
  return { refs: new RefResolver(doc, warnings), warnings };
}

const doc = {
  components: {
    schemas: {
      Node: { type: 'object', properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
      B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
      Alias: { $ref: '#/components/schemas/Alias2' },
      Alias2: { $ref: '#/components/schemas/Leaf' },
      Leaf: { type: 'integer', description: 'x'.repeat(500), 'x-vendor': { big: true }, xml: { name: 'l' }, example: 3 },
      Loop1: { $ref: '#/components/schemas/Loop2' },
      Loop2: { $ref: '#/components/schemas/Loop1' },
      'a/b~c': { type: 'boolean' },
      'with space': { type: 'null' },
      Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
      Pet: { type: 'object', properties: { owner: { $ref: '#/components/schemas/Owner' } } },
      Owner: { type: 'object', properties: { name: { type: 'string' } } },
    },
  },
};

describe('RefResolver', () => {
  it('inlines a self-referencing schema once and cuts where the cycle closes', () => {
    const { refs } = resolver(doc);
    expect(refs.schema({ $ref: '#/components/schemas/Node' }, newBudget(), '')).toEqual({
      type: 'object',
      properties: { value: { type: 'string' }, children: { type: 'array', items: { 'x-circular': '#/components/schemas/Node' } } },
    });
  });

  it('cuts mutual recursion', () => {
    const { refs } = resolver(doc);
    expect(refs.schema({ $ref: '#/components/schemas/A' }, newBudget(), '')).toEqual({
      type: 'object',
      properties: { b: { type: 'object', properties: { a: { 'x-circular': '#/components/schemas/A' } } } },
    });
  });

  it('follows $ref chains, keeps only schema keywords and clamps descriptions', () => {
    const { refs } = resolver(doc);
    const leaf = refs.schema({ $ref: '#/components/schemas/Alias' }, newBudget(), '')!;
    expect(Object.keys(leaf).sort()).toEqual(['description', 'example', 'type']);
    expect((leaf.description as string).length).toBe(201);
  });

  it('decodes ~0 ~1 and percent escapes in pointers', () => {
    const { refs } = resolver(doc);
    expect(refs.schema({ $ref: '#/components/schemas/a~1b~0c' }, newBudget(), '')).toEqual({ type: 'boolean' });
    expect(refs.schema({ $ref: '#/components/schemas/with%20space' }, newBudget(), '')).toEqual({ type: 'null' });
  });

  it('marks missing, looping and external references, with a warning each', () => {
    const { refs, warnings } = resolver(doc);
    expect(refs.schema({ $ref: '#/components/schemas/Nope' }, newBudget(), '/w1')).toEqual({ 'x-unresolved-ref': '#/components/schemas/Nope' });
    expect(refs.schema({ $ref: '#/components/schemas/Loop1' }, newBudget(), '/w2')).toEqual({ 'x-unresolved-ref': '#/components/schemas/Loop1' });
    expect(refs.schema({ $ref: 'other.yaml#/X' }, newBudget(), '/w3')).toEqual({ 'x-unresolved-ref': 'other.yaml#/X' });
    expect(warnings.toArray().map((w) => w.location)).toEqual(['/w1', '/w2', '/w3']);
    expect(warnings.toArray()[2]!.message).toBe('External $ref "other.yaml#/X" was not followed: an import never reads other files or URLs.');
  });

  it('applies keywords written next to a $ref (OpenAPI 3.1)', () => {
    const { refs } = resolver(doc);
    expect(refs.schema({ $ref: '#/components/schemas/Owner', description: 'the owner', nullable: true }, newBudget(), '')).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      description: 'the owner',
      nullable: true,
    });
  });

  it('stops at the node budget and marks the cut', () => {
    const { refs } = resolver(doc);
    const budget = newBudget(5);
    const out = refs.schema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } } }, budget, '');
    expect(JSON.stringify(out)).toContain('"x-truncated":"size"');
    expect(budget.truncations).toBeGreaterThan(0);
  });

  it('inlines response schemas one object level deep, leaner, keeping array wrappers with their items', () => {
    const { refs } = resolver(doc);
    const lean = newBudget(1_000, 1, true);
    expect(refs.schema({ $ref: '#/components/schemas/Pets' }, lean, '')).toEqual({
      type: 'array',
      items: { type: 'object', properties: { owner: { 'x-ref': '#/components/schemas/Owner', 'x-truncated': 'depth' } } },
    });
    expect(refs.schema({ $ref: '#/components/schemas/Leaf' }, newBudget(1_000, 1, true), '')).toEqual({ type: 'integer' });
    // The full copy of the same schema is unaffected by the lean one (separate memo entries).
    expect(refs.schema({ $ref: '#/components/schemas/Pets' }, newBudget(), '')).toEqual({
      type: 'array',
      items: { type: 'object', properties: { owner: { type: 'object', properties: { name: { type: 'string' } } } } },
    });
  });

  it('resolves a schema once and reuses the copy', () => {
    const { refs } = resolver(doc);
    const a = refs.schema({ $ref: '#/components/schemas/Owner' }, newBudget(), '');
    const b = refs.schema({ $ref: '#/components/schemas/Owner' }, newBudget(), '');
    expect(b).toEqual(a);
  });

  it('never follows a pointer through the prototype chain', () => {
    const { refs } = resolver(doc);
    for (const ref of ['#/__proto__', '#/constructor', '#/components/toString', '#/components/schemas/Node/hasOwnProperty'])
      expect(refs.schema({ $ref: ref }, newBudget(), '')).toEqual({ 'x-unresolved-ref': ref });
  });

  it('treats boolean schemas as JSON Schema does', () => {
    const { refs } = resolver(doc);
    expect(refs.schema({ type: 'object', properties: { any: true, none: false }, additionalProperties: false }, newBudget(), '')).toEqual({
      type: 'object',
      properties: { any: {}, none: { not: {} } },
      additionalProperties: false,
    });
  });
});
