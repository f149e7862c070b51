// A fast reader for the plain block YAML most API descriptions are written in (APIs-guru style:
// block mappings and sequences, plain and quoted one-line scalars, `|` literal blocks). It either
// returns exactly what js-yaml would, or gives up (null) and js-yaml reads the file: anything
// outside that subset — flow collections, folded or multi-line scalars, comments after values,
// anchors, tags, tabs, CR, several documents, duplicate keys, merge keys — makes it give up.
// Plain scalars are resolved by js-yaml's own implicit types, so `200`, `true`, `~` and `0x1F`
// mean what they mean there. It works on offsets into the text (few intermediate strings); the
// equivalence with js-yaml is checked by fast-check (fast-yaml.test.ts).

import type yaml from 'js-yaml';
import { put, type Obj } from './values';

class GiveUp extends Error {}

interface ImplicitType {
  tag: string;
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

/** Deepest nesting handled here; deeper documents go to js-yaml (which enforces the real limit). */
const MAX_NESTING = 200;
/**
 * Characters js-yaml refuses (non-printable, lone surrogates) or treats as line breaks (NEL, LS, PS),
 * plus every surrogate: a text with any of them is left to js-yaml.
 */
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uD800-\uDFFF\u2028\u2029\uFFFE\uFFFF]/;
/** YAML double-quoted escapes (as js-yaml reads them). */
const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\x00',
  a: '\x07',
  b: '\x08',
  t: '\x09',
  '\t': '\x09',
  n: '\x0A',
  v: '\x0B',
  f: '\x0C',
  r: '\x0D',
  e: '\x1B',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xA0',
  L: '\u2028',
  P: '\u2029',
};

const SPACE = 32;
const HASH = 35;
const QUOTE = 39;
const DQUOTE = 34;
const COLON = 58;
const DASH = 45;
const QUESTION = 63;
const PIPE = 124;
/** First characters that make a scalar something other than a plain one-liner. */
const SPECIAL_START = new Set('#&*!|>\'"%@`[]{},'.split('').map((c) => c.charCodeAt(0)));

