// Bounds how many values a document's parser will allocate, before it runs. JSON.parse builds a
// huge array in memory outside the JS heap and then copies it in whole, past any heap limit: 25 MB
// of "{}," (8.7 million objects) grew the process by 650 MB and, in a worker thread, aborted the
// whole process when the worker hit its heap limit (nodejs/node#47224). The text is counted in one
// pass that allocates nothing; docs/decisions.md ("Imports run in a worker").

import { ImportError } from './errors';
import { IMPORT_LIMITS } from './limits';
import type { Syntax } from './parse-document';

const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DASH = 0x2d;
const COLON = 0x3a;
const NEWLINE = 0x0a;

/**
 * Marks that open or separate values, up to `stopAfter` + 1. JSON: `{`, `[` and `,` outside strings
 * (one per value, give or take one per container). YAML: also `-`, `:` and line ends, strings
 * included: an upper bound, since every YAML value starts after one of them.
 */
export function countValueMarks(text: string, syntax: Syntax, stopAfter: number = markLimit(syntax)): number {
  let marks = 0;
  const n = text.length;
  if (syntax === 'json') {
    for (let i = 0; i < n && marks <= stopAfter; i += 1) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) marks += 1;
      else if (c === QUOTE) {
        // Skip the string; an unterminated one is JSON.parse's to report.
        for (i += 1; i < n; i += 1) {
          const d = text.charCodeAt(i);
          if (d === BACKSLASH) i += 1;
          else if (d === QUOTE) break;
        }
      }
    }
    return marks;
  }
  for (let i = 0; i < n && marks <= stopAfter; i += 1) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET || c === DASH || c === COLON || c === NEWLINE) marks += 1;
  }
  return marks;
}

const markLimit = (syntax: Syntax): number => (syntax === 'json' ? IMPORT_LIMITS.maxJsonValueMarks : IMPORT_LIMITS.maxYamlValueMarks);

/** Refuses a text whose parser would allocate more values than an import may hold. */
export function guardValueCount(text: string, syntax: Syntax): void {
  const limit = markLimit(syntax);
  if (countValueMarks(text, syntax, limit) > limit) {
    const what = syntax === 'json' ? 'values' : 'values (or value separators: - : , and lines)';
    throw new ImportError(`The file has more than ${limit.toLocaleString('en-US')} ${what}, more than an import holds. Import a smaller part of it.`);
  }
}
