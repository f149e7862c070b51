import { describe, expect, it } from 'vitest';
import { countValueMarks, guardValueCount } from './count-values';
import { IMPORT_LIMITS } from './limits';

describe('countValueMarks', () => {
  it('counts the marks that open or separate JSON values, those inside strings too (an upper bound)', () => {
    expect(countValueMarks('{"a": [1, 2, {"b": null}], "c": 3}', 'json')).toBe(6);
    expect(countValueMarks('["x,y[z{", 1]', 'json')).toBe(5);
    expect(countValueMarks('42', 'json')).toBe(0);
  });

  it('counts YAML marks everywhere, strings included (an upper bound)', () => {
    expect(countValueMarks('a: 1\nb:\n  - x\n  - {c: [1, 2]}\n', 'yaml')).toBe(12);
  });

  it('stops counting past the limit', () => {
    expect(countValueMarks(',,,,,,,,,,', 'json', 3)).toBe(4);
  });
});

describe('guardValueCount', () => {
  it('accepts a JSON text at the limit and refuses one mark more, before anything is parsed', () => {
    const limit = IMPORT_LIMITS.maxJsonValueMarks;
    const at = `[${'0,'.repeat(limit - 1)}0]`;
    expect(countValueMarks(at, 'json')).toBe(limit);
    expect(() => guardValueCount(at, 'json')).not.toThrow();
    expect(() => guardValueCount(`[${at}]`, 'json')).toThrow(
      'The file has more than 2,500,000 values, more than an import holds. Import a smaller part of it.',
    );
  });

  it('refuses a YAML text past its own limit', () => {
    const over = `x: [${'{},'.repeat(IMPORT_LIMITS.maxYamlValueMarks / 2)}{}]\n`;
    expect(() => guardValueCount(over, 'yaml')).toThrow(/^The file has more than 5,000,000 values \(or value separators: - : , and lines\)/);
  });
});
