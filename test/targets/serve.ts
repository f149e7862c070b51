// Runs the Acme Shop test target standalone, for manual use, browser and end-to-end tests:
//   node test/targets/build.mjs && node dist/targets/serve.js [--vulnerable | --hardened]
//     [--only id,id] [--enable id,id] [--disable id,id] [--port N] [--tls] [--allow-fetch <origin>]
//     [--token-ttl seconds] [--session-ttl seconds] [--login-csrf] [--list-flaws]
// It prints TARGET_URL=<origin>, TARGET_BASE_URL=<origin>/api/v2, TARGET_SPEC=<file with the
// OpenAPI YAML>, TARGET_USERS=<JSON of alice, bob and admin with their keys>, TARGET_OAUTH=<JSON
// of the token URL and clients>, then TARGET_READY, and runs until SIGINT or SIGTERM.

import { announceUntilSignal, parseTargetArgs } from './cli';
import { FLAW_IDS, FLAWS, type FlawId } from './flaws';
import { startTarget, type TargetOptions } from './target';

const options: TargetOptions = { mode: 'vulnerable', flaws: {}, fetchAllowlist: [] };
parseTargetArgs<FlawId, TargetOptions>(
  {
    name: 'serve',
    flawIds: FLAW_IDS,
    describeFlaw: (id) => `${id}\t${FLAWS[id].owasp}\t${FLAWS[id].technique}`,
    extraFlag: (flag, next, fail) => {
      switch (flag) {
        case '--tls':
          options.tls = true;
          return true;
        case '--token-ttl':
        case '--session-ttl': {
          const n = Number(next());
          if (!Number.isInteger(n) || n < 1) fail(`${flag} needs a number of seconds`);
          if (flag === '--token-ttl') options.tokenTtlSeconds = n;
          else options.sessionTtlSeconds = n;
          return true;
        }
        case '--login-csrf':
          options.loginCsrf = true;
          return true;
        default:
          return false;
      }
    },
  },
  process.argv.slice(2),
  options,
);

const target = await startTarget(options);
const users = Object.fromEntries((['alice', 'bob', 'admin'] as const).map((n) => [n, target.users[n]]));
announceUntilSignal(target, { dirPrefix: 'acme-target-spec-', name: 'openapi.yaml', text: target.specText }, (specFile) => [
  `TARGET_URL=${target.url}`,
  `TARGET_BASE_URL=${target.baseUrl}`,
  `TARGET_MODE=${target.mode} (${target.flaws.size} flaws on)`,
  `TARGET_SPEC=${specFile}`,
  `TARGET_USERS=${JSON.stringify(users)}`,
  `TARGET_OAUTH=${JSON.stringify(target.oauth)}`,
  'TARGET_READY',
]);
