// GraphQL operations (issue 20): each root field of a GraphQL schema is an endpoint of its own, all on
// one method and path (POST /graphql), told apart by this column: the operation's kind, field, document
// and argument types as JSON (shared/contract.ts GraphqlOperation). Null for REST endpoints. A finding
// about a GraphQL API keeps the operation, query and variables that reproduce it (FindingGraphql).

import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('endpoints').addColumn('graphql', 'text').execute();
  await db.schema.alterTable('findings').addColumn('graphql', 'text').execute();
}
