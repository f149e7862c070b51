// Bundles the core's entry points with esbuild: the CLI/team server, and the Electron main and
// preload. Dependencies stay external (native modules load from node_modules at run time).
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
