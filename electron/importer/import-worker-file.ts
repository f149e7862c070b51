// Where the import worker's bundle is (scripts/import-worker-build.mjs writes it next to each bundle
// that imports). A worker thread loads a file by path, so the bundles find it at run time.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const IMPORT_WORKER_FILE = 'import-worker.cjs';
/** Points at another bundle of the worker: tests running the sources set it (test/setup/import-worker.ts). */
export const IMPORT_WORKER_FILE_ENV = 'PORTCULLIS_IMPORT_WORKER_FILE';

/**
 * PORTCULLIS_IMPORT_WORKER_FILE, else the worker next to this module's bundle (dist/core/cli.js,
 * dist/desktop/main.js inside the app's asar, dist/bench/) or one folder up (a split chunk).
 */
export function importWorkerFile(env: NodeJS.ProcessEnv = process.env): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, IMPORT_WORKER_FILE), path.join(here, '..', IMPORT_WORKER_FILE)];
  const given = env[IMPORT_WORKER_FILE_ENV]?.trim();
  if (given) candidates.unshift(path.resolve(given));
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) throw new Error(`The import worker (${IMPORT_WORKER_FILE}) is missing: build Portcullis with \`npm run build:core\` (looked in ${candidates.join(', ')}).`);
  return found;
}
