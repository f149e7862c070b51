// A fast reader for the plain block YAML most API descriptions are written in (APIs-guru style:
// block mappings and sequences, plain and quoted one-line scalars, `|` literal blocks). It either
// returns exactly what js-yaml would, or gives up (null) and js-yaml reads the file: anything
// outside that subset — flow collections, folded or multi-line scalars, escapes, comments after
// values, anchors, tags, tabs, CR, several documents, duplicate keys, merge keys — makes it give
// up. Plain scalars are resolved by js-yaml's own implicit types, so `200`, `true`, `~` and `0x1F`
// mean what they mean there. The equivalence is checked against js-yaml by fast-check.

import type yaml from 'js-yaml';
import { put, type Obj } from './values';

class GiveUp extends Error {}

interface ImplicitType {
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

/** First characters that make a scalar something other than a plain one-liner. */
const SPECIAL_START = new Set(['#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '[', ']', '{', '}', ',']);

export function createFastYamlReader(schema: yaml.Schema): (text: string) => { value: unknown } | null {
  const implicit = (schema as unknown as { compiledImplicit: (ImplicitType & { tag: string })[] }).compiledImplicit;
  // With exactly these implicit types, a text starting with a letter other than n, t, f (any case)
  // can only be a string: null, bool, numbers and `<<` all start otherwise.
  const knownTypes = implicit.every((t) => /:(null|bool|int|float|merge)$/.test(t.tag));

  function resolvePlain(text: string): unknown {
    for (const type of implicit) if (type.resolve(text)) return type.construct(text);
    return text;
  }

  return function read(text: string): { value: unknown } | null {
    if (text.includes('\t') || text.includes('\r') || text.includes('&') || text.charCodeAt(0) === 0xfeff || UNUSUAL.test(text)) return null;
    const lines = text.split('\n');
    // A text ending with a line break leaves an empty last element that is not a line.
    const finalBreak = lines.length > 1 && lines[lines.length - 1] === '';
    if (finalBreak) lines.pop();
    const indents = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i += 1) {
      const l = lines[i]!;
      let n = 0;
      while (l.charCodeAt(n) === 32) n += 1;
      indents[i] = n;
    }
    const plain = (text: string): unknown => {
      const c = text.charCodeAt(0) | 0x20; // lower-cased if a letter
      if (knownTypes && c >= 0x61 && c <= 0x7a && c !== 0x6e && c !== 0x74 && c !== 0x66) return text;
      return resolvePlain(text);
    };
    /** A line that carries no structure: blank, or a comment. */
    const blank = (i: number): boolean => {
      const l = lines[i]!;
      const n = indents[i]!;
      return n === l.length || l.charCodeAt(n) === 35; /* # */
    };
    const nextContent = (i: number): number => {
      while (i < lines.length && blank(i)) i += 1;
      return i;
    };

    let pos = 0;
    // A sequence entry "- key: value" puts a mapping on the dash's line: this overrides where it starts.
    let virtualLine = -1;
    let virtualIndent = 0;
    const indentOf = (i: number) => (i === virtualLine ? virtualIndent : indents[i]!);
    const contentOf = (i: number) => (i === virtualLine ? lines[i]!.slice(virtualIndent) : lines[i]!.slice(indents[i]!));

    function singleQuoted(s: string): { value: string; rest: string } {
      let out = '';
      let i = 1;
      for (;;) {
        const q = s.indexOf("'", i);
        if (q === -1) throw new GiveUp();
        out += s.slice(i, q);
        if (s[q + 1] === "'") {
          out += "'";
          i = q + 2;
          continue;
        }
        return { value: out, rest: s.slice(q + 1) };
      }
    }

    function doubleQuoted(s: string): { value: string; rest: string } {
      let out = '';
      let from = 1;
      for (let i = 1; i < s.length; i += 1) {
        const ch = s[i];
        if (ch === '"') return { value: out + s.slice(from, i), rest: s.slice(i + 1) };
        if (ch !== '\\') continue;
        out += s.slice(from, i);
        const e = s[i + 1];
        if (e === undefined) throw new GiveUp();
        const simple = SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          i += 1;
        } else {
          const size = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
          const hex = s.slice(i + 2, i + 2 + size);
          if (!size || hex.length !== size || !/^[0-9a-fA-F]+$/.test(hex)) throw new GiveUp();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) throw new GiveUp();
          out += String.fromCodePoint(code);
          i += 1 + size;
        }
        from = i + 1;
      }
      throw new GiveUp();
    }

    /** `|`, `|-`, `|+` after a key or dash at `parentIndent`; the header is on line `i`. */
    function literal(indicator: string, i: number, parentIndent: number): unknown {
      let j = i + 1;
      const leading: number[] = [];
      while (j < lines.length && indents[j] === lines[j]!.length) {
        leading.push(lines[j]!.length);
        j += 1;
      }
      if (j >= lines.length) throw new GiveUp();
      const m = indents[j]!;
      if (m <= parentIndent || leading.some((n) => n > m)) throw new GiveUp();
      const body: string[] = leading.map(() => '');
      let trailing = 0;
      let k = j;
      for (; k < lines.length; k += 1) {
        const l = lines[k]!;
        if (indents[k] === l.length) {
          if (l.length > m) throw new GiveUp();
          trailing += 1;
          continue;
        }
        if (indents[k]! < m) break;
        for (; trailing > 0; trailing -= 1) body.push('');
        body.push(l.slice(m));
      }
      // Running into the end of a text without a final line break, the last line has none: leave that to js-yaml.
      if (k >= lines.length && !finalBreak) throw new GiveUp();
      pos = k;
      const content = body.join('\n');
      if (indicator === '|-') return content;
      if (indicator === '|') return content.length ? `${content}\n` : '';
      return `${content}\n${'\n'.repeat(trailing)}`;
    }

    /** A value written on the line after "key: " or "- " (`s`, already trimmed at the start). */
    function inlineValue(s: string, i: number, parentIndent: number): unknown {
      const first = s[0]!;
      let value: unknown;
      let rest: string;
      if (first === "'") ({ value, rest } = singleQuoted(s));
      else if (first === '"') ({ value, rest } = doubleQuoted(s));
      else {
        const t = s.trimEnd();
        if (first === '|') {
          if (t !== '|' && t !== '|-' && t !== '|+') throw new GiveUp();
          return literal(t, i, parentIndent);
        }
        if (t === '[]') value = [];
        else if (t === '{}') value = {};
        else {
          if (SPECIAL_START.has(first) || ((first === '-' || first === '?' || first === ':') && (t.length === 1 || t[1] === ' '))) throw new GiveUp();
          if (t.includes(': ') || t.endsWith(':') || t.includes(' #')) throw new GiveUp();
          value = plain(t);
        }
        rest = '';
      }
      if (rest.trim() !== '') throw new GiveUp();
      pos = i + 1;
      // A more indented line after a one-line scalar would continue it (multi-line scalar).
      const next = nextContent(pos);
      if (next < lines.length && indents[next]! > parentIndent) throw new GiveUp();
      return value;
    }

    /** The value after "key:" with nothing on the line: a nested block, a compact sequence, or null. */
    function valueBelow(i: number, keyIndent: number, depth: number): unknown {
      const j = nextContent(i + 1);
      if (j < lines.length && indents[j]! > keyIndent) return block(j, depth + 1);
      if (j < lines.length && indents[j] === keyIndent && isDash(contentOf(j))) return sequence(j, keyIndent, depth + 1);
      pos = i + 1;
      return null;
    }

    const isDash = (c: string) => c === '-' || c.startsWith('- ');

    function mapping(start: number, indent: number, depth: number): Obj {
      if (depth > MAX_NESTING) throw new GiveUp();
      const out: Obj = {};
      let i = start;
      for (;;) {
        i = nextContent(i);
        if (i >= lines.length) break;
        const n = indentOf(i);
        if (n < indent) break;
        if (n > indent) throw new GiveUp();
        const c = contentOf(i);
        if (isDash(c)) break; // a compact sequence's parent decides
        let key: string;
        let after: string;
        if (c[0] === "'" || c[0] === '"') {
          const q = c[0] === "'" ? singleQuoted(c) : doubleQuoted(c);
          key = q.value;
          if (!q.rest.startsWith(':') || (q.rest.length > 1 && q.rest[1] !== ' ')) throw new GiveUp();
          after = q.rest.slice(1);
        } else {
          if (SPECIAL_START.has(c[0]!) || ((c[0] === '-' || c[0] === '?' || c[0] === ':') && (c.length === 1 || c[1] === ' '))) throw new GiveUp();
          const colon = c.indexOf(': ');
          const end = colon === -1 ? (c.endsWith(':') ? c.length - 1 : -1) : colon;
          if (end <= 0) throw new GiveUp();
          const raw = c.slice(0, end).trimEnd();
          if (raw.includes(' #')) throw new GiveUp();
          key = String(plain(raw));
          after = c.slice(end + 1);
        }
        if (key === '<<' || Object.prototype.hasOwnProperty.call(out, key)) throw new GiveUp();
        if (i === virtualLine) virtualLine = -1;
        const rest = after.trimStart();
        const value = rest === '' ? valueBelow(i, indent, depth) : inlineValue(rest, i, indent);
        put(out, key, value);
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
        if (i >= lines.length) break;
        const n = indentOf(i);
        if (n < indent) break;
        if (n > indent) throw new GiveUp();
        const c = contentOf(i);
        if (!isDash(c)) break;
        if (i === virtualLine) virtualLine = -1;
        // A bare "-" (its value on the next lines) has indentation quirks in js-yaml: leave it to js-yaml.
        if (c === '-' || c.slice(1).trim() === '') throw new GiveUp();
        {
          let gap = 1;
          while (c.charCodeAt(gap) === 32) gap += 1;
          const item = c.slice(gap);
          if (isDash(item)) {
            // "- - a": a sequence that starts on its parent's line.
            virtualLine = i;
            virtualIndent = n + gap;
            out.push(sequence(i, n + gap, depth + 1));
          } else if (looksLikeEntry(item)) {
            virtualLine = i;
            virtualIndent = n + gap;
            out.push(mapping(i, n + gap, depth + 1));
          } else out.push(inlineValue(item, i, indent));
        }
        i = pos;
      }
      pos = i;
      return out;
    }

    function looksLikeEntry(c: string): boolean {
      if (c[0] === "'" || c[0] === '"') {
        try {
          const q = c[0] === "'" ? singleQuoted(c) : doubleQuoted(c);
          return q.rest.startsWith(':');
        } catch {
          return false;
        }
      }
      return !SPECIAL_START.has(c[0]!) && (c.includes(': ') || c.trimEnd().endsWith(':'));
    }

    function block(i: number, depth: number): unknown {
      return isDash(contentOf(i)) ? sequence(i, indentOf(i), depth) : mapping(i, indentOf(i), depth);
    }

    try {
      let first = nextContent(0);
      if (first < lines.length && lines[first] === '---') first = nextContent(first + 1);
      if (first >= lines.length) return null;
      const c = contentOf(first);
      if (c.startsWith('%')) return null;
      // Document markers after the start: several documents, or an explicit end.
      for (let i = first; i < lines.length; i += 1) if (/^(---|\.\.\.)( |$)/.test(lines[i]!)) return null;
      const value = block(first, 1);
      const rest = nextContent(pos);
      if (rest < lines.length) return null;
      return { value };
    } catch (err) {
      if (err instanceof GiveUp) return null;
      throw err;
    }
  };
}
