// A scan's traffic (issue 27): every request the engine sent and what came back, the last ones kept
// within TRAFFIC_LIMITS while the scan runs, written as an HTTP Archive (HAR 1.2) when it ends, with
// every text passed through the scan's redactor, the same one its evidence goes through. Redaction
// waits for the end because a secret may be learnt after the request that carried it (a login's
// token is known once its answer has been read), and bodies are cut only after redaction, so a cut
// never leaves a piece of a secret the redactor would no longer recognise.

import type { Har, Entry, Header, QueryString } from 'har-format';
import { TRAFFIC_LIMITS } from '../../shared/scan-traffic';
import { authLabel, type Exchange } from './http/exchange';
import type { Redactor } from './redact';

export const HAR_CREATOR = { name: 'Portcullis', version: '0.1.0' } as const;

interface Recorded {
  exchange: Exchange;
  startedAt: number;
  /** Body characters held (request and response): what the held-bytes bound counts. */
  size: number;
}

export interface TrafficLimits {
  maxEntries: number;
  maxHeldBytes: number;
  maxBodyChars: number;
}

/** A scan's traffic as stored: the HAR and how many requests it holds or left out. */
export interface TrafficLog {
  har: Har;
  entries: number;
  /** Older requests dropped to stay within the bounds. */
  dropped: number;
}

export class TrafficRecorder {
  private readonly held: Recorded[] = [];
  /** Index of the oldest entry still held (entries before it were dropped): a queue without shifting. */
  private head = 0;
  private heldSize = 0;
  private droppedCount = 0;

  constructor(private readonly limits: TrafficLimits = TRAFFIC_LIMITS) {}

  /** Keeps one exchange (an attempt that went out); drops the oldest past the bounds. */
  record(exchange: Exchange, now = Date.now()): void {
    const size = (exchange.request.body?.length ?? 0) + (exchange.response?.body.length ?? 0) + exchange.request.url.length;
    this.held.push({ exchange, startedAt: now - exchange.durationMs, size });
    this.heldSize += size;
    while (this.held.length - this.head > this.limits.maxEntries || (this.heldSize > this.limits.maxHeldBytes && this.held.length - this.head > 1)) {
      this.heldSize -= this.held[this.head]!.size;
      this.held[this.head] = undefined as unknown as Recorded;
      this.head += 1;
      this.droppedCount += 1;
    }
    // Compact now and then so the array does not grow with the dropped slots.
    if (this.head > 1024 && this.head * 2 > this.held.length) {
      this.held.splice(0, this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.held.length - this.head;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** The HAR of what is held, every text redacted with the scan's final redactor. */
  toLog(redactor: Redactor, comment?: string): TrafficLog {
    const entries: Entry[] = [];
    for (let i = this.head; i < this.held.length; i += 1) entries.push(harEntry(this.held[i]!, redactor, this.limits.maxBodyChars));
    const notes = [comment, this.droppedCount ? `The ${this.droppedCount} oldest requests were dropped to keep the last ${entries.length} (at most ${this.limits.maxEntries} requests, ${Math.round(this.limits.maxHeldBytes / (1024 * 1024))} MB of bodies).` : null]
      .filter(Boolean)
      .join(' ');
    return {
      har: { log: { version: '1.2', creator: { ...HAR_CREATOR }, entries, ...(notes ? { comment: notes } : {}) } },
      entries: entries.length,
      dropped: this.droppedCount,
    };
  }
}

/** Redacts, then cuts at `max` characters with a note of how much was left out. */
function bodyText(text: string, redactor: Redactor, max: number): { text: string; cut: number } {
  const clean = redactor.redact(text);
  return clean.length <= max ? { text: clean, cut: 0 } : { text: clean.slice(0, max), cut: clean.length - max };
}

function headerList(headers: Record<string, string>, redactor: Redactor): Header[] {
  const out: Header[] = [];
  for (const [name, value] of Object.entries(headers)) {
    // Repeated set-cookie headers were joined with a newline: one HAR header each again.
    for (const v of name === 'set-cookie' ? value.split('\n') : [value]) out.push({ name, value: redactor.redact(v) });
  }
  return out;
}

function queryList(url: URL, redactor: Redactor): QueryString[] {
  return [...url.searchParams].map(([name, value]) => ({ name: redactor.redact(name), value: redactor.redact(value) }));
}

/**
 * A redacted URL as a valid URI: redaction writes labels such as "[key 1]" into it, and a check may
 * have sent characters a URI does not allow; both are percent-encoded after the origin.
 */
function uriSafe(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([\s\S]*)$/i.exec(url);
  if (!m) return url;
  const rest = m[2]!.replace(/[^A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c)).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  return m[1] + rest;
}

function mimeOf(headers: Record<string, string> | undefined): string {
  return headers?.['content-type'] ?? '';
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

function harEntry(r: Recorded, redactor: Redactor, maxBody: number): Entry {
  const ex = r.exchange;
  const req = ex.request;
  const url = uriSafe(redactor.redact(req.url));
  let query: QueryString[] = [];
  try {
    query = queryList(new URL(req.url), redactor);
  } catch {
    query = [];
  }
  const sent = req.body === null ? null : bodyText(req.body, redactor, maxBody);
  const res = ex.response;
  const got = res ? bodyText(res.body, redactor, maxBody) : null;
  const time = Math.max(0, Math.round(ex.durationMs * 1000) / 1000);
  const notes = [`as ${authLabel(req.auth)}`];
  if (req.operation) notes.push(`operation ${req.operation}`);
  if (ex.error) notes.push(`no response: ${ex.error}`);
  if (sent?.cut) notes.push(`request body cut: ${sent.cut} more characters`);
  if (got?.cut) notes.push(`response body cut: ${got.cut} more characters`);
  if (res?.truncated) notes.push('response read up to the scan\'s body limit');
  const entry: Entry & { _error?: string } = {
    startedDateTime: new Date(r.startedAt).toISOString(),
    time,
    request: {
      method: req.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(req.headers, redactor),
      queryString: query,
      ...(sent ? { postData: { mimeType: req.headers['content-type'] ?? 'application/octet-stream', text: sent.text } } : {}),
      headersSize: -1,
      bodySize: req.body === null ? 0 : Buffer.byteLength(req.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: res ? (STATUS_TEXT[res.status] ?? '') : '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: res ? headerList(res.headers, redactor) : [],
      content: { size: res?.bytes ?? 0, mimeType: mimeOf(res?.headers) || 'x-unknown', ...(got ? { text: got.text } : {}) },
      redirectURL: res?.headers.location ? redactor.redact(res.headers.location) : '',
      headersSize: -1,
      bodySize: res?.bytes ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: redactor.redact(notes.join('; ')),
  };
  // Chromium's own HAR export marks a request that got no answer this way.
  if (ex.error) entry._error = redactor.redact(ex.error);
  return entry;
}
