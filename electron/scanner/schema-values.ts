// Request values synthesised from JSON Schemas: the schema's own example first, then enums and
// defaults, then a value fitting its format, then a plain value of its type. Values are
// deterministic, so two scans send the same requests; producers (POSTs that create objects) can ask
// for unique strings so repeated creates do not collide on unique fields. Passwords are the exception:
// a request's password is a placeholder the engine fills with a fresh random one (passwords.ts).

import type { JsonSchema } from '../../shared/contract';
import { isPasswordKey, PASSWORD_PLACEHOLDER } from './passwords';

export interface SynthOptions {
  /** Property or parameter name: hints at a value when the schema says little ("email", "url"). */
  name?: string;
  /** A token appended to identifying strings (names, emails...) so each create is distinct. */
  unique?: string;
  /** Request bodies leave out readOnly properties; response-shaped values keep them. */
  forRequest?: boolean;
}

const MAX_DEPTH = 6;
const MAX_PROPERTIES = 40;

export const FORMAT_VALUES: Record<string, unknown> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '12:00:00',
  email: 'portcullis@example.com',
  'idn-email': 'portcullis@example.com',
  uuid: '00000000-0000-4000-8000-000000000001',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': '/portcullis',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'cG9ydGN1bGxpcw==',
  binary: 'portcullis',
  password: PASSWORD_PLACEHOLDER,
  duration: 'P1D',
  regex: '^portcullis$',
};

const UNIQUE_NAME = /(^|_|-)(user(name)?|login|handle|email|name|title|slug|code|sku|nick(name)?|label|key)$/i;

function nameHint(name: string | undefined, unique: string | undefined): unknown {
  if (!name) return undefined;
  const n = name.toLowerCase();
  if (/e-?mail/.test(n)) return unique ? `portcullis.${unique}@example.com` : 'portcullis@example.com';
  if (/(^|_)(url|uri|link|website|homepage|callback|webhook|redirect)/.test(n) || /(url|uri)$/.test(n)) return 'https://example.com/';
  if (/uuid|guid/.test(n)) return FORMAT_VALUES.uuid;
  if (isPasswordKey(name)) return PASSWORD_PLACEHOLDER;
  if (/phone|mobile/.test(n)) return '+15555550100';
  if (/(^|_)(date|birthday|dob)$/.test(n)) return FORMAT_VALUES.date;
  if (/(_at|time(stamp)?)$/.test(n)) return FORMAT_VALUES['date-time'];
  if (/(^|_)(id)$|[a-z]Id$/.test(name)) return '1';
  if (/country/.test(n)) return 'US';
  if (/currency/.test(n)) return 'USD';
  if (/(lang|locale)/.test(n)) return 'en';
  return undefined;
}

function firstExample(schema: JsonSchema): { found: boolean; value?: unknown } {
  if ('example' in schema && schema.example !== undefined) return { found: true, value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { found: true, value: schema.examples[0] };
  if ('default' in schema && schema.default !== undefined) return { found: true, value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { found: true, value: schema.enum.find((v) => v !== null) ?? schema.enum[0] };
  if ('const' in schema) return { found: true, value: schema.const };
  return { found: false };
}

function schemaType(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t as unknown[]).find((x): x is string => typeof x === 'string' && x !== 'null');
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function mergeAllOf(schema: JsonSchema): JsonSchema {
  const parts = (schema.allOf as JsonSchema[] | undefined) ?? [];
  const merged: JsonSchema = { ...schema };
  delete merged.allOf;
  const props: Record<string, JsonSchema> = { ...((schema.properties as Record<string, JsonSchema>) ?? {}) };
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const p of parts) {
    if (!p || typeof p !== 'object') continue;
    const inner = p.allOf ? mergeAllOf(p) : p;
    Object.assign(props, (inner.properties as Record<string, JsonSchema>) ?? {});
    for (const r of (inner.required as string[] | undefined) ?? []) required.add(r);
    for (const [k, v] of Object.entries(inner)) if (!(k in merged) && k !== 'properties' && k !== 'required') merged[k] = v;
  }
  if (Object.keys(props).length) merged.properties = props;
  if (required.size) merged.required = [...required];
  if (!merged.type && Object.keys(props).length) merged.type = 'object';
  return merged;
}

function stringValue(schema: JsonSchema, opts: SynthOptions): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format === 'email' && opts.unique) return `portcullis.${opts.unique}@example.com`;
  if (format && typeof FORMAT_VALUES[format] === 'string') return FORMAT_VALUES[format] as string;
  const hinted = nameHint(opts.name, opts.unique);
  if (typeof hinted === 'string') return fitLength(hinted, schema);
  let s = 'portcullis';
  if (opts.unique && opts.name && UNIQUE_NAME.test(opts.name)) s = `portcullis-${opts.unique}`;
  return fitLength(s, schema);
}

