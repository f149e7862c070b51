// The XML probes the XXE check and the undocumented-XML check share, sent once per operation and scan: an
// internal-entity document (two entities whose values join only when the parser expands them) and an
// external-entity one that points only at the scan's own listener on 127.0.0.1 — never a local file, never
// an expansion bomb. They go where XML is read: an XML request body, a file part of an upload (as a .xml
// file), or a JSON operation's body re-sent as XML (an API that parses a content type it does not document).

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import type { OobHit } from '../../oob';
import { mutate, type PreparedRequest } from '../../requests';
import type { CheckContext } from '../types';
import { AS_KEY1, freshRequest, scanMemo } from './input-points';
import {
  entityMarkers,
  type EntityMarkers,
  expandedIn,
  externalEntityDtd,
  internalEntityDtd,
  mayUpload,
  multipartWithFile,
  uploadFields,
  xmlDocument,
} from './uploads';

/** How the operation was sent XML. */
export type XmlRoute = 'xml-body' | 'xml-upload' | 'json-as-xml';

export interface XmlProbeResult {
  route: XmlRoute;
  /** The upload field, for xml-upload. */
  field?: string;
  /** The internal-entity document and its answer; expanded when the answer carries the joined markers. */
  internal: { ex: Exchange; markers: EntityMarkers; expanded: boolean } | null;
  /** The external-entity document, its answer, and the listener's hit for its token (null: no callback came). */
  external: { ex: Exchange; token: string; hit: OobHit | null } | null;
  /** json-as-xml: a plain XML document (no DTD) whose marker came back as a parsed field value. */
  parsed: { ex: Exchange; marker: string } | null;
  /** The JSON request the operation documents, answered (json-as-xml), for the evidence. */
  baseline: Exchange | null;
}

const WAIT_MS = 2000;
const XML_TYPE = /[/+]xml\b/i;
const WRITE = new Set(['POST', 'PUT', 'PATCH']);

/** How XML reaches this operation, if at all. */
export function xmlRoute(endpoint: Endpoint): XmlRoute | null {
  if (endpoint.graphql) return null;
  const body = endpoint.request_body;
  if (!body || !WRITE.has(endpoint.method.toUpperCase())) return null;
  if (XML_TYPE.test(body.content_type)) return 'xml-body';
  if (uploadFields(endpoint).length) return 'xml-upload';
  if (/json/i.test(body.content_type) && body.schema) return 'json-as-xml';
  return null;
}

function rootName(endpoint: Endpoint): string {
  const xml = (endpoint.request_body?.schema as { xml?: { name?: unknown } } | null)?.xml;
  if (typeof xml?.name === 'string') return xml.name;
  const word = endpoint.path.split('/').filter((s) => s && !s.includes('{')).pop() ?? 'root';
  return word.replace(/[^A-Za-z0-9_]/g, '') || 'root';
}

/** A parsed JSON answer holds the marker as a value of its own (not inside the raw document echoed back). */
function markerAsValue(ex: Exchange, marker: string): boolean {
  let value: unknown;
  try {
    value = /json/i.test(ex.contentType) ? ex.json() : undefined;
  } catch {
    return false;
  }
  const seen: unknown[] = [value];
  for (let i = 0; i < seen.length && i < 5_000; i += 1) {
    const v = seen[i];
    if (v === marker) return true;
    if (v && typeof v === 'object') seen.push(...Object.values(v as Record<string, unknown>));
  }
  return false;
}

const memo = new WeakMap<object, Promise<Map<string, Promise<XmlProbeResult | null>>>>();

/** The probes of the operation under test, sent by whichever of the two checks asks first. */
export async function xmlProbes(ctx: CheckContext): Promise<XmlProbeResult | null> {
  const all = await scanMemo(memo, ctx, async () => new Map<string, Promise<XmlProbeResult | null>>());
  let p = all.get(ctx.endpoint.id);
  if (!p) {
    p = sendProbes(ctx);
    all.set(ctx.endpoint.id, p);
  }
  return p;
}

async function sendProbes(ctx: CheckContext): Promise<XmlProbeResult | null> {
  const ep = ctx.endpoint;
  const route = xmlRoute(ep);
  if (!route || !mayUpload(ctx, ep)) return null;
  const hex = () => ctx.random.hex(4);
  const root = rootName(ep);
  const field = route === 'xml-upload' ? uploadFields(ep)[0]!.name : undefined;
  const result: XmlProbeResult = { route, field, internal: null, external: null, parsed: null, baseline: null };

  /** A fresh request of the operation (creates get unique values each time) carrying this XML document. */
  const withXml = async (doc: (value: unknown) => string): Promise<PreparedRequest | null> => {
    const base = await freshRequest(ctx, ep);
    if (!base) return null;
    const value = base.bodyValue && typeof base.bodyValue === 'object' ? base.bodyValue : {};
    if (route === 'xml-upload') {
      const fields = { ...(value as Record<string, unknown>) };
      const encoded = multipartWithFile(fields, { field: field!, filename: `portcullis-${hex()}.xml`, contentType: 'application/xml', content: doc({ note: 'portcullis' }) }, hex());
      return mutate(base, { body: encoded.body, headers: { 'content-type': encoded.contentType } });
    }
    const type = route === 'xml-body' ? ep.request_body!.content_type : 'application/xml';
    return mutate(base, { body: doc(value), headers: { 'content-type': type, accept: 'application/xml, application/json;q=0.9, */*;q=0.5' } });
  };

  if (route === 'json-as-xml') result.baseline = await ctx.baseline('key1');

  const markers = entityMarkers(hex);
  const internal = internalEntityDtd(markers);
  const first = await withXml((v) => xmlDocument(v, root, internal.dtd, internal.reference));
  if (!first || ctx.budgetLeft() <= 0) return result;
  const ex = await ctx.sendPrepared(first, AS_KEY1, { followRedirects: false });
  result.internal = { ex, markers, expanded: expandedIn(ex.body, markers) };

  // An API that reads XML it does not document may refuse DTDs and still parse the rest: a plain document tells.
  if (route === 'json-as-xml' && !result.internal.expanded && ctx.budgetLeft() > 0) {
    const marker = `pcx${hex()}`;
    const plain = await withXml((v) => xmlDocument(v, root, '', `${marker}`).replace(/<!DOCTYPE [^\n]*\n/, ''));
    if (plain) {
      const pex = await ctx.sendPrepared(plain, AS_KEY1, { followRedirects: false });
      if (pex.ok && markerAsValue(pex, marker)) result.parsed = { ex: pex, marker };
    }
    // Nothing says this API reads XML at all: no external entity for it.
    if (!result.parsed) return result;
  }

  const oob = ctx.oob;
  if (oob && ctx.budgetLeft() > 0) {
    const token = oob.token();
    const external = externalEntityDtd(oob.urlFor(token));
    const second = await withXml((v) => xmlDocument(v, root, external.dtd, external.reference));
    if (second) {
      const eex = await ctx.sendPrepared(second, AS_KEY1, { followRedirects: false });
      result.external = { ex: eex, token, hit: await oob.waitForHit(token, WAIT_MS) };
    }
  }
  return result;
}

/** The answer of a probe shows XML was parsed: entities expanded, the listener called, or a plain document's value read. */
export function xmlParsed(r: XmlProbeResult): boolean {
  return !!r.internal?.expanded || !!r.external?.hit || !!r.parsed;
}
