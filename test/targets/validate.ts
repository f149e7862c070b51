// A small validator for the JSON Schema subset the target's OpenAPI spec uses. The same schema
// objects are published in the spec and enforced here, so the hardened twin does exactly what it
// documents, and each flaw can switch off one part of the enforcement.

import { type FieldError, ValidationError } from './http';

export interface Schema {
  /** A components.schemas name (response documentation only; the validator ignores it). */
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  enum?: readonly (string | number)[];
  format?: 'email' | 'uri' | 'uuid' | 'date-time' | 'int64' | 'double' | 'password' | 'binary';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  description?: string;
  example?: unknown;
  default?: unknown;
}

export interface ValidateOptions {
  /** Enforce maxLength, maxItems and maximum (the size-limits-ignored flaw turns this off). */
  sizeLimits: boolean;
  /** Reject properties the schema does not declare (mass assignment flaws turn this off). */
  rejectUnknown: boolean;
  /** Drop readOnly properties from the result instead of passing them through. */
  dropReadOnly: boolean;
}

export const STRICT: ValidateOptions = { sizeLimits: true, rejectUnknown: true, dropReadOnly: true };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function check(schema: Schema, value: unknown, path: string, opts: ValidateOptions, errors: FieldError[]): unknown {
  const field = path || '(body)';
  if (value === null) {
    if (!schema.nullable) errors.push({ field, message: 'must not be null' });
    return value;
  }
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        errors.push({ field, message: 'must be an object' });
        return value;
      }
      const obj = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const props = schema.properties ?? {};
      for (const name of schema.required ?? []) {
        if (obj[name] === undefined) errors.push({ field: path ? `${path}.${name}` : name, message: 'is required' });
      }
      for (const [name, v] of Object.entries(obj)) {
        const sub = props[name];
        const p = path ? `${path}.${name}` : name;
        if (!sub) {
          if (opts.rejectUnknown && schema.additionalProperties === false) errors.push({ field: p, message: 'is not an allowed property' });
          else out[name] = v;
          continue;
        }
        if (sub.readOnly && opts.dropReadOnly) continue;
        if (v === undefined) continue;
        out[name] = check(sub, v, p, opts, errors);
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(value)) {
        errors.push({ field, message: 'must be an array' });
        return value;
      }
      if (schema.minItems !== undefined && value.length < schema.minItems) errors.push({ field, message: `must have at least ${schema.minItems} items` });
      if (opts.sizeLimits && schema.maxItems !== undefined && value.length > schema.maxItems) errors.push({ field, message: `must have at most ${schema.maxItems} items` });
      return schema.items ? value.map((v, i) => check(schema.items!, v, `${path}[${i}]`, opts, errors)) : value;
    }
    case 'string': {
      if (typeof value !== 'string') {
        errors.push({ field, message: 'must be a string' });
        return value;
      }
      if (schema.minLength !== undefined && value.length < schema.minLength) errors.push({ field, message: `must be at least ${schema.minLength} characters` });
      if (opts.sizeLimits && schema.maxLength !== undefined && value.length > schema.maxLength) errors.push({ field, message: `must be at most ${schema.maxLength} characters` });
      if (schema.enum && !schema.enum.includes(value)) errors.push({ field, message: `must be one of ${schema.enum.join(', ')}` });
      if (schema.format === 'email' && !EMAIL.test(value)) errors.push({ field, message: 'must be an email address' });
      if (schema.format === 'uuid' && !UUID.test(value)) errors.push({ field, message: 'must be a UUID' });
      if (schema.format === 'uri' && !URL.canParse(value)) errors.push({ field, message: 'must be an absolute URL' });
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) errors.push({ field, message: `must match ${schema.pattern}` });
      return value;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value))) {
        errors.push({ field, message: `must be ${schema.type === 'integer' ? 'an integer' : 'a number'}` });
        return value;
      }
      if (schema.minimum !== undefined && value < schema.minimum) errors.push({ field, message: `must be at least ${schema.minimum}` });
      if (opts.sizeLimits && schema.maximum !== undefined && value > schema.maximum) errors.push({ field, message: `must be at most ${schema.maximum}` });
      if (schema.enum && !schema.enum.includes(value)) errors.push({ field, message: `must be one of ${schema.enum.join(', ')}` });
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') errors.push({ field, message: 'must be true or false' });
      return value;
    default:
      return value;
  }
}

/** Validates and returns the cleaned value, or throws ValidationError with every field error. */
export function validate<T = Record<string, unknown>>(schema: Schema, value: unknown, opts: ValidateOptions = STRICT): T {
  const errors: FieldError[] = [];
  if (value === undefined) {
    throw new ValidationError([{ field: '(body)', message: 'a JSON body is required' }]);
  }
  const out = check(schema, value, '', opts, errors);
  if (errors.length) throw new ValidationError(errors);
  return out as T;
}
