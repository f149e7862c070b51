// Directory listings and the files they name: a listing page is recognised by its title (Apache, nginx,
// Python's http.server, Node's serve-index and IIS write one of these), and each file by the kind its name
// says it is — a backup, a log, or a confidential file (keys, key stores, databases, environment files).

import { presence, type Presence } from '../checks/api9-inventory/not-found';
import type { Exchange } from '../http/exchange';

const LISTING_TITLE = /<title>\s*(Index of \/|Directory listing for|listing directory|Directory Listing)/i;

export function isDirectoryListing(ex: Exchange): boolean {
  return /html/i.test(ex.contentType) && LISTING_TITLE.test(ex.body.slice(0, 20_000));
}

/**
 * The entries of a folder listed as JSON (a list of names, or of {name, type} objects as nginx's autoindex writes):
 * every entry a bare file or folder name and some with a file extension; null for any other answer.
 */
export function jsonListingNames(ex: Exchange): string[] | null {
  if (!ex.ok || !/json/i.test(ex.contentType)) return null;
  let value: unknown;
  try {
    value = ex.json();
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > 1_000) return null;
  const names = value.map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string' ? (v as { name: string }).name : null));
  if (names.some((n) => n === null || !/^[^\s/?#]{1,120}\/?$/.test(n))) return null;
  return names.some((n) => /\.[a-z0-9]{1,8}$/i.test(n!)) ? (names as string[]) : null;
}

/** The paths a listing names, on the origin: from a page's links under the folder, or from a JSON list of names. */
export function listedPaths(ex: Exchange, folder: string, origin: string, links: (html: string, base: string) => string[]): string[] {
  const dir = folder.split('?', 1)[0]!.replace(/\/*$/, '/');
  const json = jsonListingNames(ex);
  if (json) return json.map((n) => `${dir}${encodeURIComponent(n.replace(/\/$/, ''))}`);
  if (!isDirectoryListing(ex)) return [];
  // Relative links resolve against the address the page was fetched at, as a browser resolves them ("files/a" on /files).
  return links(ex.body, ex.request.url.toString()).filter((l) => l.startsWith(dir) && l !== dir);
}

/**
 * presence() with a directory listing's title as proof of its own: a catch-all that answers every path with the
 * same HTML page would hide a listing by likeness, but it never titles a random path "Index of /".
 */
export function presenceOrListing(ex: Exchange, controls: readonly Exchange[]): Presence {
  if ((isDirectoryListing(ex) || jsonListingNames(ex)) && ex.ok && controls.every((c) => !!c.response && !isDirectoryListing(c) && !jsonListingNames(c))) return 'present';
  return presence(ex, controls);
}

export type FileKind = 'backup' | 'log' | 'confidential';

const KINDS: [FileKind, RegExp][] = [
  ['backup', /(\.(bak|backup|old|orig|save|swp|sql|dump|zip|tar|tgz|gz|bz2|xz|7z|rar)|~)$/i],
  ['log', /\.(log|log\.\d+)$/i],
  ['confidential', /(\.(kdbx|kdb|pem|key|p12|pfx|jks|keystore|ppk|env|htpasswd|sqlite3?|db|mdb|pyc|class|cfg|ini|conf|npmrc|pgpass)|(^|\/)(id_rsa|id_dsa|id_ecdsa|id_ed25519|\.env[\w.-]*|credentials|secrets?\.[\w]+))$/i],
];

/** What a file's name says it is; null for an ordinary file. */
export function fileKind(path: string): FileKind | null {
  const name = decodeSafe(path.split('?', 1)[0]!.replace(/\/+$/, '').split('/').pop() ?? '');
  if (!name || !name.includes('.') && !name.endsWith('~')) return null;
  return KINDS.find(([, re]) => re.test(name))?.[0] ?? null;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