export function createFastYamlReader(schema: yaml.Schema): (text: string) => { value: unknown } | null {
  const implicit = (schema as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit;
  // With exactly these implicit types, a text starting with a letter other than n, t, f (any case)
  // can only be a string: null, bool, numbers and `<<` all start otherwise.
  const knownTypes = implicit.every((t) => /:(null|bool|int|float|merge)$/.test(t.tag));

  function plain(s: string): unknown {
    const c = s.charCodeAt(0) | 0x20; // lower-cased if a letter
    if (knownTypes && c >= 0x61 && c <= 0x7a && c !== 0x6e && c !== 0x74 && c !== 0x66) return s;
    for (const type of implicit) if (type.resolve(s)) return type.construct(s);
    return s;
  }

  return function read(text: string): { value: unknown } | null {
    if (text.includes('\t') || text.includes('\r') || text.includes('&') || text.charCodeAt(0) === 0xfeff || UNUSUAL.test(text)) return null;
    // Lines as offsets: [starts[i], ends[i]) without the line break; a final break adds no line.
    const startList: number[] = [];
    for (let at = 0; at < text.length || at === 0; ) {
      startList.push(at);
      const nl = text.indexOf('\n', at);
      if (nl === -1) break;
      at = nl + 1;
      if (at === text.length) break;
    }
    const count = startList.length;
    const finalBreak = text.endsWith('\n');
    const starts = Int32Array.from(startList);
    const ends = new Int32Array(count);
    const indents = new Int32Array(count);
    for (let i = 0; i < count; i += 1) {
      const s = starts[i]!;
      const e = i + 1 < count ? starts[i + 1]! - 1 : finalBreak ? text.length - 1 : text.length;
      ends[i] = e;
      let p = s;
      while (p < e && text.charCodeAt(p) === SPACE) p += 1;
      indents[i] = p - s;
    }
    const lineLength = (i: number) => ends[i]! - starts[i]!;
    /** A line that carries no structure: blank, or a comment. */
    const blank = (i: number): boolean => indents[i] === lineLength(i) || text.charCodeAt(starts[i]! + indents[i]!) === HASH;
    const nextContent = (i: number): number => {
      while (i < count && blank(i)) i += 1;
      return i;
    };
    /** End of [from, to) with trailing spaces dropped (js-yaml trims spaces and tabs, and there are no tabs). */
    const trimEnd = (from: number, to: number): number => {
      while (to > from && text.charCodeAt(to - 1) === SPACE) to -= 1;
      return to;
    };
    const skipSpaces = (from: number, to: number): number => {
      while (from < to && text.charCodeAt(from) === SPACE) from += 1;
      return from;
    };
    /** Offset of the two characters `a` `b` within [from, to), or -1 (never searches past the line). */
    const find2 = (a: number, b: number, from: number, to: number): number => {
      for (let p = from; p + 1 < to; p += 1) if (text.charCodeAt(p) === a && text.charCodeAt(p + 1) === b) return p;
      return -1;
    };
    const isDashAt = (p: number, end: number) => text.charCodeAt(p) === DASH && (p + 1 === end || text.charCodeAt(p + 1) === SPACE);
    /** "-", "?" or ":" followed by a space or the end: an indicator, not the start of a plain scalar. */
    const indicatorAt = (p: number, end: number) => {
      const c = text.charCodeAt(p);
      return (c === DASH || c === QUESTION || c === COLON) && (p + 1 === end || text.charCodeAt(p + 1) === SPACE);
    };

    let pos = 0;
    // A sequence entry "- key: value" or "- - a" starts a node on the dash's line: this overrides where.
    let virtualLine = -1;
    let virtualIndent = 0;
    const indentOf = (i: number) => (i === virtualLine ? virtualIndent : indents[i]!);

    /** A single-quoted scalar at `from` (on the quote), ending before `to`; returns the value and where it ends. */
    function singleQuoted(from: number, to: number): { value: string; end: number } {
      let out = '';
      let p = from + 1;
      for (;;) {
        let q = p;
        while (q < to && text.charCodeAt(q) !== QUOTE) q += 1;
        if (q >= to) throw new GiveUp();
        out += text.slice(p, q);
        if (q + 1 < to && text.charCodeAt(q + 1) === QUOTE) {
          out += "'";
          p = q + 2;
          continue;
        }
        return { value: out, end: q + 1 };
      }
    }

    function doubleQuoted(from: number, to: number): { value: string; end: number } {
      let out = '';
      let chunk = from + 1;
      for (let p = from + 1; p < to; p += 1) {
        const ch = text.charCodeAt(p);
        if (ch === DQUOTE) return { value: out + text.slice(chunk, p), end: p + 1 };
        if (ch !== 92 /* \ */) continue;
        out += text.slice(chunk, p);
        if (p + 1 >= to) throw new GiveUp();
        const e = text[p + 1]!;
        const simple = SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          p += 1;
        } else {
          const size = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
          const hex = text.slice(p + 2, Math.min(p + 2 + size, to));
          if (!size || hex.length !== size || !/^[0-9a-fA-F]+$/.test(hex)) throw new GiveUp();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) throw new GiveUp();
          out += String.fromCodePoint(code);
          p += 1 + size;
        }
        chunk = p + 1;
      }
      throw new GiveUp();
    }

    const quoted = (from: number, to: number) => (text.charCodeAt(from) === QUOTE ? singleQuoted(from, to) : doubleQuoted(from, to));

    /** `|`, `|-`, `|+` after a key or dash at `parentIndent`; the header is on line `i`. */
    function literal(chomp: '' | '-' | '+', i: number, parentIndent: number): string {
      let j = i + 1;
      let leading = 0;
      while (j < count && indents[j] === lineLength(j)) {
        leading += 1;
        j += 1;
      }
      if (j >= count) throw new GiveUp();
      const m = indents[j]!;
      if (m <= parentIndent) throw new GiveUp();
      for (let k = i + 1; k < j; k += 1) if (lineLength(k) > m) throw new GiveUp();
      const body: string[] = [];
      for (let k = 0; k < leading; k += 1) body.push('');
      let trailing = 0;
      let k = j;
      for (; k < count; k += 1) {
        const len = lineLength(k);
        if (indents[k] === len) {
          if (len > m) throw new GiveUp();
          trailing += 1;
          continue;
        }
        if (indents[k]! < m) break;
        for (; trailing > 0; trailing -= 1) body.push('');
        body.push(text.slice(starts[k]! + m, ends[k]!));
      }
      // Running into the end of a text without a final line break, the last line has none: leave that to js-yaml.
      if (k >= count && !finalBreak) throw new GiveUp();
      pos = k;
      const content = body.join('\n');
      if (chomp === '-') return content;
      if (chomp === '') return content.length ? `${content}\n` : '';
      return `${content}\n${'\n'.repeat(trailing)}`;
    }

    /** A value on line `i` from `from` (not a space) to the line's end, after "key: " or "- ". */
    function inlineValue(from: number, i: number, parentIndent: number): unknown {
      const lineEnd = ends[i]!;
      const first = text.charCodeAt(from);
      let value: unknown;
      if (first === QUOTE || first === DQUOTE) {
        const q = quoted(from, lineEnd);
        if (skipSpaces(q.end, lineEnd) !== lineEnd) throw new GiveUp();
        value = q.value;
      } else {
        const to = trimEnd(from, lineEnd);
        if (first === PIPE) {
          const header = text.slice(from, to);
          if (header !== '|' && header !== '|-' && header !== '|+') throw new GiveUp();
          return literal(header.slice(1) as '' | '-' | '+', i, parentIndent);
        }
        const len = to - from;
        if (len === 2 && text.startsWith('[]', from)) value = [];
        else if (len === 2 && text.startsWith('{}', from)) value = {};
        else {
          if (SPECIAL_START.has(first) || indicatorAt(from, to)) throw new GiveUp();
          if (text.charCodeAt(to - 1) === COLON) throw new GiveUp();
          if (find2(COLON, SPACE, from, to) !== -1 || find2(SPACE, HASH, from, to) !== -1) throw new GiveUp();
          value = plain(text.slice(from, to));
        }
      }
      pos = i + 1;
      // A more indented line after a one-line scalar would continue it (multi-line scalar).
      const next = nextContent(pos);
      if (next < count && indents[next]! > parentIndent) throw new GiveUp();
      return value;
    }

    /** The value after "key:" with nothing on the line: a nested block, a compact sequence, or null. */
    function valueBelow(i: number, keyIndent: number, depth: number): unknown {
      const j = nextContent(i + 1);
      if (j < count && indents[j]! > keyIndent) return block(j, depth + 1);
      if (j < count && indents[j] === keyIndent && isDashAt(starts[j]! + keyIndent, ends[j]!)) return sequence(j, keyIndent, depth + 1);
      pos = i + 1;
      return null;
    }

    /** Where "key:" ends on a line whose content starts at `from`: the key and the offset after the colon. */
    function keyAt(from: number, lineEnd: number): { key: string; after: number } | null {
      const first = text.charCodeAt(from);
      if (first === QUOTE || first === DQUOTE) {
        let q: { value: string; end: number };
        try {
          q = quoted(from, lineEnd);
        } catch {
          return null;
        }
        if (q.end >= lineEnd || text.charCodeAt(q.end) !== COLON) return null;
        if (q.end + 1 < lineEnd && text.charCodeAt(q.end + 1) !== SPACE) throw new GiveUp();
        return { key: q.value, after: q.end + 1 };
      }
      if (SPECIAL_START.has(first)) return null;
      const colon = find2(COLON, SPACE, from, lineEnd);
      const end = colon !== -1 ? colon : text.charCodeAt(lineEnd - 1) === COLON ? lineEnd - 1 : -1;
      if (end === -1) return null;
      if (indicatorAt(from, lineEnd) || end <= from) throw new GiveUp();
      const keyEnd = trimEnd(from, end);
      if (find2(SPACE, HASH, from, keyEnd) !== -1) throw new GiveUp();
      return { key: String(plain(text.slice(from, keyEnd))), after: end + 1 };
    }

    function mapping(start: number, indent: number, depth: number): Obj {
      if (depth > MAX_NESTING) throw new GiveUp();
      const out: Obj = {};
      let i = start;
      for (;;) {
        i = nextContent(i);
        if (i >= count) break;
        const n = indentOf(i);
        if (n < indent) break;
        if (n > indent) throw new GiveUp();
        const from = starts[i]! + n;
        const lineEnd = ends[i]!;
        if (isDashAt(from, lineEnd)) break; // a compact sequence's parent decides
        const entry = keyAt(from, lineEnd);
        if (!entry) throw new GiveUp();
        if (entry.key === '<<' || Object.prototype.hasOwnProperty.call(out, entry.key)) throw new GiveUp();
        if (i === virtualLine) virtualLine = -1;
        const rest = skipSpaces(entry.after, lineEnd);
        put(out, entry.key, rest === lineEnd ? valueBelow(i, indent, depth) : inlineValue(rest, i, indent));
        i = pos;
      }
      pos = i;
      return out;
    }

    function sequence(start: number, indent: number, depth: number): unknown[] {
      if (depth > MAX_NESTING) throw new GiveUp();
      const out: unknown[] = [];
      let i = start;
      for (;;) {
        i = nextContent(i);
        if (i >= count) break;
        const n = indentOf(i);
        if (n < indent) break;
        if (n > indent) throw new GiveUp();
        const from = starts[i]! + n;
        const lineEnd = ends[i]!;
        if (!isDashAt(from, lineEnd)) break;
        if (i === virtualLine) virtualLine = -1;
        const item = skipSpaces(from + 1, lineEnd);
        // A bare "-" (its value on the next lines) has indentation quirks in js-yaml: leave it to js-yaml.
        if (item === lineEnd) throw new GiveUp();
        const column = n + (item - from);
        if (isDashAt(item, lineEnd)) {
          // "- - a": a sequence that starts on its parent's line.
          virtualLine = i;
          virtualIndent = column;
          out.push(sequence(i, column, depth + 1));
        } else if (keyAt(item, lineEnd)) {
          virtualLine = i;
          virtualIndent = column;
          out.push(mapping(i, column, depth + 1));
        } else out.push(inlineValue(item, i, indent));
        i = pos;
      }
      pos = i;
      return out;
    }

    function block(i: number, depth: number): unknown {
      const n = indentOf(i);
      return isDashAt(starts[i]! + n, ends[i]!) ? sequence(i, n, depth) : mapping(i, n, depth);
    }

    try {
      let first = nextContent(0);
      const firstLine = (k: number) => text.slice(starts[k]!, ends[k]!);
      if (first < count && firstLine(first) === '---') first = nextContent(first + 1);
      if (first >= count) return null;
      if (text.charCodeAt(starts[first]! + indents[first]!) === 37 /* % */) return null;
      // Document markers after the start: several documents, or an explicit end.
      for (let k = first; k < count; k += 1) {
        const s = starts[k]!;
        if ((text.startsWith('---', s) || text.startsWith('...', s)) && (lineLength(k) === 3 || text.charCodeAt(s + 3) === SPACE)) return null;
      }
      const value = block(first, 1);
      if (nextContent(pos) < count) return null;
      return { value };
    } catch (err) {
      if (err instanceof GiveUp) return null;
      throw err;
    }
  };
}
