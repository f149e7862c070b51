// Creates that fail validation learn from the answer: a 400 or 422 that names required fields, the
// values an enum allows or the format a value must have (validation-hints.ts) gives the fields the
// spec did not declare, or declared wrongly; the scan fills them with fitting values and sends the
// create again, a few times at most. What it learnt stays with the operation, so every later request
// the scan prepares for it (other keys' objects, the checks' creates) carries the fields from the start.

import type { Endpoint, JsonSchema } from '../../shared/contract';
import type { Exchange } from './http/exchange';
import { mutate, type PreparedRequest } from './requests';
import { FORMAT_VALUES, synthesize } from './schema-values';
import { validationHints, type FieldHint } from './validation-hints';

/** Tries after the first create, per object: each may learn more fields (a form validated step by step). */
export const CREATE_RETRIES = 2;

/** What the scan learnt about one field of an operation's body. */
export interface LearnedField {
  path: string[];
  kind: FieldHint['kind'];
  values?: (string | number)[];
  format?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Statuses whose answer may say what the request lacks. */
export function learnable(exchange: Exchange): boolean {
  return exchange.status === 400 || exchange.status === 422;
}

/** A UUID that differs per create (a fixed one collides on a unique column), still repeatable per seed. */
function uuidFor(unique: string): string {
  const hex = [...unique].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('').slice(-12).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** A value of the form a message asked for. */
function formatValue(format: string, name: string, unique: string): unknown {
  switch (format) {
    case 'email':
      return `portcullis.${unique}@example.com`;
    case 'uuid':
      return uuidFor(unique);
    case 'phone':
      return '+15555550100';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'string':
      return `portcullis-${unique}`;
    default:
      return FORMAT_VALUES[format] ?? synthesize(null, { name, unique, forRequest: true });
  }
}

/** The schema the spec gives a body field, when it declares one. */
function declaredSchema(endpoint: Endpoint, path: string[]): JsonSchema | null {
  let s: unknown = endpoint.request_body?.schema ?? null;
  for (const p of path) {
    const props = isObj(s) && isObj(s.properties) ? s.properties : null;
    s = props ? props[p] : null;
    if (!s) return null;
  }
  return isObj(s) ? (s as JsonSchema) : null;
}

function getAt(body: unknown, path: string[]): unknown {
  let v = body;
  for (const p of path) v = isObj(v) ? v[p] : undefined;
  return v;
}

function setAt(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = { ...body };
  const [head, ...rest] = path;
  copy[head!] = rest.length ? setAt(isObj(copy[head!]) ? (copy[head!] as Record<string, unknown>) : {}, rest, value) : value;
  return copy;
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** Top-level fields a message about a form without a field name ("invalid date format") may mean: named like it. */
const FORMAT_FIELD: Record<string, RegExp> = {
  date: /date|day|birth|dob/i,
  'date-time': /date|time|_at$|At$/,
  email: /mail/i,
  uri: /url|uri|link|website/i,
  uuid: /uuid|guid/i,
  phone: /phone|mobile|tel/i,
};

/** The value a learnt field gets in a request whose body is `body` (null: leave it as it is). */
function valueFor(endpoint: Endpoint, field: LearnedField, current: unknown, unique: string): unknown {
  const name = field.path[field.path.length - 1] ?? '';
  if (field.kind === 'enum') {
    const values = field.values ?? [];
    return values.find((v) => v !== current && String(v) !== String(current)) ?? values[0];
  }
  if (field.kind === 'format') return formatValue(field.format ?? 'string', name, unique);
  // Required: what was sent stays (the message may be about another rule); a missing field gets what the spec, or its name, suggests.
  if (!empty(current)) return null;
  const schema = declaredSchema(endpoint, field.path);
  return synthesize(schema, { name, unique, forRequest: true }) ?? `portcullis-${unique}`;
}

/** The body with the learnt fields filled; the body itself when nothing changes. */
export function applyLearned(endpoint: Endpoint, body: unknown, fields: readonly LearnedField[], unique: string): unknown {
  if (!fields.length || (body !== undefined && body !== null && !isObj(body))) return body;
  let out: Record<string, unknown> = isObj(body) ? body : {};
  for (const f of fields) {
    const targets = f.path.length ? [f.path] : Object.keys(out).filter((k) => typeof out[k] === 'string' && FORMAT_FIELD[f.format ?? '']?.test(k)).map((k) => [k]);
    for (const path of targets) {
      const value = valueFor(endpoint, { ...f, path }, getAt(out, path), unique);
      if (value !== null && value !== undefined) out = setAt(out, path, value);
    }
  }
  return out;
}

/**
 * What a refused create teaches: the fields its answer names, merged with those learnt before (a
 * later answer refines an earlier one). Null when the answer names nothing new.
 */
export function learnFromRefusal(known: readonly LearnedField[], exchange: Exchange): LearnedField[] | null {
  if (!learnable(exchange)) return null;
  const hints = validationHints(exchange.json(), exchange.body);
  if (!hints.length) return null;
  const out = [...known];
  let changed = false;
  for (const h of hints) {
    const key = h.path.join('.');
    const i = out.findIndex((f) => f.path.join('.') === key && (h.path.length || f.format === h.format));
    const next: LearnedField = { path: h.path, kind: h.kind, ...(h.values ? { values: h.values } : {}), ...(h.format ? { format: h.format } : {}) };
    if (i < 0) {
      out.push(next);
      changed = true;
    } else if (JSON.stringify(out[i]) !== JSON.stringify(next) && !(h.kind === 'required' && out[i]!.kind !== 'required')) {
      out[i] = next;
      changed = true;
    } else if (h.kind !== 'required' && JSON.stringify(out[i]) === JSON.stringify(next)) {
      // The same enum or format again: its value did not help. Try without insisting (the next value of an enum).
      changed = changed || h.kind === 'enum';
    }
  }
  return changed ? out : null;
}

/** The request with its body rebuilt from what was learnt; null when the body would not change. */
export function relearned(endpoint: Endpoint, request: PreparedRequest, fields: readonly LearnedField[], unique: string): PreparedRequest | null {
  const body = applyLearned(endpoint, request.bodyValue, fields, unique);
  if (body === request.bodyValue || JSON.stringify(body) === JSON.stringify(request.bodyValue)) return null;
  return mutate(request, { bodyValue: body });
}

/** "priority (one of low, normal), email (required)": what was learnt, for the scan's notes. */
export function describeLearned(fields: readonly LearnedField[]): string {
  return fields
    .map((f) => {
      const name = f.path.length ? f.path.join('.') : `fields named like a ${f.format}`;
      if (f.kind === 'enum') return `${name} (one of ${(f.values ?? []).slice(0, 5).join(', ')})`;
      if (f.kind === 'format') return `${name} (${f.format})`;
      return `${name} (required)`;
    })
    .join(', ');
}
