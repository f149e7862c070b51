// Vitest global setup: the tests run the TypeScript sources, but a worker thread loads a file by path.
// The import worker is bundled from the sources once per run, as `npm run build:core` bundles it, into
// a temp folder; PORTCULLIS_IMPORT_WORKER_FILE (inherited by the test processes and anything they
// spawn) points the import runner at it. Built from the sources, never dist/, so a test never runs a
// stale importer.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_WORKER_FILE, IMPORT_WORKER_FILE_ENV } from '../../electron/importer/import-worker-file';
// @ts-expect-error -- a plain .mjs script without types
import { buildImportWorker } from '../../scripts/import-worker-build.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export default async function setup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-import-worker-'));
  const file = path.join(dir, IMPORT_WORKER_FILE);
  await (buildImportWorker as (outfile: string, options: object) => Promise<void>)(file, { absWorkingDir: ROOT });
  process.env[IMPORT_WORKER_FILE_ENV] = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
