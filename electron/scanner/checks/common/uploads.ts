// File uploads and XML bodies as the upload and XML checks send them: which field of an operation carries
// a file (multipart/form-data with a binary part), what its description says it accepts (types, a size
// limit), a multipart body with one file part of the scan's own, and small XML documents whose DTD entities
// prove what the parser does. Every file the scan uploads is named portcullis-<random>.<ext> and holds plain
// text: nothing it sends is executable where it lands.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import { Exchange } from '../../http/exchange';
import { changesExisting } from '../../probe-safety';
import { paramString } from '../../schema-values';
import type { CheckContext } from '../types';
import { mutate } from '../../requests';
import { AS_KEY1, freshRequest } from './input-points';

export interface UploadField {
  /** The form field of the file part. */
  name: string;
  /** Types and extensions the description names for it ("application/pdf", ".zip"); empty when it names none. */
  accepted: string[];
  /** The largest file it documents, in bytes; null when it documents none. */
  maxBytes: number | null;
}

const BINARY_FORMATS = new Set(['binary', 'base64', 'byte']);
const FILE_WORD = /^(file|files|upload|attachment|document|image|avatar|photo|picture|data)$/i;

function properties(schema: JsonSchema | null | undefined): [string, JsonSchema][] {
  const props = schema && typeof schema === 'object' ? (schema as { properties?: Record<string, JsonSchema> }).properties : undefined;
  return props && typeof props === 'object' ? Object.entries(props) : [];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** "max 5 MB", "up to 100 kB", "maximum size: 2MB" in a description, in bytes. */
export function documentedMaxBytes(text: string): number | null {
  const m = /\b(?:max(?:imum)?|up to|at most|limit(?:ed)? to|no (?:larger|bigger) than|<=?)\s*(?:file\s*)?(?:size\s*)?(?:of\s*)?:?\s*(\d+(?:\.\d+)?)\s*(b|bytes?|kb|kib|mb|mib)\b/i.exec(text);
  if (!m) return null;
  const unit = m[2]!.toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Math.round(Number(m[1]) * factor);
}

/** Media types and extensions a description names ("PDF or ZIP files", "image/png"). */
export function documentedTypes(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(application|image|text|audio|video)\/[a-z0-9.+-]+/gi)) out.add(m[0].toLowerCase());
  for (const m of text.matchAll(/(?:^|[\s,(/"'])\.?(pdf|zip|png|jpe?g|gif|csv|txt|xml|json|ya?ml|docx?|xlsx?|svg|webp|mp4|mp3)\b/gi)) out.add(`.${m[1]!.toLowerCase()}`);
  return [...out];
}

/** The file parts of a multipart operation: binary fields, or fields named like a file when the form has no typed one. */
export function uploadFields(endpoint: Endpoint): UploadField[] {
  const body = endpoint.request_body;
  if (!body || !/^multipart\/form-data/i.test(body.content_type)) return [];
  const props = properties(body.schema);
  const typed = props.filter(([, s]) => {
    const x = s as Record<string, unknown>;
    return BINARY_FORMATS.has(str(x.format).toLowerCase()) || x.type === 'file' || typeof x.contentMediaType === 'string';
  });
  const chosen = typed.length ? typed : props.filter(([n]) => FILE_WORD.test(n));
  const opText = `${endpoint.summary ?? ''} ${(endpoint as { description?: string }).description ?? ''}`;
  return chosen.map(([name, s]) => {
    const x = s as Record<string, unknown>;
    const text = `${str(x.description)} ${str(x.contentMediaType)} ${str(x.title)}`;
    const maxLength = typeof x.maxLength === 'number' && x.maxLength > 0 ? x.maxLength : null;
    return { name, accepted: documentedTypes(`${text} ${opText}`), maxBytes: maxLength ?? documentedMaxBytes(text) ?? documentedMaxBytes(opText) };
  });
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  content: string;
}

/** A multipart/form-data body: the operation's other fields as text parts, then the one file part. */
export function multipartWithFile(fields: Record<string, unknown>, file: FilePart, boundaryHex: string): { body: string; contentType: string } {
  const boundary = `----portcullis${boundaryHex}`;
  const clean = (s: string) => s.replace(/["\r\n]/g, '');
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === file.field || v === undefined) continue;
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${clean(k)}"\r\n\r\n${paramString(v)}\r\n`);
  }
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="${clean(file.field)}"; filename="${clean(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n${file.content}\r\n`,
  );
  parts.push(`--${boundary}--\r\n`);
  return { body: parts.join(''), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends key 1's request of the operation with its file part replaced by the scan's own file (the other form fields
 * as the request has them); null when there is no request to send.
 */
export async function sendUpload(ctx: CheckContext, endpoint: Endpoint, file: FilePart): Promise<Exchange | null> {
  const base = await freshRequest(ctx, endpoint);
  if (!base) return null;
  const fields = base.bodyValue && typeof base.bodyValue === 'object' ? (base.bodyValue as Record<string, unknown>) : {};
  const encoded = multipartWithFile(fields, file, ctx.random.hex(6));
  return ctx.sendPrepared(mutate(base, { body: encoded.body, headers: { 'content-type': encoded.contentType } }), AS_KEY1, { followRedirects: false });
}

/** The exchange with a large file part's content replaced by a note of its size: evidence and curl steps stay readable. */
export function withAbridgedFile(ex: Exchange, content: string): Exchange {
  const body = ex.request.body?.replace(content, `[${content.length} bytes of the probe's text, abridged in this report]`) ?? null;
  return new Exchange(ex.seq, { ...ex.request, body }, ex.response, ex.error, ex.durationMs, ex.redirects, ex.blockedRedirect);
}

/**
 * Whether the scan may upload to this operation: an upload is a write, so one that changes an existing object (a PUT, a
 * POST under an object's path) needs `writes: existing`; a create-like POST is the scan's own object, as any create.
 */
export function mayUpload(ctx: CheckContext, endpoint: Endpoint): boolean {
  return !changesExisting(endpoint) || ctx.options.allowExistingObjects;
}

// ---------------------------------------------------------------- XML documents

/**
 * Two internal entities whose values join only when the parser expands them: the answer carrying `joined` proves the
 * DTD was processed (a server that echoes the raw document shows the halves apart, never joined).
 */
export interface EntityMarkers {
  first: string;
  second: string;
  joined: string;
}

export function entityMarkers(hex: () => string): EntityMarkers {
  const first = `pcx${hex()}`;
  const second = `q${hex()}`;
  return { first, second, joined: `${first}${second}` };
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,40}$/;

function elementName(name: string): string {
  return XML_NAME.test(name) && !/^xml/i.test(name) ? name : 'value';
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The body value as XML: an object's fields as child elements of `root`, nested objects and lists as nested elements, with
 * the raw XML `inject` (an entity reference) as the text of the first string field (or a child of its own when there is none).
 */
export function xmlDocument(value: unknown, root: string, dtd: string, inject: string | null): string {
  let injected = inject === null;
  const walk = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return '';
    if (Array.isArray(v)) return v.slice(0, 5).map((x) => `<item>${walk(x, depth + 1)}</item>`).join('');
    if (typeof v === 'object') {
      if (depth > 6) return '';
      return Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `<${elementName(k)}>${walk(x, depth + 1)}</${elementName(k)}>`)
        .join('');
    }
    if (typeof v === 'string' && !injected) {
      injected = true;
      return inject!;
    }
    return escapeText(paramString(v));
  };
  let inner = walk(value, 0);
  if (!injected) inner += `<value>${inject}</value>`;
  const name = elementName(root);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ${name} [${dtd}]>\n<${name}>${inner}</${name}>`;
}

/** The DTD of the internal-entity proof, and the reference that joins its two halves. */
export function internalEntityDtd(m: EntityMarkers): { dtd: string; reference: string } {
  return { dtd: `<!ENTITY pca "${m.first}"><!ENTITY pcb "${m.second}">`, reference: '&pca;&pcb;' };
}

/** The DTD of the external-entity proof: an entity whose value the parser must fetch from the scan's own listener, nothing else. */
export function externalEntityDtd(listenerUrl: string): { dtd: string; reference: string } {
  return { dtd: `<!ENTITY pce SYSTEM "${listenerUrl}">`, reference: '&pce;' };
}

/** Whether the answer carries the joined markers: the entities were expanded. */
export function expandedIn(body: string, m: EntityMarkers): boolean {
  return body.includes(m.joined);
}
