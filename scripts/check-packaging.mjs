// Checks the packaging configuration without the Electron binary (TOOLCHAIN.md): electron-builder
// packs --dir for Linux against a stub Electron distribution, then the result is inspected — the asar
// holds the built app and no sources or source maps, the native addons are unpacked next to it, every
// package the bundles import (and what those need) is inside, and the installer targets, ids and icons
// are as configured. The output does not run (the stub is not Electron). Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
const asar = require('@electron/asar');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const check = (ok, message) => {
  if (ok) console.log(`ok    ${message}`);
  else {
    console.log(`FAIL  ${message}`);
    problems.push(message);
  }
};

for (const built of ['dist/desktop/main.js', 'dist/desktop/preload.cjs', 'dist/desktop/import-worker.cjs', 'dist/renderer/index.html']) {
  if (!fs.existsSync(path.join(root, built))) {
    console.error(`${built} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}

// ---------------------------------------------------------------- the configuration itself
const config = YAML.parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'));
const targets = (t) => (Array.isArray(t) ? t.map((x) => (typeof x === 'string' ? x : x.target)) : [t]);
check(config.appId === 'dev.portcullis.app' && config.productName === 'Portcullis', 'app id dev.portcullis.app, product name Portcullis');
check(config.directories?.output === 'release', 'installers go to release/ (not dist/, the build output)');
check(JSON.stringify(targets(config.linux?.target)) === '["AppImage","deb"]', 'Linux: AppImage and deb');
check(JSON.stringify(targets(config.mac?.target)) === '["dmg"]', 'macOS: dmg');
check(JSON.stringify(targets(config.win?.target)) === '["nsis"]', 'Windows: nsis');

function pngSize(file) {
  const b = fs.readFileSync(file);
  if (b.readUInt32BE(0) !== 0x89504e47) return null;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}
for (const n of [16, 32, 48, 64, 128, 256, 512, 1024]) {
  const file = path.join(root, config.linux.icon, `${n}x${n}.png`);
  check(fs.existsSync(file) && JSON.stringify(pngSize(file)) === JSON.stringify([n, n]), `icon ${config.linux.icon}/${n}x${n}.png is a ${n}x${n} PNG`);
}
const ico = fs.readFileSync(path.join(root, config.win.icon));
check(ico.readUInt16LE(2) === 1 && ico.readUInt16LE(4) >= 5 && ico.readUInt8(6 + 16 * (ico.readUInt16LE(4) - 1)) === 0, `${config.win.icon}: an ICO up to 256 px`);
const icns = fs.readFileSync(path.join(root, config.mac.icon));
check(icns.toString('ascii', 0, 4) === 'icns' && icns.readUInt32BE(4) === icns.length && icns.includes(Buffer.from('ic10')), `${config.mac.icon}: an ICNS with the 1024 px image`);
check(fs.existsSync(path.join(root, config.mac.entitlements)), 'macOS hardened-runtime entitlements exist');

// ---------------------------------------------------------------- pack against a stub Electron
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-pack-'));
const stub = path.join(work, 'electron-stub');
const out = path.join(work, 'release');
fs.mkdirSync(stub);
fs.writeFileSync(path.join(stub, 'electron'), '#!/bin/sh\necho "stub Electron: this package is for inspection only" >&2\nexit 1\n', { mode: 0o755 });
const started = Date.now();
const res = spawnSync(
  'npx',
  ['electron-builder', '--dir', '--linux', '--x64', `-c.electronDist=${stub}`, '-c.npmRebuild=false', `-c.directories.output=${out}`],
  { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } },
);
check(res.status === 0, `electron-builder --dir --linux against the stub (${((Date.now() - started) / 1000).toFixed(1)} s)`);
if (res.status !== 0) {
  console.log(res.stdout, res.stderr);
  process.exit(1);
}

try {
  const app = path.join(out, 'linux-unpacked');
  const resources = path.join(app, 'resources');
  const archive = path.join(resources, 'app.asar');
  check(fs.existsSync(path.join(app, config.linux.executableName)), `executable named ${config.linux.executableName}`);
  check(fs.existsSync(archive), 'resources/app.asar');
  const files = new Set(asar.listPackage(archive, { isPack: false }).map((f) => f.replaceAll('\\', '/')));
  const has = (f) => files.has(f.startsWith('/') ? f : `/${f}`);

  // The app: the bundles, the renderer build, package.json pointing at the main bundle.
  for (const f of ['dist/desktop/main.js', 'dist/desktop/preload.cjs', 'dist/desktop/import-worker.cjs', 'dist/desktop/icon.png', 'dist/desktop/fonts/DejaVuSans.ttf', 'dist/renderer/index.html', 'package.json']) {
    check(has(f), `asar holds ${f}`);
  }
  for (const f of fs.readdirSync(path.join(root, 'dist/renderer/assets'))) {
    // Maps and the team server's brotli/gzip copies stay out of the desktop package.
    if (!/\.(map|br|gz)$/.test(f)) check(has(`dist/renderer/assets/${f}`), `asar holds dist/renderer/assets/${f}`);
  }
  const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'));
  check(pkg.main === 'dist/desktop/main.js' && has(pkg.main), `package.json main (${pkg.main}) is in the asar`);
  const ours = [...files].filter((f) => !f.startsWith('/node_modules/'));
  const leaked = ours.filter((f) => /\.(map|ts|br|gz)$/.test(f) || /^\/(electron|renderer|test|scripts|shared|bench|docs|release|build)\//.test(f));
  check(leaked.length === 0, `no sources, tests or source maps in the asar${leaked.length ? `: ${leaked.slice(0, 5).join(', ')}` : ''}`);

  // Native addons: inside the asar only as "unpacked" entries, the binaries next to it.
  const natives = [...files].filter((f) => f.endsWith('.node'));
  for (const addon of ['node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node']) {
    check(fs.existsSync(path.join(resources, 'app.asar.unpacked', addon)), `unpacked: ${addon}`);
  }
  check(
    natives.every((f) => fs.existsSync(path.join(resources, 'app.asar.unpacked', f))),
    `every .node file of the asar is unpacked (${natives.length})`,
  );
  check(!has('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c'), 'better-sqlite3 sources are left out');

  // Every package the bundles import at run time is in the asar, with its own dependencies.
  const bundles = fs
    .readdirSync(path.join(root, 'dist/desktop'), { recursive: true })
    // The import worker (.cjs) is loaded by path in a worker thread: whatever it requires must be there too.
    .filter((f) => f.endsWith('.js') || f === 'import-worker.cjs')
    .map((f) => fs.readFileSync(path.join(root, 'dist/desktop', f), 'utf8'));
  const imported = new Set();
  const importRe = [/(?:^|;)\s*import\s[^;'"]*?from\s*"([^"]+)"/gm, /(?:^|;)\s*import\s*"([^"]+)"/gm, /\bimport\(\s*"([^"]+)"\s*\)/g, /\brequire\(\s*"([^"]+)"\s*\)/g];
  for (const code of bundles) for (const re of importRe) for (const m of code.matchAll(re)) imported.add(m[1]);
  const builtin = new Set(require('node:module').builtinModules);
  const bare = [...imported].filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtin.has(s.split('/')[0]) && s !== 'electron');
  const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
  const seen = new Set();
  const missing = [];
  const visit = (name, from) => {
    // Node's lookup: node_modules next to the requiring package, then up to the app's.
    const candidates = [];
    for (let dir = from; ; dir = path.posix.dirname(dir)) {
      candidates.push(path.posix.join(dir, 'node_modules', name));
      if (dir === '/') break;
    }
    const found = candidates.find((c) => files.has(`${c}/package.json`));
    if (!found) return void missing.push(`${name} (needed by ${from})`);
    if (seen.has(found)) return;
    seen.add(found);
    const meta = JSON.parse(asar.extractFile(archive, `${found.slice(1)}/package.json`).toString('utf8'));
    const optional = new Set(Object.keys(meta.optionalDependencies ?? {}));
    for (const dep of Object.keys(meta.dependencies ?? {})) if (!optional.has(dep)) visit(dep, found);
  };
  for (const spec of bare) visit(packageOf(spec), '/');
  check(bare.length > 0 && missing.length === 0, `the bundles' runtime packages resolve in the asar (${[...new Set(bare.map(packageOf))].join(', ')}; ${seen.size} packages)${missing.length ? `; missing: ${missing.join(', ')}` : ''}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

console.log(problems.length ? `\n${problems.length} packaging problem(s).` : '\nPackaging configuration checked (stub Electron: the output does not run).');
process.exit(problems.length ? 1 : 0);
