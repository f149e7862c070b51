// Bundles the import worker (electron/importer/import-worker.ts) into one CommonJS file with every
// dependency inside: a worker thread loads it by path, from dist/core, dist/desktop (inside the
// desktop app's asar), the benchmark's folder or a test run's temp folder alike.
// Used by scripts/build-core.mjs, scripts/bench.mjs and the tests' global setup.
import { build } from 'esbuild';

export const IMPORT_WORKER_ENTRY = 'electron/importer/import-worker.ts';

/** Writes the worker bundle to `outfile` (plus its source map unless `sourcemap` is false). */
export async function buildImportWorker(outfile, { sourcemap = true, absWorkingDir } = {}) {
  await build({
    entryPoints: [IMPORT_WORKER_ENTRY],
    outfile,
    absWorkingDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap,
    logLevel: 'warning',
    legalComments: 'none',
    // graphql-js checks for a second copy of itself on every type test outside production.
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}
