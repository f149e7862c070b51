// `npm start` (after `npm run build`): rebuilds the native modules for Electron's ABI, then launches
// the desktop app. Where the Electron binary is missing it says so and how to get it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let electronPath;
try {
  electronPath = require('electron');
} catch {
  console.error(
    'The Electron binary is not installed (it downloads from GitHub during `npm install`).\n' +
      'Reinstall it with `rm -rf node_modules/electron && npm install electron` on a machine that can reach GitHub,\n' +
      'or run the team server instead: `npm run serve`.',
  );
  process.exit(1);
}

const rebuild = spawnSync('npx', ['electron-rebuild', '--only', 'better-sqlite3', '--force'], { stdio: 'inherit' });
if (rebuild.status !== 0) {
  console.error('Rebuilding better-sqlite3 for Electron failed; see the output above.');
  process.exit(rebuild.status ?? 1);
}
console.log('Native modules rebuilt for Electron. Run `npm rebuild better-sqlite3` before using the server, CLI or tests again.');
const app = spawnSync(electronPath, ['.'], { stdio: 'inherit' });
process.exit(app.status ?? 0);
