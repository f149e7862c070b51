// Bundles the core's entry points with esbuild: the CLI/team server, and the Electron main and
// preload. Dependencies stay external (native modules load from node_modules at run time).
// The report fonts are copied next to the bundles that render PDFs.
import fs from 'node:fs';
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
  legalComments: 'none',
};

await Promise.all([
  build({ ...common, entryPoints: { cli: 'electron/cli-entry.ts' }, outdir: 'dist/core', format: 'esm' }),
  build({ ...common, entryPoints: { main: 'electron/main.ts' }, outdir: 'dist/desktop', format: 'esm', external: ['electron'] }),
  // A sandboxed preload must be one CommonJS file that requires nothing but electron.
  build({
    ...common,
    packages: undefined,
    entryPoints: { preload: 'electron/preload.cts' },
    outfile: 'dist/desktop/preload.cjs',
    format: 'cjs',
    external: ['electron'],
  }),
]);

for (const dir of ['dist/core/fonts', 'dist/desktop/fonts']) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync('electron/reports/fonts', dir, { recursive: true });
}
