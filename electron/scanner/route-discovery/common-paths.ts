// A compact list of paths APIs commonly serve beyond their description (issue 28, item 4): file uploads,
// routes that import an image or a file from a URL, logs, redirectors, admin, file, backup and metrics
// surfaces. The discovery phase guesses each under the API's base path (the origin root when it has none) and
// keeps the ones that answer unlike the API's own not-found answer. Words only, no target's names: a path is here
// because many frameworks, tutorials and products use that spelling.

import type { RequestBodySpec } from '../../../shared/contract';

/**
 * How a guessed path is asked for and what it becomes:
 * - read: a GET;
 * - upload: a POST of a multipart form that holds no file (nothing can be stored), then an upload operation;
 * - fetch: a POST of an empty form (no address, so nothing is fetched), then an operation taking a URL.
 * A write is never guessed for any other kind of route.
 */
export type CommonPathKind = 'read' | 'upload' | 'fetch';

export interface CommonPath {
  path: string;
  kind: CommonPathKind;
}

// Not the spellings api9-undocumented-endpoints (discovery-paths.ts SURFACES) and api9-debug-endpoints guess themselves
// (/logs, /admin, /metrics, /files/...): a route this list found counts as known, and those checks would stop reporting it.
const READ = [
  // logs
  '/admin/logs',
  '/debug/logs',
  '/api/logs',
  '/logs/access.log',
  '/logs/error.log',
  '/access.log',
  // files and backups
  '/upload',
  '/download',
  '/downloads',
  '/export',
  '/exports',
  '/backups',
  '/static/uploads',
  '/public/uploads',
  // redirectors
  '/redirect',
  '/out',
  '/goto',
  // admin and internal
  '/administration',
  '/dashboard',
  '/management',
  '/private',
  // metrics and configuration
  '/prometheus',
  '/config',
  '/env',
];

const UPLOAD = [
  '/upload',
  '/uploads',
  '/file-upload',
  '/fileupload',
  '/file/upload',
  '/files/upload',
  '/upload/file',
  '/upload/image',
  '/image/upload',
  '/images/upload',
  '/media/upload',
  '/attachments',
  '/import',
  '/avatar',
  '/profile/avatar',
  '/profile/image',
  '/profile/picture',
  '/user/avatar',
];

/** Routes that take an address and fetch what it names (an avatar or a document "from a URL"). */
const FETCH = ['/upload/url', '/import/url', '/fetch', '/avatar/url', '/profile/avatar/url', '/image/url', '/preview'];

export const COMMON_PATHS: readonly CommonPath[] = [
  ...READ.map((path) => ({ path, kind: 'read' as const })),
  ...UPLOAD.map((path) => ({ path, kind: 'upload' as const })),
  ...FETCH.map((path) => ({ path, kind: 'fetch' as const })),
];

/** The request body a found upload route is scanned with: one file part, named as most upload handlers read it. */
export const UPLOAD_BODY: RequestBodySpec = {
  required: true,
  content_type: 'multipart/form-data',
  schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
};

/**
 * The request body a found fetch route is scanned with: the field names such a route most likely reads — `url`, and the
 * noun before "url" in its path joined to it (/profile/avatar/url -> avatarUrl, avatar_url) — each a URL.
 */
export function fetchBody(path: string): RequestBodySpec {
  const words = path.split('/').filter(Boolean);
  const at = words.findIndex((w) => /^(url|uri|link)$/i.test(w));
  const noun = ((at > 0 ? words[at - 1] : words[words.length - 1]) ?? '').replace(/[^A-Za-z]/g, '').toLowerCase();
  const names = ['url'];
  if (noun && !/^(url|uri|link|fetch|preview|import|upload)$/.test(noun)) names.push(`${noun}Url`, `${noun}_url`);
  const properties = Object.fromEntries(names.map((n) => [n, { type: 'string', format: 'uri', example: 'https://example.com/image.png' }]));
  // A form, not JSON: "from a URL" routes are usually an HTML form's target, and servers parse forms before any JSON parser is mounted.
  return { required: true, content_type: 'application/x-www-form-urlencoded', schema: { type: 'object', properties } };
}
