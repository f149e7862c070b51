// Small, total readers for untrusted parsed values: they never throw and never follow prototypes.

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** o[k] if it is an own property. */
export function own(o: unknown, k: string): unknown {
  return isObject(o) && hasOwn(o, k) ? o[k] : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function obj(v: unknown): Obj | undefined {
  return isObject(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text cut to `max` characters (on a code-point boundary), with control characters removed. */
export function clampText(v: unknown, max: number): string {
  if (typeof v !== 'string') return '';
  let s = v.length > max * 4 ? v.slice(0, max * 4) : v;
  if (CONTROL.test(s)) s = s.replace(CONTROL_ALL, '');
  s = s.trim();
  if (s.length <= max) return s;
  const cut = Array.from(s.slice(0, max + 1)).slice(0, max - 1).join('');
  return `${cut.trimEnd()}…`;
}

/** A one-line summary: the text up to its first line break, HTML tags removed, clamped. */
export function oneLine(v: unknown, max: number): string {
  if (typeof v !== 'string') return '';
  const text = v.trimStart();
  const end = text.indexOf('\n');
  const first = (end === -1 ? text : text.slice(0, end)).slice(0, max * 4);
  return clampText(first.includes('<') ? first.replace(/<\/?[A-Za-z][^<>]{0,100}>/g, '') : first, max);
}

/** o[k] = v, also when k is "__proto__" (which plain assignment would turn into a prototype change). */
export function put(o: Obj, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
