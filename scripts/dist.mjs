// `npm run dist` (after `npm run build`): installers for this OS with electron-builder — AppImage and
// deb on Linux, dmg on macOS, nsis on Windows (each OS builds its own: the native addon is compiled
// per platform). better-sqlite3 is rebuilt for Electron first and checked, the builder's own rebuild
// is off (it was seen to report success while building for Node), the packaged addon's ABI is
// verified, and the addon goes back to Node's ABI at the end. Extra arguments go to electron-builder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { addonAbi, buildFor, electronAbi } from './native-modules.mjs';

let failed = false;
try {
  buildFor('electron');
  const res = spawnSync('npx', ['electron-builder', '-c.npmRebuild=false', ...process.argv.slice(2)], { stdio: 'inherit' });
  if (res.status !== 0) throw new Error('electron-builder failed; see the output above.');
  const packaged = fs
    .readdirSync('release', { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === 'better_sqlite3.node' && e.parentPath.includes('app.asar.unpacked'))
    .map((e) => path.join(e.parentPath, e.name));
  if (packaged.length === 0) throw new Error('No unpacked better_sqlite3.node in release/: check asarUnpack in electron-builder.yml.');
  for (const file of packaged) {
    const abi = addonAbi(file);
    if (abi !== electronAbi()) throw new Error(`${file} is built for ABI ${abi}, not Electron's ${electronAbi()}.`);
    console.log(`ok  ${file}: ABI ${abi} (Electron)`);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  failed = true;
} finally {
  buildFor('node');
}
process.exit(failed ? 1 : 0);
