// Runs a benchmark: `npm run bench -- <name> [args]` bundles bench/<name>/index.ts with esbuild
// (dependencies external) and runs it with node, so benchmarks measure the same code the app runs;
// the import worker is bundled next to it, as the build puts it next to the app's bundles.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildImportWorker } from './import-worker-build.mjs';

const [name, ...args] = process.argv.slice(2);
const available = fs.readdirSync('bench', { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join('bench', d.name, 'index.ts'))).map((d) => d.name);
if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <${available.join('|')}> [args]`);
  process.exit(2);
}
const outfile = path.join('dist', 'bench', `${name}.mjs`);
await build({
  entryPoints: [path.join('bench', name, 'index.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
await buildImportWorker(path.join('dist', 'bench', 'import-worker.cjs'));
const res = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
