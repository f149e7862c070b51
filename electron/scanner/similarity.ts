// Comparing responses the way the checks need: by structure (same shape of JSON) and by values
// (same data), with volatile fields — timestamps, request ids, nonces — left out, so two reads of
// the same object compare equal and two users' objects of one type compare "same shape, different
// values".

import type { Exchange } from './http/exchange';

const VOLATILE_KEY =
  /^(timestamp|time|date|now|servertime|server_time|created|updated|modified|createdat|updatedat|modifiedat|created_at|updated_at|modified_at|created_on|updated_on|last_?(login|seen|modified|updated|access(ed)?)(_?at)?|expires?(_?at|_?in)?|expiry|exp|iat|nbf|nonce|requestid|request_id|reqid|req_id|traceid|trace_id|spanid|span_id|correlationid|correlation_id|etag|csrf|csrftoken|csrf_token|xsrf|duration|elapsed|took|latency|generated_?at|served_?at)$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MAX_LEAVES = 5000;
const MAX_ARRAY = 50;

export function isVolatileKey(key: string): boolean {
  return VOLATILE_KEY.test(key);
}

function isVolatileValue(v: unknown): boolean {
  return typeof v === 'string' && ISO_DATE.test(v);
}

export interface Flat {
  /** Structural paths ("items[].name:string"). */
  shape: Set<string>;
  /**
   * Leaf values by path, array positions folded ("items[].name" -> {"Rex": 1, "Tom": 1}), volatile
   * ones left out: a list that gained an item still compares close to what it was.
   */
  values: Map<string, Map<string, number>>;
  /** Number of leaf values kept. */
  count: number;
}

export function flatten(value: unknown): Flat {
  const shape = new Set<string>();
  const values = new Map<string, Map<string, number>>();
  let count = 0;
  let seen = 0;
  const walk = (v: unknown, path: string): void => {
    if (seen > MAX_LEAVES) return;
    if (Array.isArray(v)) {
      shape.add(`${path}:array`);
      for (const item of v.slice(0, MAX_ARRAY)) walk(item, `${path}[]`);
      return;
    }
    if (v !== null && typeof v === 'object') {
      shape.add(`${path}:object`);
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) {
        if (isVolatileKey(k)) continue;
        walk(inner, path ? `${path}.${k}` : k);
      }
      return;
    }
    seen += 1;
    shape.add(`${path}:${v === null ? 'null' : typeof v}`);
    if (isVolatileValue(v)) return;
    const key = JSON.stringify(v);
    let bag = values.get(path);
    if (!bag) values.set(path, (bag = new Map()));
    bag.set(key, (bag.get(key) ?? 0) + 1);
    count += 1;
  };
  walk(value, '');
  return { shape, values, count };
}

function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter += 1;
  return inter / (a.size + b.size - inter);
}

export interface Similarity {
  /** Both bodies parsed as JSON (else the text comparison was used). */
  json: boolean;
  /** 0..1: share of structural paths in common. */
  structure: number;
  /** 0..1: share of leaf values equal at the same path (text: share of words in common). */
  values: number;
  /** 0..1: share of the first body's values that the second also has (a subset scores 1). */
  contained: number;
}

