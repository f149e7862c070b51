// `npm start` (after `npm run build`): builds better-sqlite3 for Electron's ABI (verified), then
// launches the desktop app. Where the Electron binary is missing it says so and how to get it.
// `npm test` switches the addon back to Node's ABI by itself; for the server or the CLI run
// `node scripts/native-modules.mjs node`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildFor } from './native-modules.mjs';

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

try {
  buildFor('electron');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
console.log('better-sqlite3 is built for Electron now: `npm test` switches it back; for `npm run serve` or the CLI run `node scripts/native-modules.mjs node`.');
const app = spawnSync(electronPath, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(app.status ?? 0);
