// Bundles a TypeScript entry into .tmp/bundles/ (inside the repo, so node_modules resolves) for tests
// that run the core in a child process: the keychain test under dbus-run-session, the crash test.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function bundle(entry: string, name: string): Promise<string> {
  const outfile = path.join(ROOT, '.tmp', 'bundles', `${name}-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  await build({
    entryPoints: [path.resolve(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

export { ROOT };
