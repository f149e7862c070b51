// How the input checks compare answers (same answer, clearly another one, item counts) and the
// markers that prove what came back (files, throttling, challenges), over a body read as text.

import type { Exchange } from '../../http/exchange';
import { compareBodies } from '../../similarity';

// ---------------------------------------------------------------- comparing answers

/** Item count of a list response (top-level array or a common wrapper), or null. */
export function itemCount(ex: Exchange): number | null {
  const v = ex.json();
  if (Array.isArray(v)) return v.length;
  if (v && typeof v === 'object') {
    for (const k of ['items', 'data', 'results', 'content', 'records', 'rows', 'entries', 'list', 'values', 'objects', 'nodes', 'edges']) {
      const inner = (v as Record<string, unknown>)[k];
      if (Array.isArray(inner)) return inner.length;
    }
    const arrays = Object.values(v as Record<string, unknown>).filter(Array.isArray);
    if (arrays.length === 1) return (arrays[0] as unknown[]).length;
  }
  return null;
}

/** The same answer: status, item count, and body values (volatile fields left out). */
export function sameAnswer(a: Exchange, b: Exchange): boolean {
  if (a.status !== b.status) return false;
  const ca = itemCount(a);
  const cb = itemCount(b);
  if (ca !== cb) return false;
  if (a.body.trim() === b.body.trim()) return true;
  const s = compareBodies(a, b);
  return s.structure >= 0.9 && s.values >= 0.9;
}

/** Clearly another answer: another status, another item count, or mostly other values. */
export function otherAnswer(a: Exchange, b: Exchange): boolean {
  if (a.status !== b.status) return true;
  const ca = itemCount(a);
  const cb = itemCount(b);
  if (ca !== null && cb !== null && ca !== cb) return true;
  const s = compareBodies(a, b);
  return s.structure < 0.6 || s.values < 0.5;
}

// ---------------------------------------------------------------- markers

/** /etc/passwd: at least two lines in its format, one of them root. */
export function passwdMarker(text: string): string | null {
  const lines = text.match(/^[a-z_][a-z0-9_.-]*:[^:\n]*:\d+:\d+:[^:\n]*:[^:\n]*:[^:\n]*$/gm) ?? [];
  const root = lines.find((l) => l.startsWith('root:'));
  return lines.length >= 2 && root ? root : null;
}

/** win.ini: its two classic sections. */
export function winIniMarker(text: string): string | null {
  return /\[fonts\]/i.test(text) && /\[extensions\]/i.test(text) ? '[fonts] ... [extensions]' : null;
}

/** The text of a body for pattern matching: JSON strings unescaped, HTML entities and tags turned into text. */
export function bodyText(ex: Exchange): string {
  const raw = ex.body;
  const json = ex.json();
  if (json !== undefined) {
    const out: string[] = [];
    const walk = (v: unknown, depth: number) => {
      if (out.length > 2000 || depth > 8) return;
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
        out.push(`${k}:`);
        walk(x, depth + 1);
      }
      else if (v !== null && v !== undefined) out.push(String(v));
    };
    walk(json, 0);
    return out.join('\n');
  }
  if (/<[a-z!/][^>]*>/i.test(raw)) {
    return raw
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|li|tr|h\d|pre)>/gi, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#x?0*27;|&#39;|&apos;/g, "'")
      .replace(/&amp;/g, '&');
  }
  return raw;
}

/** Rate-limit and throttling signals in a response (429, Retry-After, RateLimit-* / X-RateLimit-* headers). */
export function throttleSignals(ex: Exchange): string[] {
  const out: string[] = [];
  if (ex.status === 429) out.push('HTTP 429');
  const headers = ex.response?.headers ?? {};
  for (const name of Object.keys(headers)) {
    if (name === 'retry-after' || /^(x-)?rate-?limit/.test(name) || /^x-ratelimit/.test(name)) out.push(`${name}: ${headers[name]}`);
  }
  return out;
}

/** A challenge instead of the flow: CAPTCHA widgets or a proof-of-work/challenge page. */
export function challengeSignal(ex: Exchange): string | null {
  const m = /\b(captcha|recaptcha|hcaptcha|turnstile|cf-challenge|challenge-platform|proof[- ]of[- ]work)\b/i.exec(ex.body.slice(0, 20_000));
  return m ? m[0] : null;
}
