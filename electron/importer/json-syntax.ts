// Finds where a JSON text stops being valid, for the error message: V8's JSON.parse does not always
// say where. Iterative (a 10,000-deep document cannot overflow the stack); only runs after a failure.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

export interface JsonSyntaxProblem {
  offset: number;
  message: string;
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  let i = 0;
  const n = text.length;
  // What the parser expects next inside each open container.
  const stack: ('obj-key' | 'obj-colon' | 'obj-value' | 'obj-next' | 'arr-value' | 'arr-next' | 'arr-first' | 'obj-first')[] = [];
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i += 1;
  };
  const fail = (message: string): JsonSyntaxProblem => ({ offset: i, message });

  const readString = (): JsonSyntaxProblem | null => {
    i += 1; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i += 1;
        return null;
      }
      if (c < 0x20) return fail('Bad control character in string (use \\n for a line break)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('Bad \\u escape in string');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return fail('Bad escape in string');
        i += 2;
        continue;
      }
      i += 1;
    }
    return fail('Unterminated string');
  };

  const readScalar = (): JsonSyntaxProblem | null => {
    const c = text[i];
    if (c === '"') return readString();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return null;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0 && m[0] !== '-') {
      i += m[0].length;
      return null;
    }
    if (c === undefined) return fail('Unexpected end of the file');
    return fail(`Unexpected character ${JSON.stringify(c)}`);
  };

  // A value: opens a container or reads a scalar.
  const readValue = (): JsonSyntaxProblem | null => {
    skipWs();
    const c = text[i];
    if (c === '{') {
      i += 1;
      stack.push('obj-first');
      return null;
    }
    if (c === '[') {
      i += 1;
      stack.push('arr-first');
      return null;
    }
    return readScalar();
  };

  const first = readValue();
  if (first) return first;
  while (stack.length) {
    skipWs();
    const top = stack[stack.length - 1]!;
    const c = text[i];
    if (c === undefined) return fail('Unexpected end of the file: a { or [ is not closed');
    if (top === 'obj-first' || top === 'obj-key') {
      if (c === '}' && top === 'obj-first') {
        i += 1;
        stack.pop();
        continue;
      }
      if (c !== '"') return fail(top === 'obj-key' ? 'Expected a double-quoted property name (a trailing comma?)' : "Expected a double-quoted property name or '}'");
      const p = readString();
      if (p) return p;
      stack[stack.length - 1] = 'obj-colon';
    } else if (top === 'obj-colon') {
      if (c !== ':') return fail("Expected ':' after the property name");
      i += 1;
      stack[stack.length - 1] = 'obj-next';
      const p = readValue();
      if (p) return p;
    } else if (top === 'obj-next') {
      if (c === ',') {
        i += 1;
        stack[stack.length - 1] = 'obj-key';
      } else if (c === '}') {
        i += 1;
        stack.pop();
      } else return fail("Expected ',' or '}' after the property value");
    } else if (top === 'arr-first' && c === ']') {
      i += 1;
      stack.pop();
    } else if (top === 'arr-first' || top === 'arr-value') {
      stack[stack.length - 1] = 'arr-next';
      if (c === ']') return fail('Unexpected \']\' (a trailing comma?)');
      const p = readValue();
      if (p) return p;
    } else if (top === 'arr-next') {
      if (c === ',') {
        i += 1;
        stack[stack.length - 1] = 'arr-value';
      } else if (c === ']') {
        i += 1;
        stack.pop();
      } else return fail("Expected ',' or ']' after the array element");
    } else return fail('Unexpected state');
  }
  skipWs();
  if (i < n) return fail('Unexpected text after the end of the JSON value');
  return null;
}
