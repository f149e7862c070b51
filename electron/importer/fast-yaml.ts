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
/** A line that is "---" or "...", alone or followed by a space (the text has no CR). */
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?: |$)/gm;
const SPECIAL_START = new Uint8Array(128);
for (const c of '#&*!|>\'"%@`[]{},') SPECIAL_START[c.charCodeAt(0)] = 1;
/** Whether a character code starts something other than a plain scalar (a table: this runs on every line). */
const special = (code: number): boolean => code < 128 && SPECIAL_START[code] === 1;

type Plain = (s: string) => unknown;

/** Where a quoted scalar ends (the offset after its closing quote), set by the quoted-scalar readers. */
interface Quoted {
  value: string;
  end: number;
}

/**
 * One reading of one text. The state lives in fields and the steps are methods (not closures made
 * per text): closures made afresh for every file left V8 re-optimising the whole reader on each call,
 * and ran about a third slower even when warm.
 */
class BlockReader {
  /** Lines as offsets: [starts[i], ends[i]) without the line break; a final break adds no line. */
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly indents: Int32Array;
  private readonly count: number;
  private readonly finalBreak: boolean;
  private pos = 0;
  // A sequence entry "- key: value" or "- - a" starts a node on the dash's line: this overrides where.
  private virtualLine = -1;
  private virtualIndent = 0;
  // What keyAt found (fields, not a returned object: it runs on every line).
  private keyText = '';
  private keyAfter = 0;
  // The next ": " and " #" at or after where each was last searched from (-1: none up to the end).
  private colonFrom = -1;
  private colonNext = -1;
  private hashFrom = -1;
  private hashNext = -1;

  constructor(
    private readonly text: string,
    private readonly plain: Plain,
  ) {
    let lineCount = 0;
    let starts = new Int32Array(1024);
    for (let at = 0; at < text.length || at === 0; ) {
      if (lineCount === starts.length) {
        const bigger = new Int32Array(starts.length * 2);
        bigger.set(starts);
        starts = bigger;
      }
      starts[lineCount++] = at;
      const nl = text.indexOf('\n', at);
      if (nl === -1) break;
      at = nl + 1;
      if (at === text.length) break;
    }
    const count = lineCount;
    const finalBreak = text.endsWith('\n');
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
    this.starts = starts;
    this.ends = ends;
    this.indents = indents;
    this.count = count;
    this.finalBreak = finalBreak;
  }

  private lineLength(i: number): number {
    return this.ends[i]! - this.starts[i]!;
  }

  /** A line that carries no structure: blank, or a comment. */
  private blank(i: number): boolean {
    return this.indents[i] === this.lineLength(i) || this.text.charCodeAt(this.starts[i]! + this.indents[i]!) === HASH;
  }

  private nextContent(i: number): number {
    while (i < this.count && this.blank(i)) i += 1;
    return i;
  }

  /** End of [from, to) with trailing spaces dropped (js-yaml trims spaces and tabs, and there are no tabs). */
  private trimEnd(from: number, to: number): number {
    while (to > from && this.text.charCodeAt(to - 1) === SPACE) to -= 1;
    return to;
  }

  private skipSpaces(from: number, to: number): number {
    while (from < to && this.text.charCodeAt(from) === SPACE) from += 1;
    return from;
  }

  /**
   * Offset of ": " within [from, to), or -1. Found with a one-character indexOf (memchr speed),
   * remembering the next occurrence: lookups move forward through the text, so each stretch is
   * searched once (a character loop over every long description was a sixth of the reader's time).
   */
  private findColonSpace(from: number, to: number): number {
    if (this.colonFrom < 0 || from < this.colonFrom || (this.colonNext !== -1 && from > this.colonNext)) {
      this.colonFrom = from;
      this.colonNext = -1;
      const text = this.text;
      for (let p = text.indexOf(':', from); p !== -1; p = text.indexOf(':', p + 1)) {
        if (text.charCodeAt(p + 1) === SPACE) {
          this.colonNext = p;
          break;
        }
      }
    }
    const next = this.colonNext;
    return next !== -1 && next + 1 < to ? next : -1;
  }

