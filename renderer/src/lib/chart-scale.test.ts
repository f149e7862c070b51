import { describe, expect, it } from 'vitest';
import { barScale } from './chart-scale';

describe('barScale', () => {
  it('scales bars to the maximum with a minimum of 1', () => {
    const scale = barScale([0, 2, 4]);
    expect(scale.max).toBe(4);
    expect(scale(4)).toBe(100);
    expect(scale(2)).toBe(50);
    expect(scale(1)).toBe(25);
    expect(scale(0)).toBe(0);
    // All zero: the scale is 1, nothing divides by zero.
    expect(barScale([0, 0]).max).toBe(1);
    expect(barScale([0, 0])(0)).toBe(0);
    // A lone small value against the minimum of 1.
    expect(barScale([])(1)).toBe(100);
  });

  it('gives no height to negative or non-finite values and never goes past the top', () => {
    const scale = barScale([3, Number.NaN, Number.POSITIVE_INFINITY, -2]);
    expect(scale.max).toBe(3);
    expect(scale(-2)).toBe(0);
    expect(scale(Number.NaN)).toBe(0);
    expect(scale(Number.POSITIVE_INFINITY)).toBe(0);
    expect(scale(6)).toBe(100);
  });
});
