import { describe, expect, it } from 'vitest';
import { FLAGS } from '../../../shared/constants';
import { CHECKS, checkProblems } from './index';

describe('check registry', () => {
  it('has unique, well-formed ids', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(CHECKS.map((c) => [c.id, c] as const))('%s has complete metadata', (_id, check) => {
    expect(checkProblems(check)).toEqual([]);
    expect(FLAGS).toContain(check.flag);
    expect(check.flag).not.toBe('SKIP');
    expect(Object.isFrozen(check)).toBe(true);
    expect(typeof check.appliesTo).toBe('function');
    expect(typeof check.run).toBe('function');
  });

  it('finds incomplete metadata', () => {
    const broken = { ...CHECKS[0]!, id: 'Bad Id', cwe: '287', references: ['http://x'], remediation: '', budget: 0 };
    expect(checkProblems(broken).length).toBeGreaterThanOrEqual(4);
  });

  it('covers the two categories of this issue', () => {
    expect(CHECKS.map((c) => c.owasp)).toEqual(expect.arrayContaining(['API2:2023', 'API8:2023']));
  });
});