  /** Offset of " #" within [from, to), or -1 (the same way, searching for the rarer "#"). */
  private findSpaceHash(from: number, to: number): number {
    if (this.hashFrom < 0 || from < this.hashFrom || (this.hashNext !== -1 && from > this.hashNext)) {
      this.hashFrom = from;
      this.hashNext = -1;
      const text = this.text;
      for (let p = text.indexOf('#', from + 1); p !== -1; p = text.indexOf('#', p + 1)) {
        if (text.charCodeAt(p - 1) === SPACE) {
          this.hashNext = p - 1;
          break;
        }
      }
    }
    const next = this.hashNext;
    return next !== -1 && next + 1 < to ? next : -1;
  }

  private isDashAt(p: number, end: number): boolean {
    return this.text.charCodeAt(p) === DASH && (p + 1 === end || this.text.charCodeAt(p + 1) === SPACE);
  }

  /** "-", "?" or ":" followed by a space or the end: an indicator, not the start of a plain scalar. */
  private indicatorAt(p: number, end: number): boolean {
    const c = this.text.charCodeAt(p);
    return (c === DASH || c === QUESTION || c === COLON) && (p + 1 === end || this.text.charCodeAt(p + 1) === SPACE);
  }

  private indentOf(i: number): number {
    return i === this.virtualLine ? this.virtualIndent : this.indents[i]!;
  }

  /** A single-quoted scalar at `from` (on the quote), ending before `to`; returns the value and where it ends. */
  private singleQuoted(from: number, to: number): Quoted {
    const text = this.text;
    let out = '';
    let p = from + 1;
    for (;;) {
      const q = text.indexOf("'", p);
      if (q === -1 || q >= to) throw new GiveUp();
      out += text.slice(p, q);
      if (q + 1 < to && text.charCodeAt(q + 1) === QUOTE) {
        out += "'";
        p = q + 2;
        continue;
      }
      return { value: out, end: q + 1 };
    }
  }

