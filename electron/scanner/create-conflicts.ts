// Creates refused because what they name exists already: a unique constraint over several fields (an
// item of a product in a basket, a member in a team) answers 409, or a 400/422/500 that says unique,
// duplicate or already exists. Two probes that share a parent and the same example ids then spoil each
// other, whichever runs first. The create is sent once more with its OTHER id fields changed (another
// id of that kind the API listed, else the next small integer), the field under test and the caller's
// own parent kept, so the rule under test is judged rather than the duplicate.

import type { Endpoint } from '../../shared/contract';
import { isOwnerField } from './checks/common/ownership';
import type { Exchange } from './http/exchange';
import { pathParamNames } from './requests';

/** Words of an answer that says the combination exists (Sequelize, PostgreSQL, MySQL, MongoDB, frameworks' own). */
const UNIQUE_WORDS = /\bunique\b|duplicate|already (exists?|taken|in use|registered|added|present|in (the|your))|exists already|E11000/i;
/** A bare "validation error": a uniqueness refusal only where the same operation has been created before (its body shape is valid). */
const GENERIC_VALIDATION = /validation (error|failed)/i;
/** Fields the answer names as the duplicate: `ProductId must be unique`, `"path": "ProductId"`, `Key (product_id)=(1)`. */
const NAMED = [/["']?([A-Za-z_][\w]*)["']? (?:must be unique|already exists|is already taken|is a duplicate)/g, /"(?:path|field|param)"\s*:\s*"([A-Za-z_][\w]*)"/g, /Key \(([\w, ]+)\)=/g];

const ID_FIELD = /(^|[_\-.])(id|pk|no|ref)$|[a-z0-9](Id|ID|Ref)$/;

export interface UniquenessRefusal {
  /** Fields the answer names as the duplicate (may be empty). */
  named: string[];
}

/** The answer says the create's combination exists already; null for any other refusal. */
export function uniquenessRefusal(exchange: Exchange, createdBefore: boolean): UniquenessRefusal | null {
  const s = exchange.status;
  if (!exchange.response || (s !== 409 && s !== 400 && s !== 422 && s !== 500)) return null;
  const text = exchange.body.slice(0, 20_000);
  if (s !== 409 && !UNIQUE_WORDS.test(text) && !(createdBefore && GENERIC_VALIDATION.test(text))) return null;
  const named = new Set<string>();
  for (const re of NAMED) for (const m of text.matchAll(re)) for (const f of m[1]!.split(/,\s*/)) named.add(f.trim());
  return { named: [...named] };
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Top-level id fields of a create body that may change on a retry: scalar, not an owner, not kept. */
export function variableIdFields(body: unknown, keep: readonly string[]): string[] {
  if (!isObj(body)) return [];
  return Object.entries(body)
    .filter(([k, v]) => ID_FIELD.test(k) && !isOwnerField(k) && !keep.includes(k) && (typeof v === 'number' || (typeof v === 'string' && v.length > 0 && v.length <= 64)))
    .map(([k]) => k);
}

/**
 * Another value for an id field: the next of the ids the API listed for that kind that is not the
 * current one (`turn` picks a different one on each retry of the scan), else for a small integer the
 * next one. Null when neither is known.
 */
export function otherId(current: unknown, listed: readonly string[], turn: number): string | number | null {
  const others = listed.filter((x) => x !== String(current));
  if (others.length) {
    const v = others[turn % others.length]!;
    return typeof current === 'number' && /^\d+$/.test(v) ? Number(v) : v;
  }
  if (typeof current === 'number' && Number.isInteger(current)) return current + 1 + turn;
  if (typeof current === 'string' && /^\d{1,9}$/.test(current)) return String(Number(current) + 1 + turn);
  return null;
}

/**
 * The body with its other id fields changed; null when none can change. The fields the answer named
 * come first (alone when one of them can change), so an id the answer did not blame stays.
 */
export async function variedBody(
  body: unknown,
  keep: readonly string[],
  refusal: UniquenessRefusal,
  listedIds: (field: string) => Promise<string[]>,
  turn: (field: string) => number,
): Promise<Record<string, unknown> | null> {
  if (!isObj(body)) return null;
  const fields = variableIdFields(body, keep);
  const blamed = fields.filter((f) => refusal.named.some((n) => n.toLowerCase() === f.toLowerCase()));
  let out: Record<string, unknown> | null = null;
  for (const field of blamed.length ? blamed : fields) {
    const value = otherId(body[field], await listedIds(field), turn(field));
    if (value === null) continue;
    out ??= { ...body };
    out[field] = value;
  }
  return out;
}

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us)$/.test(word)) return word;
  return word.replace(/s$/, '');
}

/** A GET without path parameters that lists the kind an id field names (ProductId -> GET /products). */
export function listingForField(endpoints: readonly Endpoint[], field: string): Endpoint | null {
  const base = field.replace(/([a-z0-9])(Id|ID|Ref)$/, '$1').replace(/[-_.]?(id|pk|no|ref)$/i, '').replace(/[-_]/g, '').toLowerCase();
  if (!base || base === field.toLowerCase()) return null;
  const kind = (seg: string) => singular(seg.replace(/[-_]/g, '').toLowerCase());
  return (
    endpoints
      .filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 0 && kind(e.path.split('/').filter(Boolean).pop() ?? '') === base)
      .sort((a, b) => a.path.length - b.path.length)[0] ?? null
  );
}
