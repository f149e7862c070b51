// Runs the City Library GraphQL test target standalone, for manual use, browser and end-to-end tests:
//   node test/targets/build.mjs && node dist/targets/serve-graphql.js [--vulnerable | --hardened]
//     [--only id,id] [--enable id,id] [--disable id,id] [--port N] [--allow-fetch <origin>] [--list-flaws]
// It prints GRAPHQL_URL=<origin>, GRAPHQL_ENDPOINT=<origin>/graphql, GRAPHQL_MODE=..., GRAPHQL_SDL=<file
// with the SDL>, GRAPHQL_USERS=<JSON of alice, bob and admin with their keys>, then GRAPHQL_READY, and
// runs until SIGINT or SIGTERM.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GRAPHQL_FLAW_IDS, GRAPHQL_FLAWS, type GraphqlFlawId } from './flaws';
import { startGraphqlTarget, type GraphqlTargetOptions } from './target';

function fail(message: string): never {
  process.stderr.write(`serve-graphql: ${message}\n`);
  process.exit(2);
}

function ids(list: string | undefined): GraphqlFlawId[] {
  if (!list) fail('a comma-separated list of flaw ids is required');
  return list.split(',').map((id) => {
    if (!(GRAPHQL_FLAW_IDS as string[]).includes(id)) fail(`unknown flaw id "${id}" (see --list-flaws)`);
    return id as GraphqlFlawId;
  });
}

const args = process.argv.slice(2);
const options: GraphqlTargetOptions = { mode: 'vulnerable', flaws: {}, fetchAllowlist: [] };
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
    case '--allow-fetch':
      options.fetchAllowlist!.push(args[++i] ?? fail('--allow-fetch needs an origin'));
      break;
    case '--list-flaws':
      for (const id of GRAPHQL_FLAW_IDS) process.stdout.write(`${id}\t${GRAPHQL_FLAWS[id].owasp}\n`);
      process.exit(0);
      break;
    default:
      fail(`unknown option ${a}`);
  }
}

const target = await startGraphqlTarget(options);
const sdlDir = fs.mkdtempSync(path.join(os.tmpdir(), 'library-graphql-sdl-'));
const sdlFile = path.join(sdlDir, 'schema.graphql');
fs.writeFileSync(sdlFile, target.sdl);
process.stdout.write(
  [
    `GRAPHQL_URL=${target.url}`,
    `GRAPHQL_ENDPOINT=${target.endpoint}`,
    `GRAPHQL_MODE=${target.mode} (${target.flaws.size} flaws on)`,
    `GRAPHQL_SDL=${sdlFile}`,
    `GRAPHQL_USERS=${JSON.stringify(target.users)}`,
    'GRAPHQL_READY',
    '',
  ].join('\n'),
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void target.close().finally(() => {
    fs.rmSync(sdlDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
