import { describe, expect, it } from 'vitest';
import { adjustCvss, cvssScore, parseCvssVector } from './cvss';

describe('CVSS 3.1 base score', () => {
  // Scores as FIRST's calculator gives them.
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N', 9.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', 5.3],
    ['CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N', 6.5],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:C/C:H/I:H/A:H', 9.1],
    ['CVSS:3.1/AV:L/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N', 2.5],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N', 0],
    ['CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N', 1.6],
  ])('%s = %s', (vector, score) => {
    expect(cvssScore(vector)).toBe(score);
  });

  it('refuses malformed vectors', () => {
    expect(() => parseCvssVector('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toThrow();
    expect(() => parseCvssVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H')).toThrow(/Missing/);
    expect(() => parseCvssVector('CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toThrow(/Bad CVSS value/);
  });

  it('adjusts single metrics', () => {
    expect(adjustCvss('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', { I: 'H' })).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N');
  });
});
