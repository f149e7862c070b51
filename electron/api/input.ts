// Reading and validating request input: JSON bodies (parsed once, cached by Hono), query strings,
// and zod schemas whose failures become 400 with {field, message} errors.

import type { Context } from 'hono';
import { z } from 'zod';
import { SERVER_MESSAGES } from '../../shared/messages';
import type { ValidationError } from '../../shared/validation';
import { isClientAbort } from './client-abort';
import type { AppEnv } from './env';
import { ApiError, validationError } from './errors';

/** The JSON body as an object; {} when there is none; 400 when it is not JSON or not an object. */
export async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().includes('application/json')) {
    const text = await c.req.text();
    if (text.trim() === '') return {};
    throw new ApiError(415, SERVER_MESSAGES.invalidJson);
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (err) {
    if (isClientAbort(err, c.req.raw.signal)) throw err;
    throw new ApiError(400, SERVER_MESSAGES.invalidJson);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, SERVER_MESSAGES.invalidJson);
  return body as Record<string, unknown>;
}

/**
 * A multipart or URL-encoded body as Hono's parseBody gives it (`all`: repeated fields as arrays), parsed
 * once, by the platform's FormData parser reading the request's stream. parseBody on its own buffers the
 * body and parses a copy of the buffer: four copies of a 25 MB upload in one stretch of the event loop
 * (0.8 s on the busy 2-core machine); this way there are two (issue 30, item 3).
 */
export async function formBody(c: Context<AppEnv>): Promise<Record<string, string | File | (string | File)[]>> {
  // Hono keeps the request's own formData() and parseBody then reads it instead of a buffer of its own.
  await c.req.formData();
  return c.req.parseBody({ all: true });
}

export function zodErrors(error: z.ZodError): ValidationError[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'body', message: issue.message }));
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(zodErrors(result.error));
  return result.data;
}

export async function parseBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await jsonBody(c));
}

export function parseQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}

/** A required id-like string field with a readable message. */
export const idField = (name: string) =>
  z
    .string({ error: `${name} is required.` })
    .trim()
    .min(1, { error: `${name} is required.` })
    .max(100, { error: `${name} is too long.` });
