import { describe, expect, it } from 'vitest';
import { nextRunAt } from './next-run';

const iso = (d: Date) => d.toISOString();

describe('nextRunAt', () => {
  it('daily: later today when the time is still ahead, else tomorrow', () => {
    const anchor = new Date('2026-03-01T09:30:00Z');
    expect(iso(nextRunAt('daily', anchor, new Date('2026-03-05T08:00:00Z'), 'UTC'))).toBe('2026-03-05T09:30:00.000Z');
    expect(iso(nextRunAt('daily', anchor, new Date('2026-03-05T09:30:00Z'), 'UTC'))).toBe('2026-03-06T09:30:00.000Z');
  });

  it('weekly: the anchor weekday, a week on when today is done', () => {
    const anchor = new Date('2026-03-02T07:00:00Z'); // a Monday
    expect(iso(nextRunAt('weekly', anchor, new Date('2026-03-04T12:00:00Z'), 'UTC'))).toBe('2026-03-09T07:00:00.000Z');
    expect(iso(nextRunAt('weekly', anchor, new Date('2026-03-09T07:00:00Z'), 'UTC'))).toBe('2026-03-16T07:00:00.000Z');
    expect(iso(nextRunAt('weekly', anchor, new Date('2026-03-09T06:59:00Z'), 'UTC'))).toBe('2026-03-09T07:00:00.000Z');
  });

  it('monthly: the same day, clamped to short months, back to the anchor day after', () => {
    const anchor = new Date('2026-01-31T10:00:00Z');
    const feb = nextRunAt('monthly', anchor, new Date('2026-01-31T10:00:00Z'), 'UTC');
    expect(iso(feb)).toBe('2026-02-28T10:00:00.000Z');
    const mar = nextRunAt('monthly', anchor, feb, 'UTC');
    expect(iso(mar)).toBe('2026-03-31T10:00:00.000Z');
    const apr = nextRunAt('monthly', anchor, mar, 'UTC');
    expect(iso(apr)).toBe('2026-04-30T10:00:00.000Z');
    // A leap year keeps the 29th.
    expect(iso(nextRunAt('monthly', anchor, new Date('2028-02-01T00:00:00Z'), 'UTC'))).toBe('2028-02-29T10:00:00.000Z');
    // Year end.
    expect(iso(nextRunAt('monthly', new Date('2026-12-31T23:00:00Z'), new Date('2026-12-31T23:00:00Z'), 'UTC'))).toBe(
      '2027-01-31T23:00:00.000Z',
    );
  });

  it('keeps local wall-clock time across daylight saving (Europe/Berlin)', () => {
    const zone = 'Europe/Berlin';
    const anchor = new Date('2026-03-20T08:00:00Z'); // 09:00 CET
    // Clocks go forward on 2026-03-29: 09:00 CEST is 07:00 UTC.
    expect(iso(nextRunAt('daily', anchor, new Date('2026-03-28T08:00:00Z'), zone))).toBe('2026-03-29T07:00:00.000Z');
    // And back on 2026-10-25: 09:00 CET is 08:00 UTC again.
    expect(iso(nextRunAt('daily', anchor, new Date('2026-10-24T07:00:00Z'), zone))).toBe('2026-10-25T08:00:00.000Z');
    expect(iso(nextRunAt('weekly', anchor, new Date('2026-03-21T00:00:00Z'), zone))).toBe('2026-03-27T08:00:00.000Z');
    expect(iso(nextRunAt('weekly', anchor, new Date('2026-03-27T08:00:00Z'), zone))).toBe('2026-04-03T07:00:00.000Z');
  });

  it('runs a time skipped by spring-forward at the first valid time after it', () => {
    const zone = 'Europe/Berlin';
    const anchor = new Date('2026-03-20T01:30:00Z'); // 02:30 CET, which does not exist on 2026-03-29
    const run = nextRunAt('daily', anchor, new Date('2026-03-28T02:00:00Z'), zone);
    expect(iso(run)).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
  });

  it('works in fixed-offset zones and refuses unknown ones', () => {
    expect(iso(nextRunAt('daily', new Date('2026-03-01T22:00:00Z'), new Date('2026-03-02T10:00:00Z'), 'Etc/GMT-2'))).toBe(
      '2026-03-02T22:00:00.000Z',
    );
    expect(() => nextRunAt('daily', new Date(), new Date(), 'Mars/Olympus')).toThrow(/Unknown time zone/);
  });
});
