// A JSON Schema guessed from an example value (Postman saved bodies, recorded HAR traffic), and
// the redaction of values whose names say they are secrets. Bounded by the endpoint's budget.

import type { JsonSchema } from '../../shared/contract';
import { IMPORT_LIMITS } from './limits';
import type { Budget } from './resolve-refs';
import { hasOwn, isObject, put, type Obj } from './values';

const MAX_DEPTH = 12;
const SAMPLED_ITEMS = 3;

/** Names of fields whose values must never be stored (they are credentials or session material). */
export const SECRET_NAME = /pass(word|wd|phrase)?|secret|token|authori[sz]ation|cookie|api[_-]?key|apikey|credential|session|signature|otp|\bpin\b|private[_-]?key|client[_-]?secret/i;

export const REDACTED = '[redacted]';

const JWT = /^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*$/;

/** A JSON Web Token (header.payload.signature, the header starting `{"`): a credential whatever its name. */
export function looksLikeJwt(value: string): boolean {
  return value.length <= 16_384 && JWT.test(value);
}

/** Formats are short: longer strings are not even looked at (which also keeps the patterns linear). */
const FORMAT_MAX = 254;

function stringFormat(s: string): string | undefined {
  if (s.length > FORMAT_MAX) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) return 'date-time';
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return 'date';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) return 'uuid';
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return 'email';
  if (/^https?:\/\/\S+$/i.test(s)) return 'uri';
  return undefined;
}

export function inferSchema(value: unknown, budget: Budget, depth = 0): JsonSchema {
  budget.remaining -= 1;
  if (value === null || value === undefined) return { nullable: true };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'string') {
    const format = stringFormat(value);
    return format ? { type: 'string', format } : { type: 'string' };
  }
  if (depth >= MAX_DEPTH || budget.remaining <= 0) {
    budget.truncations += 1;
    return { 'x-truncated': depth >= MAX_DEPTH ? 'depth' : 'size' };
  }
  if (Array.isArray(value)) {
    const items = value.slice(0, SAMPLED_ITEMS).map((v) => inferSchema(v, budget, depth + 1));
    // Keep the first item's shape, widened with the properties the next ones add.
    const first = items[0];
    if (!first) return { type: 'array', items: {} };
    if (isObject(first.properties)) {
      const props: Obj = { ...first.properties };
      for (const other of items.slice(1)) if (isObject(other.properties)) for (const k of Object.keys(other.properties)) if (!hasOwn(props, k)) put(props, k, other.properties[k]);
      return { type: 'array', items: { ...first, properties: props } };
    }
    return { type: 'array', items: first };
  }
  if (!isObject(value)) return {};
  const properties: Obj = {};
  for (const key of Object.keys(value).slice(0, 500)) {
    if (budget.remaining <= 0) {
      budget.truncations += 1;
      put(properties, 'x-truncated', 'size');
      break;
    }
    put(properties, key.slice(0, IMPORT_LIMITS.maxParameterNameLength), inferSchema(value[key], budget, depth + 1));
  }
  return { type: 'object', properties };
}

/** A bounded copy of an example with the values of secret-named fields (and JWTs) replaced. */
export function redactedExample(value: unknown, budget: Budget, depth = 0): unknown {
  budget.remaining -= 1;
  if (typeof value === 'string') return looksLikeJwt(value) ? REDACTED : value.length > IMPORT_LIMITS.maxStoredString ? `${value.slice(0, IMPORT_LIMITS.maxStoredString)}…` : value;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (depth >= MAX_DEPTH || budget.remaining <= 0) {
    budget.truncations += 1;
    return null;
  }
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => redactedExample(v, budget, depth + 1));
  if (!isObject(value)) return null;
  const out: Obj = {};
  for (const key of Object.keys(value).slice(0, 500)) {
    if (budget.remaining <= 0) break;
    put(out, key, SECRET_NAME.test(key) ? REDACTED : redactedExample(value[key], budget, depth + 1));
  }
  return out;
}
