import { describe, expect, it } from 'vitest';
import type { TriageMarkState } from './constants';
import {
  atOrAboveLevel,
  countsAsVulnerability,
  isSetAside,
  levelCounts,
  levelsAtOrAbove,
  severityBucket,
  severityLevel,
  severityOfCvss,
  severityText,
  vulnerabilitiesText,
  vulnerabilityCount,
  vulnerabilityLevels,
} from './severity';

const mark = (state: TriageMarkState) => ({ state });

describe('severityBucket', () => {
  it('keeps high, medium, low and counts anything else as info', () => {
    expect(severityBucket('high')).toBe('high');
    expect(severityBucket('Medium')).toBe('medium');
    expect(severityBucket('low')).toBe('low');
    expect(severityBucket('critical')).toBe('info');
    expect(severityBucket('info')).toBe('info');
    expect(severityBucket(undefined)).toBe('info');
  });
});

describe('severity levels', () => {
  it('puts CVSS 9.0 and more in a critical level of its own, apart from high', () => {
    expect(severityLevel({ severity: 'high', cvss_score: 9.0 })).toBe('critical');
    expect(severityLevel({ severity: 'high', cvss_score: 10 })).toBe('critical');
    expect(severityLevel({ severity: 'high', cvss_score: 8.9 })).toBe('high');
    expect(severityLevel({ severity: 'medium', cvss_score: 6.5 })).toBe('medium');
    expect(severityLevel({ severity: 'low', cvss_score: 3.1 })).toBe('low');
    expect(severityLevel({ severity: 'info', cvss_score: 0 })).toBe('info');
    // A stored value outside the four buckets is info (spec section 9), whatever its score.
    expect(severityLevel({ severity: 'critical', cvss_score: 9.8 })).toBe('info');
    // No score: the stored band.
    expect(severityLevel({ severity: 'high' })).toBe('high');
  });

  it('agrees with the stored band of every score: a critical finding is stored as high', () => {
    for (let tenths = 0; tenths <= 100; tenths += 1) {
      const score = tenths / 10;
      const level = severityLevel({ severity: severityOfCvss(score), cvss_score: score });
      expect(level).toBe(score >= 9 ? 'critical' : severityOfCvss(score));
    }
  });

  it('names the level in one word, "Critical" included', () => {
    expect(severityText({ severity: 'high', cvss_score: 9.1 })).toBe('Critical');
    expect(severityText({ severity: 'high', cvss_score: 7.5 })).toBe('High');
    expect(severityText({ severity: 'weird', cvss_score: 1 })).toBe('Info');
  });

  it('orders thresholds critical > high > medium > low > info', () => {
    expect(levelsAtOrAbove('critical')).toEqual(['critical']);
    expect(levelsAtOrAbove('high')).toEqual(['critical', 'high']);
    expect(levelsAtOrAbove('low')).toEqual(['critical', 'high', 'medium', 'low']);
    expect(atOrAboveLevel('critical', 'high')).toBe(true);
    expect(atOrAboveLevel('high', 'critical')).toBe(false);
    expect(atOrAboveLevel('info', 'low')).toBe(false);
  });

  it('counts each finding in exactly one level', () => {
    const counts = levelCounts([
      { severity: 'high', cvss_score: 9.8 },
      { severity: 'high', cvss_score: 9.1 },
      { severity: 'high', cvss_score: 7.5 },
      { severity: 'medium', cvss_score: 5.3 },
      { severity: 'info', cvss_score: 0 },
    ]);
    expect(counts).toEqual({ critical: 2, high: 1, medium: 1, low: 0, info: 1 });
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(5);
  });
});

describe('the one count of vulnerabilities', () => {
  const findings = [
    { severity: 'high', cvss_score: 9.1, triage: null },
    { severity: 'high', cvss_score: 7.5 },
    { severity: 'medium', cvss_score: 6.5, triage: mark('open') },
    { severity: 'low', cvss_score: 3.1, triage: mark('false_positive') },
    { severity: 'medium', cvss_score: 5.3, triage: mark('accepted_risk') },
    { severity: 'high', cvss_score: 8.1, triage: mark('fixed') },
    { severity: 'info', cvss_score: 0 },
    { severity: 'info', cvss_score: 0, triage: mark('open') },
  ];

  it('counts findings neither informational nor set aside in triage', () => {
    expect(vulnerabilityCount(findings)).toBe(3);
    expect(findings.filter(countsAsVulnerability).map((f) => f.cvss_score)).toEqual([9.1, 7.5, 6.5]);
    expect(vulnerabilityCount([])).toBe(0);
  });

  it('treats a reopened mark as open, and false positives, accepted risks and fixed marks as set aside', () => {
    expect(isSetAside({ triage: null })).toBe(false);
    expect(isSetAside({})).toBe(false);
    expect(isSetAside({ triage: mark('open') })).toBe(false);
    expect(isSetAside({ triage: mark('false_positive') })).toBe(true);
    expect(isSetAside({ triage: mark('accepted_risk') })).toBe(true);
    expect(isSetAside({ triage: mark('fixed') })).toBe(true);
  });

  it('splits the vulnerabilities by level, critical apart, info never among them', () => {
    expect(vulnerabilityLevels(findings)).toEqual({ critical: 1, high: 1, medium: 1, low: 0, info: 0 });
  });

  it('words the count', () => {
    expect(vulnerabilitiesText(1)).toBe('1 vulnerability');
    expect(vulnerabilitiesText(0)).toBe('0 vulnerabilities');
    expect(vulnerabilitiesText(12)).toBe('12 vulnerabilities');
  });
});
