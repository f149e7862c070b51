#!/usr/bin/env node
// The installed `portcullis` command: runs the bundled CLI (build it with `npm run build:core`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/core/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('Portcullis is not built yet: run `npm run build:core` (or `npm run serve`).\n');
  process.exit(2);
}
await import(cli);
