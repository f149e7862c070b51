import { describe, expect, it } from 'vitest';
import { cookieSessionSchema, valueSourceSchema } from './identities';
import { compileUserPattern, searchWindow, USER_PATTERN_LIMITS } from './user-pattern';

function messageOf(pattern: string): string {
  const c = compileUserPattern(pattern);
  if (c.ok) throw new Error(`${pattern} compiled`);
  return c.message;
}

describe('user patterns', () => {
  it('compiles the JavaScript syntax token patterns use', () => {
    for (const p of ['"token":"([^"]+)"', 'token=(\\w+)', '(?<tok>[A-Za-z0-9._-]{20,})', 'Bearer\\s+(\\S+)', 'a/b', '\\u0041(\\d+)']) {
      expect(compileUserPattern(p).ok, p).toBe(true);
    }
    const c = compileUserPattern('(?<tok>[a-z]+)=(\\d+)');
    expect(c.ok && c.re.exec('xx abc=42')?.slice(0, 3)).toEqual(['abc=42', 'abc', '42']);
  });

  it('refuses backreferences and lookarounds, saying why and what to write', () => {
    expect(messageOf('(a)\\1')).toMatch(/^pattern uses a backreference \(\\1\), which Portcullis does not run: patterns run on a linear-time engine \(RE2\)/);
    expect(messageOf('(?<q>a)\\k<q>')).toMatch(/named backreference/);
    expect(messageOf('token=(?=\\w)(\\w+)')).toMatch(/^pattern uses a lookahead \(\(\?=\.\.\.\)\).*Capture the value itself instead/);
    expect(messageOf('(?<!x)token=(\\w+)')).toMatch(/^pattern uses a lookbehind/);
    // Inside a class these are plain characters, and the pattern is refused for what it really is.
    expect(messageOf('[(?=]([')).toMatch(/^pattern is not a valid regular expression: missing closing ]/);
  });

  it('refuses patterns that compile past the size limit', () => {
    expect(messageOf('(.{1000})(.{1000})(.{1000})')).toMatch(new RegExp(`^pattern is too large once compiled \\(\\d+ steps, at most ${USER_PATTERN_LIMITS.maxProgramSize}\\)`));
  });

  it('searches the first characters of a text within the search budget', () => {
    const small = compileUserPattern('t=(\\w+)');
    const large = compileUserPattern('t=(\\w{200})');
    if (!small.ok || !large.ok) throw new Error('fixture');
    expect(searchWindow(small.re)).toBeGreaterThan(1_000_000);
    expect(searchWindow(large.re)).toBeLessThan(searchWindow(small.re));
    expect(searchWindow(large.re) * large.re.programSize()).toBeLessThanOrEqual(USER_PATTERN_LIMITS.searchBudget);
  });

  it('is what the identity schema validates: the token source and the CSRF pattern', () => {
    const token = valueSourceSchema.safeParse({ from: 'regex', pattern: '(?=a)a' });
    expect(token.success).toBe(false);
    expect(token.error?.issues[0]).toMatchObject({ path: ['pattern'], message: expect.stringMatching(/^pattern uses a lookahead/) });
    expect(valueSourceSchema.safeParse({ from: 'regex', pattern: '"token":"([^"]+)"' }).success).toBe(true);
    const csrf = cookieSessionSchema.safeParse({ request: { path: '/login' }, csrf: { from: 'regex', pattern: '(x)\\1' } });
    expect(csrf.success).toBe(false);
    expect(csrf.error?.issues[0]).toMatchObject({ path: ['csrf', 'pattern'], message: expect.stringMatching(/^pattern uses a backreference/) });
  });
});
