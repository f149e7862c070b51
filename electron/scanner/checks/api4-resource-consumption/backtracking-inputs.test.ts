import { describe, expect, it } from 'vitest';
import { patternShape } from './backtracking-inputs';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
}

describe('schema patterns of an imported file', () => {
  it('finds the repeated unit and a mismatch of nested quantifiers', () => {
    expect(patternShape('^(\\w+\\s?)*$')).toEqual({ prefix: '', unit: 'a', mismatch: '!' });
    expect(patternShape('^[A-Z]{2}-([a-z]+\\.?)+$')).toEqual({ prefix: 'AA-', unit: 'a', mismatch: '!' });
    expect(patternShape('^[a-z]+$')).toBeNull();
  });

  it('tries the pattern in linear time, even one that backtracks on its own prefix', () => {
    // On a backtracking engine, the 30 two-way choices before the group take hours to fail.
    const r = timed(() => patternShape('^(?:a|a){30}(b+)+$'));
    expect(r.value).toEqual({ prefix: 'a'.repeat(30), unit: 'b', mismatch: '!' });
    expect(r.ms).toBeLessThan(500);
  });

  it('builds no sample text of nested counted groups, and leaves patterns RE2 cannot run alone', () => {
    const r = timed(() => patternShape('^((((a{50}){50}){50}){50})(b+)+$'));
    expect(r.value).toBeNull();
    expect(r.ms).toBeLessThan(500);
    expect(patternShape('^(?=x)(\\w+\\s?)*$')).toBeNull();
  });
});
