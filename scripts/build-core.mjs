// Bundles the core's entry points with esbuild: the CLI/team server, and the Electron main and
// preload. Pure-JS dependencies are bundled in (loading one file is much faster than Kysely's,
// zod's and hono's hundreds of modules: start-up is a budget); native modules and packages that read
// their own data files at run time stay external and load from node_modules.
// The report fonts are copied next to the bundles that render PDFs, and the import worker (one
// self-contained file a worker thread loads by path) next to the bundles that import.
import fs from 'node:fs';
import { build } from 'esbuild';
import { buildImportWorker } from './import-worker-build.mjs';

/** Loaded from node_modules at run time: native addons, packages reading files next to themselves. */
const RUNTIME_PACKAGES = ['better-sqlite3', '@napi-rs/keyring', 'pdfkit', 'electron'];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  external: RUNTIME_PACKAGES,
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __portcullisRequire } from 'node:module'; const require = __portcullisRequire(import.meta.url);" },
};

await Promise.all([
  // Code splitting keeps lazily imported parts (the PDF writer and its pdfkit) out of start-up.
  build({ ...common, entryPoints: { cli: 'electron/cli-entry.ts' }, outdir: 'dist/core', format: 'esm', splitting: true, chunkNames: 'chunks/[name]-[hash]' }),
  build({ ...common, entryPoints: { main: 'electron/main.ts' }, outdir: 'dist/desktop', format: 'esm', splitting: true, chunkNames: 'chunks/[name]-[hash]' }),
  // A sandboxed preload must be one CommonJS file that requires nothing but electron.
  build({
    ...common,
    banner: undefined,
    entryPoints: { preload: 'electron/preload.cts' },
    outfile: 'dist/desktop/preload.cjs',
    format: 'cjs',
    external: ['electron'],
  }),
  buildImportWorker('dist/core/import-worker.cjs'),
]);

for (const dir of ['dist/core/fonts', 'dist/desktop/fonts']) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync('electron/reports/fonts', dir, { recursive: true });
}
for (const file of ['import-worker.cjs', 'import-worker.cjs.map']) fs.copyFileSync(`dist/core/${file}`, `dist/desktop/${file}`);
// The window icon on Linux (macOS and Windows take it from the packaged app).
fs.copyFileSync('build/icons/512x512.png', 'dist/desktop/icon.png');