function fitLength(s: string, schema: JsonSchema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  let out = s;
  while (out.length < min) out += 'x';
  if (out.length > max) out = out.slice(0, Math.max(0, max));
  return out;
}

function numberValue(schema: JsonSchema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0.5) : undefined;
  let v = min ?? 1;
  if (max !== undefined && v > max) v = max;
  if (integer) v = Math.ceil(v);
  const multiple = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multiple) v = Math.ceil(v / multiple) * multiple;
  return v;
}

/** A value for the schema; undefined only when there is no schema and no name hint. */
export function synthesize(schema: JsonSchema | null | undefined, opts: SynthOptions = {}, depth = 0): unknown {
  if (!schema || typeof schema !== 'object') return nameHint(opts.name, opts.unique) ?? (opts.name ? 'portcullis' : undefined);
  if ('x-circular' in schema || 'x-unresolved-ref' in schema || depth > MAX_DEPTH) return null;
  // Not even the spec's own example: one password for every account a request registers.
  if (opts.forRequest && (schema.format === 'password' || (opts.name && isPasswordKey(opts.name))) && ['string', 'integer', 'number', undefined].includes(schemaType(schema))) return PASSWORD_PLACEHOLDER;
  const ex = firstExample(schema);
  if (ex.found) {
    if (opts.unique && typeof ex.value === 'string' && opts.name && UNIQUE_NAME.test(opts.name)) {
      return /@/.test(ex.value) ? ex.value.replace('@', `+${opts.unique}@`) : `${ex.value}-${opts.unique}`;
    }
    return ex.value;
  }
  if (Array.isArray(schema.allOf)) return synthesize(mergeAllOf(schema), opts, depth + 1);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      const pick = (options as JsonSchema[]).find((o) => o && schemaType(o) !== 'null') ?? (options[0] as JsonSchema);
      return synthesize({ ...schema, [key]: undefined, ...pick }, opts, depth + 1);
    }
  }
  switch (schemaType(schema)) {
    case 'string':
      return stringValue(schema, opts);
    case 'integer':
      return numberValue(schema, true);
    case 'number':
      return numberValue(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? null;
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const one = synthesize(items, { ...opts, name: opts.name }, depth + 1);
      return one === undefined ? [] : Array.from({ length: Math.min(count, 5) }, () => one);
    }
    case 'object': {
      const props = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      const out: Record<string, unknown> = {};
      let n = 0;
      for (const [name, sub] of Object.entries(props)) {
        if (n >= MAX_PROPERTIES) break;
        if (opts.forRequest && sub && typeof sub === 'object' && sub.readOnly === true) continue;
        const v = synthesize(sub, { ...opts, name }, depth + 1);
        if (v !== undefined) {
          out[name] = v;
          n += 1;
        }
      }
      return out;
    }
    default: {
      const hinted = nameHint(opts.name, opts.unique);
      return hinted ?? (opts.name ? 'portcullis' : {});
    }
  }
}

/** A value as a path, query or header parameter carries it (arrays comma-joined, objects as JSON). */
export function paramString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(paramString).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
