// Runs the Acme Shop test target standalone, for manual use, browser and end-to-end tests:
//   node test/targets/build.mjs && node dist/targets/serve.js [--vulnerable | --hardened]
//     [--only id,id] [--enable id,id] [--disable id,id] [--port N] [--tls] [--allow-fetch <origin>]
//     [--token-ttl seconds] [--session-ttl seconds] [--login-csrf] [--list-flaws]
// It prints TARGET_URL=<origin>, TARGET_BASE_URL=<origin>/api/v2, TARGET_SPEC=<file with the
// OpenAPI YAML>, TARGET_USERS=<JSON of alice, bob and admin with their keys>, TARGET_OAUTH=<JSON
// of the token URL and clients>, then TARGET_READY, and runs until SIGINT or SIGTERM.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FLAW_IDS, FLAWS, type FlawId } from './flaws';
import { startTarget, type TargetOptions } from './target';

function fail(message: string): never {
  process.stderr.write(`serve: ${message}\n`);
  process.exit(2);
}

function ids(list: string | undefined): FlawId[] {
  if (!list) fail('a comma-separated list of flaw ids is required');
  return list.split(',').map((id) => {
    if (!(FLAW_IDS as string[]).includes(id)) fail(`unknown flaw id "${id}" (see --list-flaws)`);
    return id as FlawId;
  });
}

const args = process.argv.slice(2);
const options: TargetOptions = { mode: 'vulnerable', flaws: {}, fetchAllowlist: [] };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  switch (a) {
    case '--vulnerable':
      options.mode = 'vulnerable';
      break;
    case '--hardened':
      options.mode = 'hardened';
      break;
    case '--only':
      options.mode = 'hardened';
      for (const id of ids(args[++i])) options.flaws![id] = true;
      break;
    case '--enable':
      for (const id of ids(args[++i])) options.flaws![id] = true;
      break;
    case '--disable':
      for (const id of ids(args[++i])) options.flaws![id] = false;
      break;
    case '--port':
      options.port = Number(args[++i]);
      if (!Number.isInteger(options.port)) fail('--port needs a number');
      break;
    case '--tls':
      options.tls = true;
      break;
    case '--token-ttl':
    case '--session-ttl': {
      const n = Number(args[++i]);
      if (!Number.isInteger(n) || n < 1) fail(`${a} needs a number of seconds`);
      if (a === '--token-ttl') options.tokenTtlSeconds = n;
      else options.sessionTtlSeconds = n;
      break;
    }
    case '--login-csrf':
      options.loginCsrf = true;
      break;
    case '--allow-fetch':
      options.fetchAllowlist!.push(args[++i] ?? fail('--allow-fetch needs an origin'));
      break;
    case '--list-flaws':
      for (const id of FLAW_IDS) process.stdout.write(`${id}\t${FLAWS[id].owasp}\t${FLAWS[id].technique}\n`);
      process.exit(0);
      break;
    default:
      fail(`unknown option ${a}`);
  }
}

const target = await startTarget(options);
const specDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acme-target-spec-'));
const specFile = path.join(specDir, 'openapi.yaml');
fs.writeFileSync(specFile, target.specText);
const users = Object.fromEntries((['alice', 'bob', 'admin'] as const).map((n) => [n, target.users[n]]));
process.stdout.write(
  [
    `TARGET_URL=${target.url}`,
    `TARGET_BASE_URL=${target.baseUrl}`,
    `TARGET_MODE=${target.mode} (${target.flaws.size} flaws on)`,
    `TARGET_SPEC=${specFile}`,
    `TARGET_USERS=${JSON.stringify(users)}`,
    `TARGET_OAUTH=${JSON.stringify(target.oauth)}`,
    'TARGET_READY',
    '',
  ].join('\n'),
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void target.close().finally(() => {
    fs.rmSync(specDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
