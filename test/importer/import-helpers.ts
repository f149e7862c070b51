// Helpers for importer tests: import text or values, and fail on any error a reader did not mean to throw.

import { importApiDocument, type ImportResult } from '../../electron/importer/index';

export function importText(text: string | Uint8Array, filename = 'spec.json'): ImportResult {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return importApiDocument(bytes, {
    filename,
    onUnexpectedError: (err, op) => {
      throw new Error(`unexpected error while reading ${op}: ${err instanceof Error ? err.stack : String(err)}`);
    },
  });
}

export const importJson = (value: unknown): ImportResult => importText(JSON.stringify(value));

/** A small OpenAPI 3.0 document with one operation; `extra` is merged in at the top level. */
export function openapi(paths: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'https://api.example.test/v1' }], paths, ...extra };
}

export function importError(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the import to be refused');
}
