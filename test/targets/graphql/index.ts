// The City Library GraphQL test target: a deliberately vulnerable GraphQL API (graphql-js) with one
// switchable flaw per GraphQL check, and its hardened twin. See docs/test-targets.md, "GraphQL target".

export { GRAPHQL_FLAW_CHECKS, GRAPHQL_FLAW_IDS, GRAPHQL_FLAWS, type GraphqlFlawId, type GraphqlFlawInfo, type GraphqlTargetMode, resolveGraphqlFlaws } from './flaws';
export { type GraphqlTarget, type GraphqlTargetOptions, type GraphqlTargetUser, startGraphqlTarget } from './target';
export type { ResetMessage } from './resolvers';
export { MAX_ALIASES, MAX_BATCH, MAX_DEPTH } from './rules';
