// Probes shared by the REST and GraphQL SSRF checks: the listener URL sent into URL-like inputs and its
// callbacks awaited, and internal targets (local files, cloud metadata) sought in the answer, plain or
// base64- or hex-encoded.

import type { Exchange } from '../../http/exchange';
import type { OobHit, OobService } from '../../oob';
import { decodedTexts } from '../common/encoded-ids';
import { AS_KEY1, asPointValue, bodyText, passwdMarker, winIniMarker, type InjectionPoint } from '../common/input-points';
import type { CheckContext } from '../types';

/** Wait for late callbacks (a fetch queued in the background) after the last injection, at most this long. */
const CALLBACK_WAIT_MS = 2000;
/** URL-like inputs the listener URL goes into, at most (one request each). */
export const MAX_URL_POINTS = 4;

export type UrlPoint = InjectionPoint & { urlKind: 'url' | 'host' };

/** An answer's text to seek markers in: the body, its JSON strings, and what it carries base64- or hex-encoded (a fetched page returned encoded). */
export function answerText(ex: Exchange): { text: string; decoded: string } {
  const text = `${bodyText(ex)}\n${ex.body}`;
  return { text, decoded: decodedTexts(text).join('\n') };
}

/** A listener hit as findings state it: method, URL, source address, User-Agent and delay after the injection. */
export function describeHit(hit: OobHit, sentAt: number): string {
  const ua = hit.headers['user-agent'] ? `, User-Agent "${hit.headers['user-agent']}"` : '';
  return `${hit.method} ${hit.url} from ${hit.remoteAddress}${ua}, ${Math.max(0, Math.round(hit.time - sentAt))} ms after the request was sent`;
}

export interface ListenerHit {
  point: UrlPoint;
  token: string;
  ex: Exchange;
  /** The listener address put into the point. */
  url: string;
  /** When the injection was sent (performance.now()). */
  at: number;
  hit: OobHit;
}

/**
 * Sends the listener's URL (a fresh token each) into each point, as key 1 and without following redirects,
 * then waits for the callbacks: the hits in the order of the points. `pointAt` gives the point to send
 * (a fresh request's, for creates), null to pass it over.
 */
export async function listenerHits(
  ctx: CheckContext,
  oob: OobService,
  points: readonly UrlPoint[],
  pointAt: (p0: UrlPoint, i: number) => Promise<UrlPoint | null>,
): Promise<ListenerHit[]> {
  const sent: Omit<ListenerHit, 'hit'>[] = [];
  for (const [i, p0] of points.entries()) {
    if (ctx.budgetLeft() <= 0) break;
    const point = await pointAt(p0, i);
    if (!point) continue;
    const token = oob.token();
    const at = performance.now();
    const url = oob.urlFor(token);
    const ex = await ctx.sendPrepared(point.with(asPointValue(url, point.urlKind)), AS_KEY1, { followRedirects: false });
    sent.push({ point, token, ex, url, at });
  }
  const deadline = performance.now() + CALLBACK_WAIT_MS;
  const hits: ListenerHit[] = [];
  for (const s of sent) {
    const hit = await oob.waitForHit(s.token, Math.max(0, deadline - performance.now()));
    if (hit) hits.push({ ...s, hit });
  }
  return hits;
}

/** Whether the answer carries the listener's page for the token: as sent ('plain'), only base64- or hex-encoded ('encoded'), or not (null). */
export function listenerPageIn(ex: Exchange, token: string): 'plain' | 'encoded' | null {
  const page = `portcullis-oob ${token}`;
  if (ex.body.includes(page)) return 'plain';
  return answerText(ex).decoded.includes(page) ? 'encoded' : null;
}

// ---------------------------------------------------------------- internal targets

export interface InternalTarget {
  id: string;
  label: string;
  url: string;
  /** What in the answer proves the content came from there (null: not in this answer). */
  marker(text: string): string | null;
}

const METADATA = (text: string) => (/\bami-id\b/.test(text) && /\b(instance-id|hostname|local-ipv4|security-credentials)\b/.test(text) ? 'EC2 metadata listing (ami-id, instance-id...)' : null);

/** Local files and the cloud metadata address: targets whose content no API serves by itself. */
export const FILE_AND_METADATA_TARGETS: readonly InternalTarget[] = [
  { id: 'file-passwd', label: 'a local file', url: 'file:///etc/passwd', marker: (t) => (passwdMarker(t) ? `/etc/passwd content (${passwdMarker(t)})` : null) },
  { id: 'file-winini', label: 'a local file', url: 'file:///c:/windows/win.ini', marker: (t) => (winIniMarker(t) ? 'win.ini content ([fonts], [extensions])' : null) },
  { id: 'cloud-metadata', label: 'the cloud metadata service', url: 'http://169.254.169.254/latest/meta-data/', marker: METADATA },
];

/** What the target's content looks like in the answer (the marker), and whether it was found only decoded; null when absent. */
export function targetContentIn(target: InternalTarget, ex: Exchange): { marker: string; encoded: string } | null {
  const answer = answerText(ex);
  const plainMarker = target.marker(answer.text);
  const marker = plainMarker ?? target.marker(answer.decoded);
  if (!marker) return null;
  return { marker, encoded: plainMarker === null ? ' (returned base64- or hex-encoded; decoded by the scanner)' : '' };
}
