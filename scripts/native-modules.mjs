// better-sqlite3 is a V8 addon: one build loads either in Node (tests, team server, CLI) or in
// Electron (desktop app), never both. This script rebuilds it for one or the other and VERIFIES the
// result by the ABI the binary was compiled for (NODE_MODULE_VERSION, which Node reports when it
// refuses a foreign build). @napi-rs/keyring is N-API: the same binary loads in both.
//
//   node scripts/native-modules.mjs electron   # before launching or packaging the desktop app
//   node scripts/native-modules.mjs node       # back for tests, the server and the CLI
//   node scripts/native-modules.mjs check      # which runtime the current build is for
//
// Rebuilding for Electron downloads Electron's headers from electronjs.org; the nodedir that .npmrc
// (and CI) set to /usr for Node builds is emptied for that build, or node-gyp would quietly build
// against Node's headers again and report success.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// node-abi 4 is ESM only: imported, not required (require() of ESM needs Node 20.19; the README says 20.18).
import { getAbi } from 'node-abi';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADDON = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
export const ELECTRON_VERSION = require('electron/package.json').version;

/** The ABI (NODE_MODULE_VERSION) the addon at `file` was built for, read by trying to load it in Node. */
export function addonAbi(file = ADDON) {
  try {
    process.dlopen({ exports: {} }, file);
    return Number(process.versions.modules);
  } catch (err) {
    const m = /compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)/.exec(String(err?.message));
    if (m) return Number(m[1]);
    throw err;
  }
}

export function electronAbi(version = ELECTRON_VERSION) {
  return Number(getAbi(version, 'electron'));
}

function rebuild(env, args = []) {
  const res = spawnSync('npm', ['rebuild', 'better-sqlite3', '--build-from-source', ...args], { cwd: root, stdio: 'inherit', env });
  if (res.status !== 0) throw new Error('Rebuilding better-sqlite3 failed; see the output above.');
}

/** Extra flags of the rebuild: for Electron an empty nodedir, which (unlike an empty environment variable) overrides .npmrc's. */
export function rebuildArgs(target) {
  return target === 'electron' ? ['--nodedir='] : [];
}

export function buildFor(target) {
  const wanted = target === 'electron' ? electronAbi() : Number(process.versions.modules);
  if (addonAbi() === wanted) {
    console.log(`better-sqlite3 is already built for ${target} (ABI ${wanted}).`);
    return;
  }
  const env = { ...process.env };
  if (target === 'electron') {
    delete env.npm_config_nodedir;
    delete env.NPM_CONFIG_NODEDIR;
    Object.assign(env, {
      npm_config_runtime: 'electron',
      npm_config_target: ELECTRON_VERSION,
      npm_config_disturl: 'https://electronjs.org/headers',
    });
  }
  rebuild(env, rebuildArgs(target));
  const got = addonAbi();
  if (got !== wanted) throw new Error(`better-sqlite3 was rebuilt for ABI ${got}, not ${target}'s ${wanted}.`);
  console.log(`better-sqlite3 rebuilt for ${target} (ABI ${got}).`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  try {
    if (target === 'electron' || target === 'node') buildFor(target);
    else if (target === 'check') {
      const abi = addonAbi();
      const runtime = abi === Number(process.versions.modules) ? 'node' : abi === electronAbi() ? `electron ${ELECTRON_VERSION}` : 'unknown';
      console.log(`better-sqlite3: ABI ${abi} (${runtime}); Node ${process.version} is ${process.versions.modules}, Electron ${ELECTRON_VERSION} is ${electronAbi()}.`);
    } else {
      console.error('Usage: node scripts/native-modules.mjs electron|node|check');
      process.exit(2);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
