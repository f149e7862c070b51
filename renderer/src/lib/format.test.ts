import { describe, expect, it } from 'vitest';
import { capitalize, dayLabel, statusTone } from './format';

describe('format helpers', () => {
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
