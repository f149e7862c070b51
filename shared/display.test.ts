import { describe, expect, it } from 'vitest';
import {
  cardStatus,
  displayName,
  formatDurationSeconds,
  formatTimestamp,
  greeting,
  initials,
  isLocalBaseUrl,
  reportFilename,
  toIntlTimeZone,
} from './display';

describe('displayName', () => {
  it('follows the spec fallbacks', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', username: 'ada' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: 'Ada', username: 'ada' })).toBe('Ada');
    expect(displayName({ lastName: 'Lovelace', username: 'ada' })).toBe('Lovelace');
    expect(displayName({ username: 'ada' })).toBe('ada');
    expect(displayName({})).toBe('User');
    expect(displayName(null)).toBe('Guest');
  });
});

describe('initials', () => {
  it('follows the spec fallbacks', () => {
    expect(initials({ firstName: 'ada', lastName: 'lovelace' })).toBe('AL');
    expect(initials({ firstName: 'ada' })).toBe('A');
    expect(initials({ lastName: 'lovelace' })).toBe('L');
    expect(initials({ username: 'zed' })).toBe('Z');
    expect(initials({ email: 'q@example.com' })).toBe('Q');
    expect(initials({})).toBe('U');
    expect(initials(null)).toBe('U');
  });
});

describe('greeting', () => {
  it('is morning before 12, afternoon before 18, evening after', () => {
    expect(greeting(0)).toBe('Good morning');
    expect(greeting(11)).toBe('Good morning');
    expect(greeting(12)).toBe('Good afternoon');
    expect(greeting(17)).toBe('Good afternoon');
    expect(greeting(18)).toBe('Good evening');
    expect(greeting(23)).toBe('Good evening');
  });
});

describe('formatTimestamp', () => {
  it('formats year-month-day and short time in the zone', () => {
    expect(formatTimestamp('2025-09-27T12:05:00Z', 'UTC+02:00')).toBe('2025-09-27 14:05');
    expect(formatTimestamp('2025-09-27T12:05:00Z', 'UTC-08:00')).toBe('2025-09-27 04:05');
    expect(formatTimestamp('2025-09-27T23:30:00Z', 'Africa/Johannesburg')).toBe('2025-09-28 01:30');
  });
  it('shows N/A without a date or a zone', () => {
    expect(formatTimestamp(null, 'UTC+02:00')).toBe('N/A');
    expect(formatTimestamp('', 'UTC+02:00')).toBe('N/A');
    expect(formatTimestamp('2025-09-27T12:05:00Z', '')).toBe('N/A');
    expect(formatTimestamp('2025-09-27T12:05:00Z', undefined)).toBe('N/A');
  });
  it('shows Invalid Date when it cannot format', () => {
    expect(formatTimestamp('not a date', 'UTC')).toBe('Invalid Date');
    expect(formatTimestamp('2025-09-27T12:05:00Z', 'Not/AZone')).toBe('Invalid Date');
  });
  it('maps offsets to Intl zones', () => {
    expect(toIntlTimeZone('UTC+02:00')).toBe('Etc/GMT-2');
    expect(toIntlTimeZone('UTC-12:00')).toBe('Etc/GMT+12');
    expect(toIntlTimeZone('UTC+00:00')).toBe('Etc/UTC');
  });
});

describe('reportFilename', () => {
  it('is "YYYY-MM-DD_HHMM - <Type> Report - <name with underscores>.pdf"', () => {
    const at = new Date('2026-03-02T08:07:00Z');
    expect(reportFilename('Acme Shop API', 'executive', at, 'UTC+00:00')).toBe('2026-03-02_0807 - Executive Report - Acme_Shop_API.pdf');
    expect(reportFilename('Acme Shop API', 'technical', at, 'UTC+02:00')).toBe('2026-03-02_1007 - Technical Report - Acme_Shop_API.pdf');
    expect(reportFilename('a/b:c', 'technical', at, 'UTC+00:00')).toBe('2026-03-02_0807 - Technical Report - a_b_c.pdf');
  });
});

describe('small helpers', () => {
  it('formats durations in seconds with two decimals', () => {
    expect(formatDurationSeconds('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:12.345Z')).toBe('12.35');
    expect(formatDurationSeconds(null, '2026-01-01T00:00:12Z')).toBe('N/A');
  });
  it('marks local base URLs', () => {
    expect(isLocalBaseUrl('http://localhost:3000')).toBe(true);
    expect(isLocalBaseUrl('http://127.0.0.1:8080/api')).toBe(true);
    expect(isLocalBaseUrl('http://192.168.1.20')).toBe(true);
    expect(isLocalBaseUrl('https://api.example.com')).toBe(false);
  });
  it('derives the card status', () => {
    expect(cardStatus({ scanStatus: 'Completed', vulnerabilitiesFound: 0 }, true)).toBe('Scanning...');
    expect(cardStatus({ scanStatus: 'Completed', vulnerabilitiesFound: 3 }, false)).toBe('Completed');
    expect(cardStatus({ scanStatus: 'Failed', vulnerabilitiesFound: 0 }, false)).toBe('Failed');
    expect(cardStatus({ scanStatus: '', vulnerabilitiesFound: 0 }, false)).toBe('Ready');
  });
});
