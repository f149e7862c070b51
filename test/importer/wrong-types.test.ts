// "Wrong types in every position": every value of small documents of each format is replaced, one
// at a time, by values of other types. Each import must either succeed or be refused with an
// ImportError — never another exception — and what it returns must serialise.

import { describe, expect, it } from 'vitest';
import { ImportError } from '../../electron/importer/index';
import { importJson } from './import-helpers';
import { HAR_12, OPENAPI_31, POSTMAN_21, SWAGGER_2 } from './sample-docs';

const WRONG: unknown[] = [null, 0, -1.5, '', 'text', true, [], [1, 'a', null], {}, { $ref: '#/nowhere' }, { $ref: 'https://evil.test/x' }, JSON.parse('{"__proto__": {"x": 1}}')];

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const k of Object.keys(value)) paths((value as Record<string, unknown>)[k], [...prefix, k], out);
  return out;
}

function replaced(doc: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

describe.each([
  ['OpenAPI 3.1', OPENAPI_31],
  ['Swagger 2.0', SWAGGER_2],
  ['Postman v2.1', POSTMAN_21],
  ['HAR 1.2', HAR_12],
])('%s with a wrong type in every position', (_name, doc) => {
  it('imports the unchanged document', () => {
    expect(importJson(doc).endpoints.length).toBeGreaterThan(0);
  });

  it('never throws anything but an ImportError', () => {
    const all = paths(doc);
    let refused = 0;
    let imported = 0;
    for (const path of all) {
      for (const wrong of WRONG) {
        try {
          const r = importJson(replaced(doc, path, wrong));
          expect(() => JSON.stringify(r)).not.toThrow();
          imported += 1;
        } catch (err) {
          if (!(err instanceof ImportError)) throw new Error(`${JSON.stringify(path)} = ${JSON.stringify(wrong)}: ${(err as Error).stack}`);
          expect(err.message.length).toBeGreaterThan(10);
          refused += 1;
        }
      }
    }
    expect(imported + refused).toBe(all.length * WRONG.length);
    expect(imported).toBeGreaterThan(refused);
  });
});