const VOLATILE_TEXT = /\b(\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?|[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi;

function words(text: string): Set<string> {
  return new Set(text.replace(VOLATILE_TEXT, ' ').toLowerCase().split(/[^a-z0-9@._-]+/).filter((w) => w.length > 1).slice(0, 5000));
}

/** Flattened JSON values by identity: a baseline is compared with many answers, and flattened once. */
const flatCache = new WeakMap<object, Flat>();

function flatOf(value: unknown): Flat {
  if (value === null || typeof value !== 'object') return flatten(value);
  let f = flatCache.get(value);
  if (!f) flatCache.set(value, (f = flatten(value)));
  return f;
}

export function compareValues(a: unknown, b: unknown): Similarity {
  const fa = flatOf(a);
  const fb = flatOf(b);
  const structure = jaccard(fa.shape, fb.shape);
  let inter = 0;
  let union = 0;
  for (const path of new Set([...fa.values.keys(), ...fb.values.keys()])) {
    const ba = fa.values.get(path);
    const bb = fb.values.get(path);
    for (const v of new Set([...(ba?.keys() ?? []), ...(bb?.keys() ?? [])])) {
      const ca = ba?.get(v) ?? 0;
      const cb = bb?.get(v) ?? 0;
      inter += Math.min(ca, cb);
      union += Math.max(ca, cb);
    }
  }
  const values = union === 0 ? (structure === 1 ? 1 : 0) : inter / union;
  const contained = fa.count === 0 ? (fb.count === 0 ? 1 : 0) : inter / fa.count;
  return { json: true, structure, values, contained };
}

function bodyOf(x: Exchange | string): { text: string; json: unknown } {
  if (typeof x === 'string') {
    try {
      return { text: x, json: JSON.parse(x) };
    } catch {
      return { text: x, json: undefined };
    }
  }
  return { text: x.body, json: x.json() };
}

/** Compares two response bodies (JSON by structure and values; text by words). */
export function compareBodies(a: Exchange | string, b: Exchange | string): Similarity {
  const ba = bodyOf(a);
  const bb = bodyOf(b);
  // The same text is the same structure and values, whatever the format (rejected payloads often get the very same answer).
  if (ba.text === bb.text) return { json: ba.json !== undefined, structure: 1, values: 1, contained: 1 };
  if (ba.json !== undefined && bb.json !== undefined) return compareValues(ba.json, bb.json);
  const wa = words(ba.text);
  const wb = words(bb.text);
  const s = ba.text.trim() === bb.text.trim() ? 1 : jaccard(wa, wb);
  let inA = 0;
  for (const w of wa) if (wb.has(w)) inA += 1;
  return { json: false, structure: s, values: s, contained: wa.size ? inA / wa.size : s };
}

/** "The same object": high value similarity. */
export function sameData(a: Exchange | string, b: Exchange | string, threshold = 0.9): boolean {
  const s = compareBodies(a, b);
  return s.values >= threshold && s.structure >= threshold;
}

/**
 * Everything in `part` is also in `whole` (same shape, ≥ threshold of its values): an answer that
 * shows a subset of another's data, e.g. the same list read a moment earlier or later.
 */
export function containedIn(part: Exchange | string, whole: Exchange | string, threshold = 0.9): boolean {
  const s = compareBodies(part, whole);
  return s.contained >= threshold && s.structure >= 0.8;
}

/** "Someone else's object of the same type": same shape, mostly different values. */
export function sameShapeOtherData(a: Exchange | string, b: Exchange | string): boolean {
  const s = compareBodies(a, b);
  return s.json && s.structure >= 0.8 && s.values < 0.5;
}

/** No content worth comparing: empty, whitespace, null, {}, [], or a wrapper holding only empty lists. */
export function isEmptyBody(x: Exchange | string): boolean {
  const { text, json } = bodyOf(x);
  if (text.trim() === '') return true;
  if (json === undefined) return false;
  if (json === null) return true;
  for (const bag of flatOf(json).values.values()) for (const v of bag.keys()) if (v !== 'null' && v !== '""') return false;
  return true;
}

/** Leaf values worth looking for elsewhere: strings of 4+ characters and numbers that look like ids. */
export function distinctiveValues(value: unknown, limit = 200): string[] {
  const out = new Set<string>();
  for (const bag of flatOf(value).values.values()) {
    for (const v of bag.keys()) {
      const raw = JSON.parse(v) as unknown;
      if (typeof raw === 'string' && raw.length >= 4 && !/^(true|false|null|portcullis)$/i.test(raw)) out.add(raw);
      else if (typeof raw === 'number' && Math.abs(raw) >= 1000) out.add(String(raw));
      if (out.size >= limit) return [...out];
    }
  }
  return [...out];
}

/** Which of the values appear in the text. */
export function valuesFoundIn(values: readonly string[], text: string): string[] {
  return values.filter((v) => text.includes(v));
}
