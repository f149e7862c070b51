// Bounds how many values a document's parser will allocate, before it runs. JSON.parse builds a
// huge array in memory outside the JS heap and then copies it in whole, past any heap limit: 25 MB
// of "{}," (8.7 million objects) grew the process by 650 MB and, in a worker thread, aborted the
// whole process when the worker hit its heap limit (nodejs/node#47224). The text is counted first,
// allocating nothing; docs/decisions.md ("Imports run in a worker").

import { ImportError } from './errors';
import { IMPORT_LIMITS } from './limits';
import type { Syntax } from './parse-document';

/** Characters that open or separate values: JSON needs one before every value but the first of a container. */
const JSON_MARKS = ['{', '[', ','];
/** YAML also starts values after `- `, `key:` and at line ends. */
const YAML_MARKS = [...JSON_MARKS, '-', ':', '\n'];

/**
 * Marks that open or separate values, strings included, up to `stopAfter` + 1: an upper bound of the
 * values a parser allocates. Counted with the engine's own indexOf (a character loop took 20-80 ms on a
 * 2-4 MB file before the compiler caught up with it).
 */
export function countValueMarks(text: string, syntax: Syntax, stopAfter: number = markLimit(syntax)): number {
  let marks = 0;
  for (const mark of syntax === 'json' ? JSON_MARKS : YAML_MARKS) {
    for (let i = text.indexOf(mark); i !== -1 && marks <= stopAfter; i = text.indexOf(mark, i + 1)) marks += 1;
    if (marks > stopAfter) break;
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
