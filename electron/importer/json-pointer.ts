// JSON pointers (RFC 6901) as warnings and errors name places in a document, and the lookup of a
// local `#/...` reference. Lookups only follow own properties, so "__proto__" or "constructor"
// in a pointer never reach Object.prototype.

export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...tokens: (string | number)[]): string {
  return tokens.length ? `/${tokens.map(escapeToken).join('/')}` : '';
}

export function childPointer(base: string, ...tokens: (string | number)[]): string {
  return base + pointer(...tokens);
}

/** A long pointer cut in the middle so a message stays readable. */
export function shortPointer(tokens: (string | number)[], keepStart = 8, keepEnd = 3): string {
  if (tokens.length <= keepStart + keepEnd + 1) return pointer(...tokens);
  return `${pointer(...tokens.slice(0, keepStart))}/...(${tokens.length - keepStart - keepEnd} more)...${pointer(...tokens.slice(-keepEnd))}`;
}

/** Tokens of a local reference "#/a/b~1c" (URI-fragment encoded), or null when it is not a local JSON pointer. */
export function parseLocalRef(ref: string): string[] | null {
  if (!ref.startsWith('#')) return null;
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return null;
  }
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return null;
  return fragment
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The value at `tokens` inside `root`, or undefined. */
export function lookup(root: unknown, tokens: string[]): unknown {
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === 'object') {
      if (!hasOwn(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    } else return undefined;
  }
  return node;
}
