// A small LDAP search-filter engine (RFC 4515 string filters: &, |, !, equality with * wildcards and
// presence, \XX escapes) over in-memory entries, as a directory server evaluates them. The staff
// directory route (routes/directory.ts) builds its filter from input; this is the server side.

export type Entry = Record<string, string[]>;

export class LdapFilterError extends Error {
  constructor(detail: string) {
    super(`Bad search filter: ${detail}`);
    this.name = 'LdapFilterError';
  }
}

type Filter =
  | { op: '&' | '|'; filters: Filter[] }
  | { op: '!'; filter: Filter }
  | { op: '='; attr: string; parts: string[] | null; value: string };

/** The value with every special character escaped (RFC 4515 section 3): what a client must send. */
export function escapeFilterValue(v: string): string {
  return v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function unescape(v: string): string {
  return v.replace(/\\([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export function parseFilter(text: string): Filter {
  let i = 0;
  const filter = (): Filter => {
    if (text[i] !== '(') throw new LdapFilterError(`expected "(" at ${i}`);
    i += 1;
    let f: Filter;
    const c = text[i];
    if (c === '&' || c === '|') {
      i += 1;
      const filters: Filter[] = [];
      while (text[i] === '(') filters.push(filter());
      if (!filters.length) throw new LdapFilterError(`empty ${c} list`);
      f = { op: c, filters };
    } else if (c === '!') {
      i += 1;
      f = { op: '!', filter: filter() };
    } else {
      const end = text.indexOf(')', i);
      if (end < 0) throw new LdapFilterError('unbalanced parentheses');
      const item = text.slice(i, end);
      if (item.includes('(')) throw new LdapFilterError('unbalanced parentheses');
      const eq = item.indexOf('=');
      if (eq <= 0) throw new LdapFilterError(`invalid item "${item}"`);
      const attr = item.slice(0, eq).toLowerCase();
      if (!/^[a-z][a-z0-9-]*$/.test(attr)) throw new LdapFilterError(`invalid attribute "${attr}"`);
      const raw = item.slice(eq + 1);
      f = { op: '=', attr, parts: raw.includes('*') ? raw.split('*').map(unescape) : null, value: unescape(raw) };
      i = end;
    }
    if (text[i] !== ')') throw new LdapFilterError('unbalanced parentheses');
    i += 1;
    return f;
  };
  const f = filter();
  if (i !== text.length) throw new LdapFilterError('unexpected text after the filter');
  return f;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function matches(f: Filter, entry: Entry): boolean {
  switch (f.op) {
    case '&':
      return f.filters.every((x) => matches(x, entry));
    case '|':
      return f.filters.some((x) => matches(x, entry));
    case '!':
      return !matches(f.filter, entry);
    default: {
      const values = entry[f.attr] ?? [];
      if (!f.parts) return values.some((v) => v.toLowerCase() === f.value.toLowerCase());
      const re = new RegExp(`^${f.parts.map(escapeRe).join('.*')}$`, 'is');
      return values.some((v) => re.test(v));
    }
  }
}

/** The entries a filter selects. */
export function search(entries: readonly Entry[], filter: string): Entry[] {
  const f = parseFilter(filter);
  return entries.filter((e) => matches(f, e));
}
