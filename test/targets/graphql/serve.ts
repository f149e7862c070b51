// Runs the City Library GraphQL test target standalone, for manual use, browser and end-to-end tests:
//   node test/targets/build.mjs && node dist/targets/serve-graphql.js [--vulnerable | --hardened]
//     [--only id,id] [--enable id,id] [--disable id,id] [--port N] [--allow-fetch <origin>] [--list-flaws]
// It prints GRAPHQL_URL=<origin>, GRAPHQL_ENDPOINT=<origin>/graphql, GRAPHQL_MODE=..., GRAPHQL_SDL=<file
// with the SDL>, GRAPHQL_USERS=<JSON of alice, bob and admin with their keys>, then GRAPHQL_READY, and
// runs until SIGINT or SIGTERM.

import { announceUntilSignal, parseTargetArgs } from '../cli';
import { GRAPHQL_FLAW_IDS, GRAPHQL_FLAWS, type GraphqlFlawId } from './flaws';
import { startGraphqlTarget, type GraphqlTargetOptions } from './target';

const options = parseTargetArgs<GraphqlFlawId, GraphqlTargetOptions>(
  { name: 'serve-graphql', flawIds: GRAPHQL_FLAW_IDS, describeFlaw: (id) => `${id}\t${GRAPHQL_FLAWS[id].owasp}` },
  process.argv.slice(2),
  { mode: 'vulnerable', flaws: {}, fetchAllowlist: [] },
);

const target = await startGraphqlTarget(options);
announceUntilSignal(target, { dirPrefix: 'library-graphql-sdl-', name: 'schema.graphql', text: target.sdl }, (sdlFile) => [
  `GRAPHQL_URL=${target.url}`,
  `GRAPHQL_ENDPOINT=${target.endpoint}`,
  `GRAPHQL_MODE=${target.mode} (${target.flaws.size} flaws on)`,
  `GRAPHQL_SDL=${sdlFile}`,
  `GRAPHQL_USERS=${JSON.stringify(target.users)}`,
  'GRAPHQL_READY',
]);
