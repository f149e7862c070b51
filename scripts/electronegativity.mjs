// Static security check of the desktop shell with @doyensec/electronegativity: the Electron entry,
// the preload and electron/desktop/ (plus the bridge they register) are copied to a temp folder (the
// tool reads .ts but not .cts) and scanned for Electron 41. Prints the findings; exits 1 on any
// HIGH or MEDIUM one. Inline suppressions (`eng-disable`) are listed and explained in docs/desktop.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).version;

/** The shell's sources, or the folder given as the first argument (the negative control in the tests). */
function stage(input) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-eng-'));
  if (input) {
    fs.cpSync(input, dir, { recursive: true });
  } else {
    const copy = (from, to) => {
      fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
      fs.copyFileSync(path.join(root, from), path.join(dir, to));
    };
    copy('electron/main.ts', 'main.ts');
    copy('electron/preload.cts', 'preload.ts');
    copy('electron/ipc-bridge.ts', 'ipc-bridge.ts');
    for (const f of fs.readdirSync(path.join(root, 'electron/desktop'))) {
      if (f.endsWith('.ts') && !f.endsWith('.test.ts')) copy(`electron/desktop/${f}`, `desktop/${f}`);
    }
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'portcullis-shell', devDependencies: { electron: ELECTRON } }));
  return dir;
}

/**
 * Runs the scanner's own runner in a child process and reads its issues as JSON. (Its CSV writer
 * truncates and appends the file with two unawaited writes, which race under load.)
 */
const CHILD = `
const { createRequire } = require('node:module');
const req = createRequire(process.argv[1]);
const run = req('@doyensec/electronegativity');
(run.default ?? run)({
  input: process.argv[2], output: undefined, isSarif: false, customScan: [], excludeFromScan: [],
  severitySet: undefined, confidenceSet: undefined, isRelative: true, isVerbose: false,
  electronUpgrade: undefined, electronVersionOverride: process.argv[3], parserPlugins: [],
}, false).then((result) => {
  const issues = result.issues.map((i) => ({
    check: i.id, severity: i.severity.name, confidence: i.confidence.name,
    file: i.file, line: i.location.line, message: i.description,
  }));
  process.stdout.write('\\n@@ISSUES@@' + JSON.stringify({ issues, errors: result.errors.length }) + '\\n');
}, (err) => { console.error(err && err.stack || err); process.exit(1); });
`;

export function scan(input) {
  const dir = stage(input);
  try {
    const res = spawnSync(process.execPath, ['-e', CHILD, path.join(root, 'package.json'), dir, ELECTRON], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const line = res.stdout.split('\n').find((l) => l.startsWith('@@ISSUES@@'));
    if (res.status !== 0 || !line) throw new Error(`electronegativity failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
    const { issues, errors } = JSON.parse(line.slice('@@ISSUES@@'.length));
    if (errors) throw new Error(`electronegativity could not parse ${errors} file(s) of ${dir}.`);
    return issues;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const findings = scan(process.argv[2]);
  for (const f of findings) console.log(`${f.severity.padEnd(13)} ${f.confidence.padEnd(9)} ${f.check.padEnd(28)} ${f.file}:${f.line}  ${f.message}`);
  const bad = findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
  console.log(`electronegativity (Electron ${ELECTRON}): ${findings.length} finding(s), ${bad.length} high or medium.`);
  process.exit(bad.length ? 1 : 0);
}
