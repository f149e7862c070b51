// Bundles the standalone test targets (test/targets/serve.ts, test/targets/graphql/serve.ts) to
// dist/targets/serve.js and dist/targets/serve-graphql.js with esbuild.
// Dependencies stay external and load from the repository's node_modules at run time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

await build({
  entryPoints: { serve: path.join(root, 'test/targets/serve.ts'), 'serve-graphql': path.join(root, 'test/targets/graphql/serve.ts') },
  outdir: path.join(root, 'dist/targets'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
});
