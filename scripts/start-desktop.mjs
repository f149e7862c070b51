// `npm start` (after `npm run build`): builds better-sqlite3 for Electron's ABI (verified), then
// launches the desktop app. `npm install` leaves the Electron binary out (package.json allowScripts:
// electron's download script does not run, so an install works where GitHub cannot be reached); the
// first `npm start` downloads it, and where that fails it says so and what to do instead.
// `npm test` switches the addon back to Node's ABI by itself; for the server or the CLI run
// `node scripts/native-modules.mjs node`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildFor } from './native-modules.mjs';

const require = createRequire(import.meta.url);

/** The Electron binary's path, or null while it is not downloaded (electron's index.js throws then). */
function electronBinary() {
  try {
    return require('electron');
  } catch {
    return null;
  }
}

let electronPath = electronBinary();
if (!electronPath) {
  console.log('Downloading the Electron binary from GitHub (once)...');
  const installer = path.join(path.dirname(require.resolve('electron/package.json')), 'install.js');
  spawnSync(process.execPath, [installer], { stdio: 'inherit' });
  electronPath = electronBinary();
}
if (!electronPath) {
  console.error(
    'The Electron binary is not installed and could not be downloaded from GitHub (see above).\n' +
      'Run `npm start` again on a machine that can reach GitHub, or run the team server instead: `npm run serve`.',
  );
  process.exit(1);
}

try {
  buildFor('electron');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
console.log('better-sqlite3 is built for Electron now: `npm test` switches it back; for `npm run serve` or the CLI run `node scripts/native-modules.mjs node`.');
const app = spawnSync(electronPath, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(app.status ?? 0);
