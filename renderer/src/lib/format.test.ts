import { describe, expect, it } from 'vitest';
import { barScale, capitalize, dayLabel, statusTone } from './format';

describe('format helpers', () => {
  it('scales bars to the maximum with a minimum of 1', () => {
    const scale = barScale([0, 2, 4]);
    expect(scale(4)).toBe(100);
    expect(scale(2)).toBe(50);
    expect(scale(0)).toBe(0);
    // All zero: the scale is 1, nothing divides by zero.
    expect(barScale([0, 0])(0)).toBe(0);
    // A lone small value against the minimum of 1.
    expect(barScale([])(1)).toBe(100);
  });

  it('labels a UTC day', () => {
    expect(dayLabel('2026-11-16')).toEqual({ short: 'Mon 16', long: 'Monday, November 16' });
    expect(dayLabel('not a day').short).toBe('not a day');
  });

  it('capitalizes and tones statuses', () => {
    expect(capitalize('completed')).toBe('Completed');
    expect(statusTone('completed')).toBe('success');
    expect(statusTone('Running')).toBe('running');
    expect(statusTone('failed')).toBe('danger');
    expect(statusTone('created')).toBe('ready');
  });
});
