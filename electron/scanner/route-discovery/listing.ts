// Directory listings and the files they name: a listing page is recognised by its title (Apache, nginx,
// Python's http.server, Node's serve-index and IIS write one of these), and each file by the kind its name
// says it is — a backup, a log, or a confidential file (keys, key stores, databases, environment files).

import type { Exchange } from '../http/exchange';

const LISTING_TITLE = /<title>\s*(Index of \/|Directory listing for|listing directory|Directory Listing)/i;

export function isDirectoryListing(ex: Exchange): boolean {
  return /html/i.test(ex.contentType) && LISTING_TITLE.test(ex.body.slice(0, 20_000));
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
