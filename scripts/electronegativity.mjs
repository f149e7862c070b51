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

/** RFC 4180 rows: quoted fields may hold commas, doubled quotes and newlines (code samples do). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else if (ch !== '\r') field += ch;
  }
  if (field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

export function scan(input) {
  const dir = stage(input);
  const out = path.join(dir, 'findings.csv');
  try {
    const res = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/@doyensec/electronegativity/dist/index.js'), '-i', dir, '-r', '-v', 'false', '-e', ELECTRON, '-o', out],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (!fs.existsSync(out)) throw new Error(`electronegativity wrote no results (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
    const [, ...rows] = parseCsv(fs.readFileSync(out, 'utf8'));
    return rows
      .filter((r) => r.length >= 7)
      .map(([check, severity, confidence, file, location, , description]) => ({
        check: check.trim(),
        severity: severity.trim(),
        confidence: confidence.trim(),
        file: file.trim(),
        line: Number(location.split(':')[0]),
        message: description.trim(),
      }));
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
