// Import of an API description from its URL (issue 31, item 7): one GET through a scan engine, so the
// scan's rules hold (on a team server without local scans, the connect-time guard of net-guard.ts refuses
// loopback and private addresses, after every redirect too), with the file upload's size limit and the
// scan's request timeout; what comes back is sniffed (a web page or a binary file is not a description)
// and read by the import worker like an uploaded file. A relative server URL in the description is
// resolved against the address it came from, as OpenAPI says.

import { IMPORT_MAX_BYTES } from '../../shared/constants';
import { SPEC_URL_MESSAGES } from '../../shared/api-messages';
import type { ImportWarning } from '../../shared/contract';
import { ImportError, ImportTooLargeError } from '../importer/errors';
import { importRunner } from '../importer/import-runner';
import type { PreparedImport } from '../importer/result';
import { SET_BASE_URL } from '../importer/warnings';
import { HttpEngine } from './http/engine';
import { deadlineController } from './http/limits';
import type { ProbeSettings } from './identities/probe';

export interface SpecUrlInput {
  /** An absolute http(s) URL, already checked against the scan target rules (service.ts). */
  url: string;
  settings: Omit<ProbeSettings, 'allowCommands'>;
  /** The largest description read (default: the file upload's limit). */
  maxBytes?: number;
}

/** The address is local and this server does not reach local addresses (403). */
export class SpecUrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecUrlRefusedError';
  }
}

const ACCEPT = 'application/openapi+json, application/json, application/openapi+yaml, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.5';

/** Types that are never an API description, whatever their body. */
const NOT_A_DESCRIPTION = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-gzip|x-tar|octet-stream|vnd\.ms-|vnd\.openxmlformats|msword|wasm)\b/;
const KNOWN_EXTENSION = /\.(json|ya?ml|har|graphqls?)$/i;

/** What the body is, judged before it is parsed: a web page, a binary file, or text to read. */
export function sniffDescription(contentType: string, body: string): 'html' | 'binary' | 'text' {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const start = body.trimStart().slice(0, 64).toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml' || start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  if (NOT_A_DESCRIPTION.test(type) || body.slice(0, 8192).includes('\u0000')) return 'binary';
  if (start.startsWith('<')) return 'html';
  return 'text';
}

/** The name the worker gives a description without a title: the file in the URL, else the host. */
function filenameOf(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  return KNOWN_EXTENSION.test(last) ? last : url.hostname;
}

function isBaseUrlWarning(w: ImportWarning): boolean {
  return w.message.endsWith(SET_BASE_URL) && (w.message.startsWith('The file gives no server URL') || w.message.startsWith('The base URL "'));
}

/**
 * An OpenAPI or Swagger description whose server URL is relative or absent: its base URL from the
 * address it was fetched from (OpenAPI 3: relative to the document; Swagger 2: the host serving it).
 */
export function resolveBaseUrl(result: PreparedImport, from: URL): PreparedImport {
  if (!result.format.startsWith('openapi-') && result.format !== 'swagger-2.0') return result;
  if (/^https?:\/\/[^/]/i.test(result.base_url)) return result;
  let resolved: string;
  try {
    resolved = new URL(result.base_url || '/', from).toString().replace(/[?#].*$/, '').replace(/\/+$/, '');
  } catch {
    return result;
  }
  const warnings = result.warnings.filter((w) => !isBaseUrlWarning(w));
  warnings.push({ location: result.format === 'swagger-2.0' ? '/host' : '/servers', message: SPEC_URL_MESSAGES.baseUrlFromAddress(resolved) });
  return { ...result, base_url: resolved, warnings };
}

/** Fetches the description at `input.url` and imports it; errors are ImportError (400), ImportTooLargeError (413) or SpecUrlRefusedError (403). */
export async function importSpecFromUrl(input: SpecUrlInput): Promise<PreparedImport> {
  const url = new URL(input.url);
  const maxBytes = input.maxBytes ?? IMPORT_MAX_BYTES;
  const deadline = deadlineController(input.settings.deadlineMs, 'The import from a URL');
  const engine = new HttpEngine({
    baseUrl: url.origin,
    concurrency: 1,
    rps: 0,
    timeoutMs: input.settings.timeoutMs,
    retries: 0,
    // One byte past the limit tells a description of exactly the limit from a larger one.
    maxBodyBytes: maxBytes + 1,
    // The request and the same-host redirects the engine follows.
    maxRequests: 6,
    allowLocal: input.settings.allowLocal,
    tlsVerify: input.settings.tlsVerify,
    signal: deadline.controller.signal,
  });
  try {
    const ex = await engine.send({ method: 'GET', url, headers: { accept: ACCEPT } });
    if (!ex.response) {
      if (ex.error?.includes('local address')) throw new SpecUrlRefusedError(SPEC_URL_MESSAGES.local(url.hostname));
      throw new ImportError(SPEC_URL_MESSAGES.unreachable(url.origin, ex.error === 'timeout' ? `no answer within ${Math.round(input.settings.timeoutMs / 1000)} s` : (ex.error ?? 'no answer')));
    }
    if (ex.blockedRedirect) throw new ImportError(SPEC_URL_MESSAGES.otherHost(ex.blockedRedirect));
    if (ex.response.truncated || ex.response.bytes > maxBytes) throw new ImportTooLargeError(SPEC_URL_MESSAGES.tooLarge(Math.round(maxBytes / (1024 * 1024))));
    if (!ex.ok) throw new ImportError(SPEC_URL_MESSAGES.status(ex.status));
    const kind = sniffDescription(ex.contentType, ex.body);
    if (kind === 'html') throw new ImportError(SPEC_URL_MESSAGES.webPage);
    if (kind === 'binary') throw new ImportError(SPEC_URL_MESSAGES.binary(ex.contentType.split(';')[0]!.trim() || 'binary data'));
    const imported = await importRunner().importDocument(new TextEncoder().encode(ex.body), { filename: filenameOf(url) });
    return resolveBaseUrl(imported, url);
  } catch (err) {
    if (deadline.expired() && !(err instanceof ImportError)) throw new ImportError(SPEC_URL_MESSAGES.unreachable(url.origin, (err as Error).message));
    throw err;
  } finally {
    deadline.clear();
    deadline.controller.abort();
    await engine.close();
  }
}
