// Inputs that make backtracking validators slow: which fields are worth trying (e-mail, URL and name
// fields, strings with a schema pattern that nests quantifiers) and the evil value of a given run
// length for each, with a benign value of the same length to time against.

import { compileUserPattern } from '../../../../shared/user-pattern';
import type { InjectionPoint } from '../common/input-points';

export type FieldKind = 'pattern' | 'email' | 'url' | 'name';

export interface EvilShape {
  kind: FieldKind;
  /** The value with a run of `n` repeated units followed by a mismatch. */
  evil(n: number): string;
  /** A well-formed value of the same length as evil(n) (no mismatch at the end). */
  benign(n: number): string;
  /** How the value is built, for the finding. */
  how: string;
}

const FIXED_FORMATS = /^(uuid|date|date-time|time|ipv4|ipv6|byte|binary|duration|password|int32|int64|double|float)$/;
const EMAIL_KEY = /e-?mail/i;
const URL_KEY = /(url|uri|href|link|website|homepage|callback|webhook|redirect)$/i;
const NAME_KEY = /^(user_?name|first_?name|last_?name|full_?name|display_?name|nick_?name|given_?name|family_?name|sur_?name|middle_?name|name|login|handle)$/i;
const EMAIL_VALUE = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

/** Which kind of backtracking-prone validator a field is likely to meet, or null. */
export function fieldKind(p: InjectionPoint): FieldKind | null {
  const s = p.schema ?? {};
  if (p.type !== 'string' || typeof p.value !== 'string' || s.enum) return null;
  const format = typeof s.format === 'string' ? s.format.toLowerCase() : '';
  if (typeof s.pattern === 'string' && patternShape(s.pattern)) return 'pattern';
  if (FIXED_FORMATS.test(format)) return null;
  if (format === 'email' || EMAIL_KEY.test(p.key) || EMAIL_VALUE.test(p.value)) return 'email';
  if (/^(uri|url|iri)$/.test(format) || URL_KEY.test(p.key) || /^https?:\/\//i.test(p.value)) return 'url';
  if (NAME_KEY.test(p.key)) return 'name';
  return null;
}

/** Fields whose validators are usually regular expressions (e-mail and URL): left to the backtracking check. */
export function regexValidated(p: InjectionPoint): boolean {
  const kind = fieldKind(p);
  return kind === 'email' || kind === 'url' || kind === 'pattern';
}

const fill = (n: number) => 'a'.repeat(Math.max(1, n));

/** The evil value and its benign twin for a field (null when no shape fits). */
export function shapeFor(p: InjectionPoint): EvilShape | null {
  const kind = fieldKind(p);
  switch (kind) {
    case 'pattern': {
      const shape = patternShape(String(p.schema!.pattern));
      if (!shape) return null;
      const { prefix, unit, mismatch } = shape;
      return {
        kind,
        evil: (n) => `${prefix}${unit.repeat(n)}${mismatch}`,
        // The run itself, completed to the same length with the unit: what the pattern is written to accept.
        benign: (n) => `${prefix}${unit.repeat(n + 1)}`.slice(0, prefix.length + unit.length * n + mismatch.length),
        how: `built from the schema pattern ${JSON.stringify(p.schema!.pattern)}: ${JSON.stringify(prefix)} + ${JSON.stringify(unit)} repeated + ${JSON.stringify(mismatch)}`,
      };
    }
    case 'email':
      return {
        kind,
        evil: (n) => `${fill(n)}!`,
        benign: (n) => `${fill(n + 1 - '@example.com'.length)}@example.com`,
        how: 'a run of letters with no @, ended by "!" (the local part of an e-mail that cannot match)',
      };
    case 'url':
      return {
        kind,
        evil: (n) => `https://example.com/${fill(n)}!`,
        benign: (n) => `https://example.com/${fill(n + 1)}`,
        how: 'https://example.com/ then a run of letters ended by "!"',
      };
    case 'name':
      return { kind, evil: (n) => `${fill(n)}!`, benign: (n) => fill(n + 1), how: 'a run of letters ended by "!"' };
    default:
      return null;
  }
}

// ---------------------------------------------------------------- schema patterns

interface Quant {
  min: number;
  max: number;
}

interface Atom {
  /** One character the atom matches ('' for anchors and lookarounds). */
  sample: string;
  quant: Quant;
  /** A group's alternatives. */
  alts?: Atom[][];
  /** A lookaround: matches nothing. */
  look?: boolean;
}

const ONE: Quant = { min: 1, max: 1 };

/** A small parser for the ECMA-262 subset schema patterns use: enough to find nested quantifiers and sample text. */
function parse(src: string): Atom[][] {
  let i = 0;
  const alternatives = (): Atom[][] => {
    const alts: Atom[][] = [sequence()];
    while (src[i] === '|') {
      i += 1;
      alts.push(sequence());
    }
    return alts;
  };
  const sequence = (): Atom[] => {
    const out: Atom[] = [];
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const atom = single();
      atom.quant = quantifier();
      out.push(atom);
    }
    return out;
  };
  const single = (): Atom => {
    const c = src[i++]!;
    if (c === '(') {
      let look = false;
      if (src[i] === '?') {
        const m = /^\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(src.slice(i));
        if (!m) throw new Error('unsupported group');
        look = /^\?(=|!|<=|<!)$/.test(m[0]);
        i += m[0].length;
      }
      const alts = alternatives();
      if (src[i++] !== ')') throw new Error('unbalanced group');
      return { sample: '', quant: ONE, alts, look };
    }
    if (c === '[') return { sample: classSample(), quant: ONE };
    if (c === '\\') return { sample: escapeSample(), quant: ONE };
    if (c === '^' || c === '$') return { sample: '', quant: { min: 0, max: 0 } };
    if (c === '.') return { sample: 'a', quant: ONE };
    return { sample: c, quant: ONE };
  };
  const escapeSample = (): string => {
    const e = src[i++] ?? '';
    if (e === 'd') return '1';
    if (e === 'w' || e === 'D' || e === 'S') return 'a';
    if (e === 's') return ' ';
    if (e === 'W') return '!';
    if (e === 'b' || e === 'B') return '';
    if (e === 'u' && /^[0-9a-fA-F]{4}/.test(src.slice(i))) return String.fromCharCode(parseInt(src.slice(i, (i += 4)), 16));
    if (e === 'x' && /^[0-9a-fA-F]{2}/.test(src.slice(i))) return String.fromCharCode(parseInt(src.slice(i, (i += 2)), 16));
    return e;
  };
  const classSample = (): string => {
    const negated = src[i] === '^';
    if (negated) i += 1;
    let first = '';
    let body = '';
    while (i < src.length && src[i] !== ']') {
      const c = src[i++]!;
      const ch = c === '\\' ? escapeSample() : c;
      body += ch;
      if (!first) first = ch;
    }
    i += 1;
    if (!negated) return first || 'a';
    return ['a', '0', 'x', '_', '.'].find((x) => !body.includes(x)) ?? 'a';
  };
  const quantifier = (): Quant => {
    let q: Quant = ONE;
    const c = src[i];
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return ONE;
      i += m[0].length - 1;
      q = { min: Number(m[1]), max: m[2] ? (m[3] ? Number(m[3]) : Infinity) : Number(m[1]) };
    } else return ONE;
    i += 1;
    if (src[i] === '?' || src[i] === '+') i += 1;
    return q;
  };
  const alts = alternatives();
  if (i < src.length) throw new Error('trailing text');
  return alts;
}

