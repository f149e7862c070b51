import { describe, expect, it } from 'vitest';
import { addDays, dayEndingAt, dayInZone, endOfDayInZone, isCalendarDay, usableTimeZone } from './zone-days';

// UTC-10 and UTC+14 are a whole calendar day apart at most hours: the same instant is two different days.
const ZONES = ['Pacific/Honolulu', 'Pacific/Kiritimati', 'Europe/Berlin', 'America/Santiago', 'Asia/Kathmandu', 'UTC-12:00', 'UTC+09:00', 'UTC+00:00', 'Etc/UTC'];

describe('an accepted risk ends at the end of the day picked, in the user zone', () => {
  it('is the next day first moment in that zone', () => {
    expect(endOfDayInZone('2027-03-10', 'Pacific/Honolulu')!.toISOString()).toBe('2027-03-11T10:00:00.000Z');
    expect(endOfDayInZone('2027-03-10', 'Pacific/Kiritimati')!.toISOString()).toBe('2027-03-10T10:00:00.000Z');
    expect(endOfDayInZone('2027-03-10', 'UTC+09:00')!.toISOString()).toBe('2027-03-10T15:00:00.000Z');
    expect(endOfDayInZone('2027-03-10', 'UTC-12:00')!.toISOString()).toBe('2027-03-11T12:00:00.000Z');
    expect(endOfDayInZone('2027-03-10', 'Asia/Kathmandu')!.toISOString()).toBe('2027-03-10T18:15:00.000Z');
  });

  it('follows Berlin across both DST changes (the day is 23 or 25 hours long)', () => {
    // 2027-03-28: clocks go from 02:00 to 03:00 (CET to CEST); 2027-10-31 back from 03:00 to 02:00.
    expect(endOfDayInZone('2027-03-27', 'Europe/Berlin')!.toISOString()).toBe('2027-03-27T23:00:00.000Z');
    expect(endOfDayInZone('2027-03-28', 'Europe/Berlin')!.toISOString()).toBe('2027-03-28T22:00:00.000Z');
    expect(endOfDayInZone('2027-10-30', 'Europe/Berlin')!.toISOString()).toBe('2027-10-30T22:00:00.000Z');
    expect(endOfDayInZone('2027-10-31', 'Europe/Berlin')!.toISOString()).toBe('2027-10-31T23:00:00.000Z');
  });

  it('finds the first moment of a day whose midnight a zone skips', () => {
    // Chile moves its clocks at midnight: 2026-09-06 begins at 01:00 local (04:00Z).
    const end = endOfDayInZone('2026-09-05', 'America/Santiago')!;
    expect(end.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayInZone(end, 'America/Santiago')).toBe('2026-09-06');
    expect(dayInZone(end.getTime() - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('shows back the day picked, and saving it again never moves it, in every zone and every day of a year', () => {
    for (const zone of ZONES) {
      let day = '2027-01-01';
      for (let i = 0; i < 366; i++) {
        const end = endOfDayInZone(day, zone)!;
        expect(dayEndingAt(end.toISOString(), zone), `${zone} ${day}`).toBe(day);
        // Saving again: the form starts from the day shown, which gives the same instant.
        expect(endOfDayInZone(dayEndingAt(end.toISOString(), zone), zone)!.toISOString()).toBe(end.toISOString());
        day = addDays(day, 1);
      }
    }
  });

  it('is the same day whatever zone the viewer computer is in: only the user zone counts', () => {
    const end = endOfDayInZone('2027-06-01', 'Pacific/Kiritimati')!.toISOString();
    expect(dayEndingAt(end, 'Pacific/Kiritimati')).toBe('2027-06-01');
    // The same instant is still 2027-05-31 in Honolulu: the day shown must use the user zone, not the browser one.
    expect(dayEndingAt(end, 'Pacific/Honolulu')).toBe('2027-05-31');
  });

  it('refuses what is not a day', () => {
    expect(endOfDayInZone('2027-02-30', 'Europe/Berlin')).toBeNull();
    expect(endOfDayInZone('2027-2-3', 'Europe/Berlin')).toBeNull();
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2027-02-29')).toBe(false);
  });

  it('takes a Settings zone or an IANA name, else the fallback', () => {
    expect(usableTimeZone('UTC+09:00', 'Europe/Berlin')).toBe('Etc/GMT-9');
    expect(usableTimeZone('Pacific/Honolulu', 'Europe/Berlin')).toBe('Pacific/Honolulu');
    expect(usableTimeZone('', 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(usableTimeZone('Mars/Olympus', 'Europe/Berlin')).toBe('Europe/Berlin');
  });
});
