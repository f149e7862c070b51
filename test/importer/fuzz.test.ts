// Property-based fuzzing of the importer with fast-check: the fixtures (and the sample documents)
// mutated at the byte, text and structure level. Whatever comes in, the importer returns a result
// that serialises or refuses with an ImportError, within 5 s per file, and never calls out.

import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../electron/importer/index';
import { FIXTURES, readFixture } from './fixture-files';
import { importText } from './import-helpers';
import { HAR_12, OPENAPI_31, POSTMAN_21, SWAGGER_2 } from './sample-docs';

const PER_FILE_MS = 5_000;

function check(bytes: Uint8Array): void {
  const started = performance.now();
  try {
    const r = importText(bytes);
    expect(() => JSON.stringify(r)).not.toThrow();
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
  }
  expect(performance.now() - started).toBeLessThan(PER_FILE_MS);
}

const enc = new TextEncoder();

/** Byte- and text-level damage: flips, cuts, insertions and duplications at random places. */
const byteMutation = (size: number) =>
  fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat({ max: size - 1 }), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat({ max: size - 1 }), length: fc.integer({ min: 1, max: 200 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat({ max: size - 1 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat({ max: size - 1 }),
      text: fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\n  - ', '*a', '&a ', '$ref', '"$ref": "#/"', '\\u0000', '\uFFFF', '#'),
      ),
    }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat({ max: size - 1 }), length: fc.integer({ min: 1, max: 400 }) }),
  );

type ByteMutation = ReturnType<typeof byteMutation> extends fc.Arbitrary<infer T> ? T : never;

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function applyByteMutation(bytes: Uint8Array, m: ByteMutation): Uint8Array {
  const at = Math.min(m.at, bytes.length);
  switch (m.kind) {
    case 'flip': {
      const copy = bytes.slice();
      copy[Math.min(at, copy.length - 1)] = m.byte;
      return copy;
    }
    case 'cut':
      return concat(bytes.subarray(0, at), bytes.subarray(at + m.length));
    case 'truncate':
      return bytes.subarray(0, at);
    case 'insert':
      return concat(bytes.subarray(0, at), enc.encode(m.text), bytes.subarray(at));
    case 'duplicate':
      return concat(bytes.subarray(0, at + m.length), bytes.subarray(at, at + m.length), bytes.subarray(at + m.length));
  }
}

type Json = unknown;

/** Every path to a value of a parsed document (bounded, so large fixtures stay quick). */
function collectPaths(value: Json, limit: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: [Json, (string | number)[]][] = [[value, []]];
  while (stack.length && out.length < limit) {
    const [v, path] = stack.pop()!;
    out.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, [...path, i]]));
    else if (v && typeof v === 'object') for (const k of Object.keys(v)) stack.push([(v as Record<string, Json>)[k], [...path, k]]);
  }
  return out;
}

const structuralEdit = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('replace', 'delete', 'ref', 'swap'),
  value: fc.jsonValue({ maxDepth: 3 }),
  other: fc.nat(),
  asYaml: fc.boolean(),
});

type StructuralEdit = typeof structuralEdit extends fc.Arbitrary<infer T> ? T : never;

function applyEdits(doc: Json, edits: StructuralEdit[], paths: (string | number)[][]): Json {
  const copy = structuredClone(doc) as Record<string | number, Json>;
  const at = (path: (string | number)[]) => {
    let node: Json = copy;
    for (const k of path.slice(0, -1)) {
      if (!node || typeof node !== 'object') return null;
      node = (node as Record<string | number, Json>)[k];
    }
    return node && typeof node === 'object' ? (node as Record<string | number, Json>) : null;
  };
  for (const e of edits) {
    const path = paths[e.pick % paths.length]!;
    if (!path.length) continue;
    const parent = at(path);
    const key = path.at(-1)!;
    if (!parent) continue;
    if (e.kind === 'replace') parent[key] = e.value;
    else if (e.kind === 'delete') delete parent[key];
    else if (e.kind === 'ref') {
      const target = paths[e.other % paths.length]!;
      parent[key] = { $ref: `#/${target.map((t) => String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` };
    } else {
      const otherPath = paths[e.other % paths.length]!;
      const otherParent = at(otherPath);
      if (otherParent && otherPath.length) [parent[key], otherParent[otherPath.at(-1)!]] = [otherParent[otherPath.at(-1)!], parent[key]];
    }
  }
  return copy;
}

const SMALL = FIXTURES.filter((f) => readFixture(f.file).length < 1_000_000);
const LARGE = FIXTURES.filter((f) => readFixture(f.file).length >= 1_000_000);

describe('fuzzing the fixtures', () => {
  it.each(SMALL)('$file survives byte and text mutations', ({ file }) => {
    const bytes = new Uint8Array(readFixture(file));
    fc.assert(fc.property(fc.array(byteMutation(bytes.length), { minLength: 1, maxLength: 4 }), (ms) => {
      let b: Uint8Array = bytes;
      for (const m of ms) if (b.length) b = applyByteMutation(b, m);
      check(b);
    }), { numRuns: 60 });
  });

  it.each(SMALL)('$file survives structural mutations (JSON and YAML)', ({ file }) => {
    const text = readFixture(file).toString('utf8');
    // A JSON round trip expands YAML aliases, so an edit cannot reach two places at once.
    const doc = JSON.parse(JSON.stringify(/^\s*[{[]/.test(text) ? JSON.parse(text) : yaml.load(text)));
    const paths = collectPaths(doc, 5_000);
    fc.assert(fc.property(fc.array(structuralEdit, { minLength: 1, maxLength: 6 }), (edits) => {
      const mutated = applyEdits(doc, edits, paths);
      const out = edits[0]!.asYaml ? yaml.dump(mutated, { noRefs: false, lineWidth: -1 }) : JSON.stringify(mutated);
      check(enc.encode(out ?? 'null'));
    }), { numRuns: 60 });
  });

  it.each(LARGE)('$file survives a few mutations within the time limit', ({ file }) => {
    const bytes = new Uint8Array(readFixture(file));
    const text = Buffer.from(bytes).toString('utf8');
    const doc = /^\s*[{[]/.test(text) ? JSON.parse(text) : yaml.load(text);
    const paths = collectPaths(doc, 20_000);
    fc.assert(fc.property(byteMutation(bytes.length), fc.array(structuralEdit, { minLength: 1, maxLength: 8 }), (m, edits) => {
      check(applyByteMutation(bytes, m));
      check(enc.encode(JSON.stringify(applyEdits(doc, edits, paths))));
    }), { numRuns: 3 });
  }, 120_000);

  it.each([
    ['OpenAPI 3.1', OPENAPI_31],
    ['Swagger 2.0', SWAGGER_2],
    ['Postman', POSTMAN_21],
    ['HAR', HAR_12],
  ])('the %s sample survives structural mutations', (_name, doc) => {
    const paths = collectPaths(doc, 5_000);
    fc.assert(fc.property(fc.array(structuralEdit, { minLength: 1, maxLength: 8 }), (edits) => {
      check(enc.encode(JSON.stringify(applyEdits(doc, edits, paths))));
    }), { numRuns: 300 });
  });
});
