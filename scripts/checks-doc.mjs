// Writes docs/checks.md from the check registry (electron/scanner/checks/docs.ts renders it), and
// shared/check-titles.ts: the checks' titles for the renderer, which cannot import the registry.
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
  writeTitles(CHECKS);
} finally {
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}

/** shared/check-titles.ts: id -> title, in registry order. */
function writeTitles(checks) {
  const file = path.join(root, 'shared/check-titles.ts');
  const lines = checks.map((c) => `  ${quote(c.id)}: ${quote(c.title)},`);
  const text = [
    '// The title of every check by its id, for the screens that name checks (the coverage tab), which cannot',
    '// import the registry. Generated from electron/scanner/checks by `npm run docs:checks`; a test fails when',
    '// it is stale (test/scanner/check-titles.test.ts).',
    '',
    'export const CHECK_TITLES: Readonly<Record<string, string>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.writeFileSync(file, text);
  console.log(before === text ? 'shared/check-titles.ts is up to date.' : 'shared/check-titles.ts written.');
}

/** A string literal as the project writes them: single quotes, double when the text holds a single one. */
function quote(text) {
  const json = JSON.stringify(text);
  if (text.includes("'") && !text.includes('"')) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}
