// What undocumented-endpoint discovery asks for: a compact list of well-known surfaces (admin, logs,
// backups, repository and configuration files, file listings, metrics, health) with the content that
// proves each kind, and the siblings of documented routes (collection <-> item, plural <-> singular).

import type { Exchange } from '../../http/exchange';

export type Family = 'admin' | 'debug' | 'logs' | 'backup' | 'source' | 'listing' | 'metrics' | 'health';

export interface Surface {
  path: string;
  family: Family;
  /** The content that proves this kind of file (files only: a route is proven by differing from not-found). */
  proof?: (ex: Exchange) => string | null;
}

const text = (ex: Exchange) => ex.body.slice(0, 20_000);

const SQL_DUMP = (ex: Exchange) => (/\b(CREATE TABLE|INSERT INTO)\b/i.test(text(ex)) && !/html/i.test(ex.contentType) ? 'an SQL dump (CREATE TABLE / INSERT INTO)' : null);
/** Zip ("PK\\x03\\x04") or gzip (0x1f 0x8b, which a text decoding may have replaced) magic bytes. */
const ARCHIVE = (ex: Exchange) => {
  const c = [0, 1, 2, 3].map((i) => ex.body.charCodeAt(i));
  const zip = ex.body.startsWith('PK') && c[2] === 3 && c[3] === 4;
  const gzip = c[0] === 0x1f && (c[1] === 0x8b || c[1] === 0xfffd);
  return zip || gzip ? 'an archive (zip/gzip signature)' : null;
};
const GIT_CONFIG = (ex: Exchange) => (/^\[core\]/m.test(text(ex)) && /repositoryformatversion|bare\s*=/.test(text(ex)) ? 'a Git repository configuration' : null);
const GIT_HEAD = (ex: Exchange) => (/^ref: refs\/heads\/\S+\s*$/.test(ex.body.trim()) ? 'the Git HEAD of a repository' : null);
const HTPASSWD = (ex: Exchange) => (/^[\w.-]+:(\$apr1\$|\$2[aby]\$|\{SHA\}|[./0-9A-Za-z]{13}$)/m.test(text(ex)) ? 'password hashes (.htpasswd)' : null);
const SECRETS_FILE = (ex: Exchange) =>
  /"?(connectionstring|password|secret|api[_-]?key|private[_-]?key)"?\s*[:=]/i.test(text(ex)) && !/<html/i.test(text(ex)) ? 'configuration with secrets' : null;
const HEAP_DUMP = (ex: Exchange) => (/^JAVA PROFILE \d/.test(ex.body) ? 'a Java heap dump' : null);
const LOG_LINES = (ex: Exchange) =>
  (text(ex).match(/^.{0,40}\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}.*\b(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\b/gim) ?? []).length >= 2 || /Error Log for|ELMAH/i.test(text(ex))
    ? 'log lines'
    : null;
const DIR_INDEX = (ex: Exchange) => (/<title>\s*(Index of \/|Directory listing for)/i.test(text(ex)) ? 'a directory listing' : null);