  private doubleQuoted(from: number, to: number): Quoted {
    const text = this.text;
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

  private quoted(from: number, to: number): Quoted {
    return this.text.charCodeAt(from) === QUOTE ? this.singleQuoted(from, to) : this.doubleQuoted(from, to);
  }

  /** `|`, `|-`, `|+` after a key or dash at `parentIndent`; the header is on line `i`. */
  private literal(chomp: '' | '-' | '+', i: number, parentIndent: number): string {
    const { count, indents, starts, ends, text } = this;
    let j = i + 1;
    let leading = 0;
    while (j < count && indents[j] === this.lineLength(j)) {
      leading += 1;
      j += 1;
    }
    if (j >= count) throw new GiveUp();
    const m = indents[j]!;
    if (m <= parentIndent) throw new GiveUp();
    for (let k = i + 1; k < j; k += 1) if (this.lineLength(k) > m) throw new GiveUp();
    const body: string[] = [];
    for (let k = 0; k < leading; k += 1) body.push('');
    let trailing = 0;
    let k = j;
    for (; k < count; k += 1) {
      const len = this.lineLength(k);
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
    if (k >= count && !this.finalBreak) throw new GiveUp();
    this.pos = k;
    const content = body.join('\n');
    if (chomp === '-') return content;
    if (chomp === '') return content.length ? `${content}\n` : '';
    return `${content}\n${'\n'.repeat(trailing)}`;
  }

  /** A value on line `i` from `from` (not a space) to the line's end, after "key: " or "- ". */
  private inlineValue(from: number, i: number, parentIndent: number): unknown {
    const text = this.text;
    const lineEnd = this.ends[i]!;
    const first = text.charCodeAt(from);
    let value: unknown;
    if (first === QUOTE || first === DQUOTE) {
      const q = this.quoted(from, lineEnd);
      if (this.skipSpaces(q.end, lineEnd) !== lineEnd) throw new GiveUp();
      value = q.value;
    } else {
      const to = this.trimEnd(from, lineEnd);
      if (first === PIPE) {
        const header = text.slice(from, to);
        if (header !== '|' && header !== '|-' && header !== '|+') throw new GiveUp();
        return this.literal(header.slice(1) as '' | '-' | '+', i, parentIndent);
      }
      const len = to - from;
      if (len === 2 && text.startsWith('[]', from)) value = [];
      else if (len === 2 && text.startsWith('{}', from)) value = {};
      else {
        if (special(first) || this.indicatorAt(from, to)) throw new GiveUp();
        if (text.charCodeAt(to - 1) === COLON) throw new GiveUp();
        if (this.findColonSpace(from, to) !== -1 || this.findSpaceHash(from, to) !== -1) throw new GiveUp();
        value = this.plain(text.slice(from, to));
      }
    }
    this.pos = i + 1;
    // A more indented line after a one-line scalar would continue it (multi-line scalar).
    const next = this.nextContent(this.pos);
    if (next < this.count && this.indents[next]! > parentIndent) throw new GiveUp();
    return value;
  }

  /** Whether a "key:" starts at `from`; sets keyText and keyAfter (the offset after the colon). */
  private keyAt(from: number, lineEnd: number): boolean {
    const text = this.text;
    const first = text.charCodeAt(from);
    if (first === QUOTE || first === DQUOTE) {
      let q: Quoted;
      try {
        q = this.quoted(from, lineEnd);
      } catch {
        return false;
      }
      if (q.end >= lineEnd || text.charCodeAt(q.end) !== COLON) return false;
      if (q.end + 1 < lineEnd && text.charCodeAt(q.end + 1) !== SPACE) throw new GiveUp();
      this.keyText = q.value;
      this.keyAfter = q.end + 1;
      return true;
    }
    if (special(first)) return false;
    const colon = this.findColonSpace(from, lineEnd);
    const end = colon !== -1 ? colon : text.charCodeAt(lineEnd - 1) === COLON ? lineEnd - 1 : -1;
    if (end === -1) return false;
    if (this.indicatorAt(from, lineEnd) || end <= from) throw new GiveUp();
    const keyEnd = this.trimEnd(from, end);
    if (this.findSpaceHash(from, keyEnd) !== -1) throw new GiveUp();
    this.keyText = String(this.plain(text.slice(from, keyEnd)));
    this.keyAfter = end + 1;
    return true;
  }

  private mapping(start: number, indent: number, depth: number): Obj {
    if (depth > MAX_NESTING) throw new GiveUp();
    const out: Obj = {};
    let i = start;
    for (;;) {
      i = this.nextContent(i);
      if (i >= this.count) break;
      const n = this.indentOf(i);
      if (n < indent) break;
      if (n > indent) throw new GiveUp();
      const from = this.starts[i]! + n;
      const lineEnd = this.ends[i]!;
      if (this.isDashAt(from, lineEnd)) break; // a compact sequence's parent decides
      if (!this.keyAt(from, lineEnd)) throw new GiveUp();
      const key = this.keyText;
      // Values are never undefined: a defined one is an own key (a duplicate) or an inherited one.
      if (key === '<<' || (out[key] !== undefined && Object.prototype.hasOwnProperty.call(out, key))) throw new GiveUp();
      if (i === this.virtualLine) this.virtualLine = -1;
      const rest = this.skipSpaces(this.keyAfter, lineEnd);
      let value: unknown;
      if (rest !== lineEnd) value = this.inlineValue(rest, i, indent);
      else {
        // Nothing after "key:": a nested block, a compact sequence, or null. Written out here, not called:
        // it keeps this function too large for the optimising compiler to inline into its callers, so the
        // recursion mapping -> block -> mapping is not compiled into one huge function (whose compilation
        // took longer than a first import spends reading).
        const j = this.nextContent(i + 1);
        if (j < this.count && this.indents[j]! > indent) value = this.block(j, depth + 1);
        else if (j < this.count && this.indents[j] === indent && this.isDashAt(this.starts[j]! + indent, this.ends[j]!)) value = this.sequence(j, indent, depth + 1);
        else {
          this.pos = i + 1;
          value = null;
        }
      }
      put(out, key, value);
      i = this.pos;
    }
    this.pos = i;
    return out;
  }

  private sequence(start: number, indent: number, depth: number): unknown[] {
    if (depth > MAX_NESTING) throw new GiveUp();
    const out: unknown[] = [];
    let i = start;
    for (;;) {
      i = this.nextContent(i);
      if (i >= this.count) break;
      const n = this.indentOf(i);
      if (n < indent) break;
      if (n > indent) throw new GiveUp();
      const from = this.starts[i]! + n;
      const lineEnd = this.ends[i]!;
      if (!this.isDashAt(from, lineEnd)) break;
      if (i === this.virtualLine) this.virtualLine = -1;
      const item = this.skipSpaces(from + 1, lineEnd);
      // A bare "-" (its value on the next lines) has indentation quirks in js-yaml: leave it to js-yaml.
      if (item === lineEnd) throw new GiveUp();
      const column = n + (item - from);
      if (this.isDashAt(item, lineEnd)) {
        // "- - a": a sequence that starts on its parent's line.
        this.virtualLine = i;
        this.virtualIndent = column;
        out.push(this.sequence(i, column, depth + 1));
      } else if (this.keyAt(item, lineEnd)) {
        this.virtualLine = i;
        this.virtualIndent = column;
        out.push(this.mapping(i, column, depth + 1));
      } else out.push(this.inlineValue(item, i, indent));
      i = this.pos;
    }
    this.pos = i;
    return out;
  }

  private block(i: number, depth: number): unknown {
    const n = this.indentOf(i);
    return this.isDashAt(this.starts[i]! + n, this.ends[i]!) ? this.sequence(i, n, depth) : this.mapping(i, n, depth);
  }


  /** The document, or null when it is outside the subset (GiveUp). */
  read(): { value: unknown } | null {
    const { text, starts, ends, indents, count } = this;
    let first = this.nextContent(0);
    if (first < count && text.slice(starts[first]!, ends[first]!) === '---') first = this.nextContent(first + 1);
    if (first >= count) return null;
    if (text.charCodeAt(starts[first]! + indents[first]!) === 37 /* % */) return null;
    // Document markers after the start: several documents, or an explicit end (one regular-expression
    // scan, not a check per line).
    DOCUMENT_MARKER.lastIndex = starts[first]!;
    if (DOCUMENT_MARKER.test(text)) return null;
    const value = this.block(first, 1);
    if (this.nextContent(this.pos) < count) return null;
    return { value };
  }
}

export function createFastYamlReader(schema: yaml.Schema): (text: string) => { value: unknown } | null {
  const implicit = (schema as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit;
  // With exactly these implicit types, a text starting with a letter can only be a string unless it
  // is a null or a bool (null, true, false in three casings: 5 letters at most, starting n, t or f);
  // numbers, `~` and `<<` all start otherwise. Keys like "type" and "name" skip the resolvers.
  const knownTypes = implicit.every((t) => /:(null|bool|int|float|merge)$/.test(t.tag));

  function plain(s: string): unknown {
    const c = s.charCodeAt(0) | 0x20; // lower-cased if a letter
    if (knownTypes && c >= 0x61 && c <= 0x7a) {
      if (s.length > 5) return s;
      // The null and bool spellings of the core schema; any other word is a string.
      switch (s) {
        case 'null':
        case 'Null':
        case 'NULL':
          return null;
        case 'true':
        case 'True':
        case 'TRUE':
          return true;
        case 'false':
        case 'False':
        case 'FALSE':
          return false;
        default:
          return s;
      }
    }
    return resolveImplicit(s);
  }

  /** js-yaml's own implicit types (numbers, ~, <<...). Apart from plain(): the optimising compiler would
   * otherwise inline every type's resolver into each caller, and take longer compiling than reading. */
  function resolveImplicit(s: string): unknown {
    for (const type of implicit) if (type.resolve(s)) return type.construct(s);
    return s;
  }

  return function read(text: string): { value: unknown } | null {
    if (text.includes('\t') || text.includes('\r') || text.includes('&') || text.charCodeAt(0) === 0xfeff || UNUSUAL.test(text)) return null;
    try {
      return new BlockReader(text, plain).read();
    } catch (err) {
      if (err instanceof GiveUp) return null;
      throw err;
    }
  };
}
