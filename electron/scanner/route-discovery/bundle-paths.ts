// Same-origin API paths that a JavaScript bundle the server serves refers to ("/api/orders", "/rest/basket/"):
// read with a small tokenizer that walks string literals, comments and regular expressions, so a path is
// only taken from a string, never from code or a pattern, and within a bounded amount of text.

/** Most characters of a bundle read; most paths kept per bundle. */
export const MAX_BUNDLE_CHARS = 3_000_000;
const MAX_PATHS = 200;

/** Extensions of static assets: a bundle names many, none is an API route. */
const ASSET = /\.(css|scss|less|png|jpe?g|gif|svg|ico|webp|avif|bmp|woff2?|ttf|otf|eot|map|mp3|mp4|webm|ogg|wav|html?|js|mjs|cjs|ts|tsx|jsx|vue)$/i;
/** A path the way code writes one: a slash, then path characters, with a letter somewhere. */
const PATH = /^\/[A-Za-z0-9_\-.~%/:{}$]*(\?[A-Za-z0-9_\-.~%=&[\]]*)?$/;

/** A static asset (an image, a font, a stylesheet, a script, a page): never an API route. */
export function isStaticAsset(path: string): boolean {
  return ASSET.test(path.split('?', 1)[0]!);
}

/** Whether a character before "/" ends an expression (so "/" divides) rather than starting one (so "/" opens a regex). */
function endsExpression(prev: string): boolean {
  return /[\w$)\]]/.test(prev);
}

/** Keeps a literal that reads as a same-origin route; cuts what follows a template placeholder's start. */
export function routeLiteral(raw: string): string | null {
  const s = raw.trim();
  if (s.length < 2 || s.length > 200 || s.startsWith('//') || !PATH.test(s)) return null;
  const path = s.split('?', 1)[0]!;
  if (!/[a-z]{2}/i.test(path) || ASSET.test(path) || /\/\//.test(path) || /\.\./.test(path)) return null;
  return s;
}

/** Every route-like string literal of `source`, in order of first appearance. */
export function bundlePaths(source: string): string[] {
  const src = source.slice(0, MAX_BUNDLE_CHARS);
  const out = new Set<string>();
  let prev = '';
  let i = 0;
  const n = src.length;
  while (i < n && out.size < MAX_PATHS) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      let text = '';
      let plain = true;
      while (j < n && src[j] !== c) {
        if (src[j] === '\\') {
          text += src[j + 1] ?? '';
          j += 2;
          continue;
        }
        if (c === '`' && src[j] === '$' && src[j + 1] === '{') {
          // A placeholder: keep the literal text before it ("/api/users/" of `/api/users/${id}`).
          plain = false;
          let depth = 0;
          while (j < n) {
            if (src[j] === '{') depth += 1;
            else if (src[j] === '}' && --depth === 0) break;
            j += 1;
          }
          text += '{}';
          j += 1;
          continue;
        }
        if (c !== '`' && src[j] === '\n') break;
        text += src[j];
        j += 1;
      }
      const route = routeLiteral(plain ? text : text.replace(/\{\}.*$/, ''));
      if (route) out.add(route);
      i = j + 1;
      prev = c;
      continue;
    }
    if (c === '/' && !endsExpression(prev)) {
      // A regular expression literal: skipped to its closing slash (outside a class), on one line.
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== '\n') {
        if (src[j] === '\\') j += 2;
        else {
          if (src[j] === '[') inClass = true;
          else if (src[j] === ']') inClass = false;
          else if (src[j] === '/' && !inClass) break;
          j += 1;
        }
      }
      i = j + 1;
      prev = 'a';
      continue;
    }
    if (!/\s/.test(c)) prev = c;
    i += 1;
  }
  return [...out];
}