/** Tried at the origin root and at the API's base path. debugEndpoints and exposedDocs ask for theirs. */
export const SURFACES: readonly Surface[] = [
  { path: '/admin', family: 'admin' },
  { path: '/administrator', family: 'admin' },
  { path: '/internal', family: 'admin' },
  { path: '/manage', family: 'admin' },
  { path: '/debug', family: 'debug' },
  { path: '/_debug', family: 'debug' },
  { path: '/trace', family: 'debug' },
  { path: '/trace.axd', family: 'debug' },
  { path: '/actuator/heapdump', family: 'backup', proof: HEAP_DUMP },
  { path: '/actuator/configprops', family: 'debug' },
  { path: '/actuator/loggers', family: 'debug' },
  { path: '/logs', family: 'logs' },
  { path: '/log', family: 'logs' },
  { path: '/error.log', family: 'logs', proof: LOG_LINES },
  { path: '/elmah.axd', family: 'logs', proof: LOG_LINES },
  { path: '/backup.zip', family: 'backup', proof: ARCHIVE },
  { path: '/backup.tar.gz', family: 'backup', proof: ARCHIVE },
  { path: '/backup.sql', family: 'backup', proof: SQL_DUMP },
  { path: '/dump.sql', family: 'backup', proof: SQL_DUMP },
  { path: '/db.sql', family: 'backup', proof: SQL_DUMP },
  { path: '/.git/config', family: 'source', proof: GIT_CONFIG },
  { path: '/.git/HEAD', family: 'source', proof: GIT_HEAD },
  { path: '/.htpasswd', family: 'source', proof: HTPASSWD },
  { path: '/config.json', family: 'source', proof: SECRETS_FILE },
  { path: '/appsettings.json', family: 'source', proof: SECRETS_FILE },
  { path: '/files/', family: 'listing', proof: DIR_INDEX },
  { path: '/uploads/', family: 'listing', proof: DIR_INDEX },
  { path: '/backup/', family: 'listing', proof: DIR_INDEX },
  { path: '/stats', family: 'metrics' },
  { path: '/actuator/prometheus', family: 'metrics' },
  { path: '/health', family: 'health' },
  { path: '/status', family: 'health' },
];

/** How bad each kind is when it answers with content. */
export const FAMILY: Record<Family, { name: string; severity: 'high' | 'medium' | 'low' | 'info' }> = {
  backup: { name: 'Backup or dump file served', severity: 'high' },
  source: { name: 'Repository or configuration file served', severity: 'high' },
  logs: { name: 'Log files served', severity: 'medium' },
  admin: { name: 'Undocumented admin route answers', severity: 'medium' },
  debug: { name: 'Undocumented debug route answers', severity: 'medium' },
  listing: { name: 'Directory listing enabled', severity: 'medium' },
  metrics: { name: 'Undocumented metrics route answers', severity: 'low' },
  health: { name: 'Undocumented health or status route answers', severity: 'info' },
};

const LOGIN_PAGE = /type=["']?password|<form[^>]*(login|signin|sign-in)/i;

/** A page that only asks for credentials proves a console exists, not that it is open. */
export function isLoginPage(ex: Exchange): boolean {
  return /html/i.test(ex.contentType) && LOGIN_PAGE.test(ex.body.slice(0, 50_000));
}

// ---------------------------------------------------------------- plural <-> singular

const WORD = /^[a-z][a-z-]{2,}$/i;
const NOT_NOUN = /^(api|rest|v\d+|me|auth|login|logout|signup|register|search|status|health|admin|internal|public|private|oauth|token|session)$/i;

/** "users" <-> "user", "categories" <-> "category", "status" stays (null when the segment is not a plain noun). */
export function otherNumber(segment: string): string | null {
  if (!WORD.test(segment) || NOT_NOUN.test(segment)) return null;
  if (/ies$/.test(segment)) return `${segment.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(segment)) return null;
  if (/(xes|ches|shes)$/.test(segment)) return segment.slice(0, -2);
  if (/s$/.test(segment)) return segment.slice(0, -1);
  if (/[^aeiou]y$/.test(segment)) return `${segment.slice(0, -1)}ies`;
  if (/(x|ch|sh)$/.test(segment)) return `${segment}es`;
  return `${segment}s`;
}

/** The id of the first item a collection answer lists (id, uuid, *_id, *Id), for the item route of a collection. */
export function firstItemId(value: unknown): string | null {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? (Object.values(value as Record<string, unknown>).find((v) => Array.isArray(v) && v.length > 0) as unknown[] | undefined)
      : undefined;
  const item = list?.[0];
  if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
  const entries = Object.entries(item as Record<string, unknown>).filter(([, v]) => (typeof v === 'string' && v.length > 0 && v.length <= 80) || typeof v === 'number');
  const pick = entries.find(([k]) => /^(id|uuid)$/i.test(k)) ?? entries.find(([k]) => /(_id|Id|_uuid)$/.test(k)) ?? entries.find(([k]) => /^(name|slug|username|title)$/i.test(k));
  return pick ? String(pick[1]) : null;
}
