import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('findJsonSyntaxError', () => {
  it('agrees with JSON.parse on valid documents', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
      expect(findJsonSyntaxError(JSON.stringify(v, null, pretty ? 2 : 0))).toBeNull();
    }));
  });

  it('agrees with JSON.parse on damaged documents, and points inside the text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\n', '{', '['), fc.nat({ max: 3 }), (v, at, insert, cut) => {
        const text = JSON.stringify(v);
        const i = at % (text.length + 1);
        const damaged = text.slice(0, i) + insert + text.slice(i + cut);
        const problem = findJsonSyntaxError(damaged);
        expect(problem === null).toBe(parses(damaged));
        if (problem) expect(problem.offset).toBeGreaterThanOrEqual(0);
        if (problem) expect(problem.offset).toBeLessThanOrEqual(damaged.length);
      }),
      { numRuns: 500 },
    );
  });

  it('names trailing commas and unclosed containers', () => {
    expect(findJsonSyntaxError('{"a": 1,}')).toEqual({ offset: 8, message: 'Expected a double-quoted property name (a trailing comma?)' });
    expect(findJsonSyntaxError('[1,]')?.message).toBe("Unexpected ']' (a trailing comma?)");
    expect(findJsonSyntaxError('{"a": [1, 2}')?.message).toBe("Expected ',' or ']' after the array element");
    expect(findJsonSyntaxError('{"a": 1')?.message).toBe('Unexpected end of the file: a { or [ is not closed');
    expect(findJsonSyntaxError('{} {}')?.message).toBe('Unexpected text after the end of the JSON value');
  });

  it('handles 100,000 levels without recursion', () => {
    expect(findJsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(99_999)}`)?.message).toMatch(/not closed/);
  });
});