// Nested counted groups multiply ("((a{50}){50}){50}" is 125,000 characters): a sample past this
// length is no value a schema means, and building it would cost the memory of the repeats.
const MAX_SAMPLE = 1_000;

/** The shortest text an atom matches (first alternative of groups); throws past MAX_SAMPLE characters. */
function minimal(a: Atom): string {
  if (a.look) return '';
  const one = a.alts ? (a.alts[0] ?? []).map(minimal).join('') : a.sample;
  const times = Math.min(a.quant.min, 50);
  if (one.length * times > MAX_SAMPLE) throw new Error('sample too long');
  return one.repeat(times);
}

const unbounded = (a: Atom) => a.quant.max === Infinity || a.quant.max >= 16;

function containsUnbounded(seqs: Atom[][]): Atom | null {
  for (const seq of seqs) {
    for (const a of seq) {
      if (a.look) continue;
      if (unbounded(a) && (a.sample || a.alts)) return a;
      if (a.alts) {
        const inner = containsUnbounded(a.alts);
        if (inner) return inner;
      }
    }
  }
  return null;
}

/** The first group repeated without bound that holds another unbounded repetition, with the text before it. */
function locate(seq: Atom[], before: string): { prefix: string; group: Atom; inner: Atom } | null {
  let acc = before;
  for (const a of seq) {
    if (a.alts && !a.look) {
      const inner = unbounded(a) ? containsUnbounded(a.alts) : null;
      if (inner) return { prefix: acc, group: a, inner };
      const deeper = locate(a.alts[0] ?? [], acc);
      if (deeper) return deeper;
    }
    acc += minimal(a);
    if (acc.length > MAX_SAMPLE) throw new Error('sample too long');
  }
  return null;
}

const MISMATCHES = ['!', '#', '~', '\u00a7', ' ', '%'];

/**
 * For a pattern with nested unbounded quantifiers ("(\w+\s?)*", "([a-z]+\.?)+"): the text before the
 * group, the group's repeated unit and a character that makes the whole pattern fail after the run.
 * Null when the pattern has no such group, cannot be parsed, or RE2 cannot run it (lookarounds,
 * backreferences). The pattern comes from the imported file: it runs here on RE2, in linear time,
 * because a backtracking engine would stall on the very patterns this looks for.
 */
export function patternShape(pattern: string): { prefix: string; unit: string; mismatch: string } | null {
  const compiled = compileUserPattern(pattern);
  if (!compiled.ok) return null;
  let found: ReturnType<typeof locate>;
  let unit: string;
  try {
    found = locate(parse(pattern)[0] ?? [], '');
    if (!found) return null;
    unit = (found.group.alts![0] ?? []).map(minimal).join('') || minimal({ ...found.inner, quant: ONE });
  } catch {
    return null;
  }
  if (!unit || unit.length > 8) return null;
  const run = unit.repeat(6);
  const mismatch = MISMATCHES.find((m) => !compiled.re.test(`${found.prefix}${run}${m}`));
  return mismatch === undefined ? null : { prefix: found.prefix, unit, mismatch };
}
