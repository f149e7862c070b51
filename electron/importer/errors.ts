// The one error an import throws for a file it refuses: a message that names what is wrong and
// where (a line and column, or a JSON pointer). The route answers it with 400.

export class ImportError extends Error {
  constructor(
    message: string,
    /** "line 3, column 7", a JSON pointer ("/paths/~1pets"), or "" when the whole file is meant. */
    readonly location: string = '',
  ) {
    // "Problem (at line 3, column 7)." reads better than "Problem. (at ...)".
    super(location ? `${message.replace(/\.$/, '')} (at ${location}).` : message);
    this.name = 'ImportError';
  }
}

/** A file the import refuses for its size or cost rather than its content: 413. */
export class ImportTooLargeError extends ImportError {
  constructor(message: string) {
    super(message);
    this.name = 'ImportTooLargeError';
  }
}

export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

export const lineColumn = (line: number, column: number): string => `line ${line}, column ${column}`;

/** Thrown while reading one operation: it is skipped with a warning saying why; the rest imports. */
export class SkipOperation extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipOperation';
  }
}
