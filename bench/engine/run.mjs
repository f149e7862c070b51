#!/usr/bin/env node
// Bundles bench.ts (TypeScript) with esbuild into .tmp/ and runs it: `node bench/engine/run.mjs`.
// Extra node flags (e.g. --cpu-prof) can be passed after the script name.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const outfile = path.join(root, '.tmp', 'bench', 'engine.mjs');
await build({
  entryPoints: [path.join(here, 'bench.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const res = spawnSync(process.execPath, [...process.argv.slice(2), outfile], {
  stdio: 'inherit',
  env: { ...process.env, BENCH_TARGET: path.join(here, 'target.mjs') },
});
process.exit(res.status ?? 1);
