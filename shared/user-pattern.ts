// Regular expressions users write (a login recipe's `regex` token source, a cookie session's CSRF
// pattern) run on the server. They are compiled with RE2JS, a linear-time engine, so that no pattern
// can backtrack exponentially (`^(a+)+$` once stalled every request for 40 s); the validation that
// refuses a configuration and the code that runs the pattern use this one compiler.

import { RE2JS } from 're2js';

export const USER_PATTERN_LIMITS = {
  /**
   * Instructions of a compiled pattern. Counted repeats make a short pattern large (`.{1000}` is a
   * thousand); real token patterns compile to a few dozen.
   */
  maxProgramSize: 2_000,
  /**
   * Characters searched x instructions: the most one search may do. Linear time still costs the
   * pattern's size per character in the worst case (about 10 ns each here), so a pattern searches
   * the first `searchBudget / size` characters of a text: 0.4 MB for a 50-instruction pattern.
   */
  searchBudget: 20_000_000,
} as const;

export type CompiledPattern = { ok: true; re: RE2JS } | { ok: false; message: string };

/** What a pattern uses that only a backtracking engine runs (backreferences, lookarounds), or null. */
function unsupportedFeature(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `a backreference (\\${next})`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'a named backreference (\\k<...>)';
      i += 1;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(' && pattern[i + 1] === '?') {
      const look = /^\(\?(=|!|<=|<!)/.exec(pattern.slice(i, i + 4));
      if (look) return `a ${look[1]!.startsWith('<') ? 'lookbehind' : 'lookahead'} ((?${look[1]}...))`;
    }
  }
  return null;
}

/**
 * A user's pattern (JavaScript syntax) compiled for RE2, or why it is refused: a syntax error,
 * a feature only a backtracking engine has, or a size past `maxProgramSize`.
 */
export function compileUserPattern(pattern: string): CompiledPattern {
  // Looked for first: RE2JS's translation of JavaScript syntax reads `\k<name>` as the letters "k<name>".
  const feature = unsupportedFeature(pattern);
  if (feature)
    return {
      ok: false,
      message: `pattern uses ${feature}, which Portcullis does not run: patterns run on a linear-time engine (RE2) so that none can stall the server. Capture the value itself instead, e.g. "token":"([^"]+)".`,
    };
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    return { ok: false, message: `pattern is not a valid regular expression: ${why}.` };
  }
  const size = re.programSize();
  if (size > USER_PATTERN_LIMITS.maxProgramSize)
    return {
      ok: false,
      message: `pattern is too large once compiled (${size} steps, at most ${USER_PATTERN_LIMITS.maxProgramSize}): write + or * instead of large counted repeats such as {500}.`,
    };
  return { ok: true, re };
}

/** How many characters of a text the pattern searches: the first ones, within the search budget. */
export function searchWindow(re: RE2JS): number {
  return Math.floor(USER_PATTERN_LIMITS.searchBudget / Math.max(1, re.programSize()));
}
