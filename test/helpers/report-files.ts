// What the report tests share: a store in a temporary directory of their own, and the PDFs they render
// written there and read back with poppler's pdftotext, as a reader would see them.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { openStore, type OpenedStore } from '../../electron/store/database';
import { tempDir } from './core';

/** A fresh temporary directory with a store (portcullis.db) in it. */
export async function openReportStore(prefix: string): Promise<{ dir: string; store: OpenedStore }> {
  const dir = tempDir(prefix);
  return { dir, store: await openStore(path.join(dir, 'portcullis.db')) };
}

/** Closes the store, if it opened, and removes its directory. */
export async function removeReportStore(dir: string, store: OpenedStore | undefined): Promise<void> {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes a rendered PDF into dir and returns its file. */
export function pdfFile(dir: string, name: string, body: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

/** pdftotext of the whole document (with its extra options), pages separated by form feeds. */
export function pdfText(file: string, ...args: string[]): string {
  return execFileSync('pdftotext', [...args, file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
}

/** Whitespace collapsed, so wrapped lines read as one. */
export const flat = (s: string): string => s.replace(/\s+/g, ' ');

/** The formats the SARIF schema names, checked for real (ajv-formats is not a dependency). */
export function sarifValidator() {
  // strictRequired is a lint on schemas ("required" inside anyOf), not a validation rule; the
  // official language pattern ("...]?$") is only valid without the regex "u" flag.
  const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false, strictRequired: false, unicodeRegExp: false });
  ajv.addFormat('uri', (v: string) => {
    try {
      return /^[a-z][a-z0-9+.-]*:/i.test(v) && Boolean(new URL(v));
    } catch {
      return false;
    }
  });
  // RFC 3986 URI-reference characters only (no spaces, braces, or raw non-ASCII).
  ajv.addFormat('uri-reference', (v: string) => /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/.test(v) && !/%(?![0-9A-Fa-f]{2})/.test(v));
  ajv.addFormat('date-time', (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)));
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sarif-schema-2.1.0.json'), 'utf8')) as object;
  return ajv.compile(schema);
}
