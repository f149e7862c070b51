// Writes docs/checks.md from the check registry (electron/scanner/checks/docs.ts renders it).
// The registry is TypeScript: esbuild bundles a small entry into a temp file, which is then run.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// Inside the project, so the bundle's external packages (zod...) resolve from node_modules.
fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
const out = path.join(fs.mkdtempSync(path.join(root, '.tmp', 'docs-')), 'checks-doc.mjs');
await build({
  stdin: {
    contents: "export { checksDoc } from './electron/scanner/checks/docs';\nexport { CHECKS } from './electron/scanner/checks/index';\n",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: out,
  logLevel: 'warning',
});
try {
  const { checksDoc, CHECKS } = await import(pathToFileURL(out).href);
  const file = path.join(root, 'docs/checks.md');
  const text = checksDoc(CHECKS);
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.writeFileSync(file, text);
  console.log(before === text ? `docs/checks.md is up to date (${CHECKS.length} checks).` : `docs/checks.md written (${CHECKS.length} checks).`);
} finally {
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}
