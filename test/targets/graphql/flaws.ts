// The switchable flaws of the GraphQL test target ("City Library" lending API). Each id turns on
// exactly one weakness; the schema, the seed data and every other behaviour stay the same.

export type GraphqlTargetMode = 'vulnerable' | 'hardened';

export interface GraphqlFlawInfo {
  /** OWASP API Security Top 10 (2023) category. */
  owasp: 'API1' | 'API2' | 'API3' | 'API4' | 'API5' | 'API7' | 'API8';
  /** What is wrong and how to trigger it. */
  description: string;
  /** What the hardened twin does instead. */
  hardened: string;
}

export const GRAPHQL_FLAWS = {
  introspection: {
    owasp: 'API8',
    description: 'Introspection (__schema, __type) answers in production: the whole schema, private fields and admin mutations included.',
    hardened: 'NoSchemaIntrospectionCustomRule: __schema and __type fail validation (400); __typename still works.',
  },
  'field-suggestions': {
    owasp: 'API8',
    description: 'Validation errors keep graphql-js\'s "Did you mean ...?" hints, which leak field, argument, type and enum names even with introspection off (query { membrs } suggests "members").',
    hardened: 'The hints are cut from every error message.',
  },
  'depth-limit': {
    owasp: 'API4',
    description: 'No maximum query depth: the cycles Book.author -> Author.books and Member.loans -> Loan.member nest without bound, each level running real SQLite queries (a depth-12 query runs over a thousand).',
    hardened: 'A validation rule refuses a document deeper than 8 (introspection fields excepted) with a 400 before anything executes.',
  },
  'batching-limit': {
    owasp: 'API4',
    description: 'No limit on aliases of one field in a selection set nor on the operations of an array batch: one request runs hundreds of resolvers.',
    hardened: 'At most 10 aliases of the same field per selection set (400 otherwise) and at most 5 operations per array batch (400 "Batch too large").',
  },
  'batch-rate-limit': {
    owasp: 'API4',
    description: 'Mutation.login and Mutation.verifyResetCode are limited to 10 attempts per minute per client, but the limiter counts HTTP requests: aliases or an array batch put any number of attempts (a 4-digit code brute force) in one request.',
    hardened: 'Every attempt (each alias, each batch entry) counts: the 11th attempt in a minute fails with "Too many attempts" (extensions.code RATE_LIMITED).',
  },
  bola: {
    owasp: 'API1',
    description: 'Query.loan(id) and Query.member(id) return any member\'s loan (with its private notes) or profile (e-mail, address, loans) to any signed-in member: no ownership check.',
    hardened: 'null and an error "Not found" (extensions.code NOT_FOUND) for an object the caller does not own (admins excepted).',
  },
  bfla: {
    owasp: 'API5',
    description: 'The admin mutations deleteMember, setMemberRole and updateLibrarySettings only check that the caller is signed in: any member deletes members, makes themselves admin or changes the settings.',
    hardened: 'They require role ADMIN: an error "Forbidden" (extensions.code FORBIDDEN) for a member, nothing changes.',
  },
  'sql-injection': {
    owasp: 'API8',
    description: 'Query.searchBooks(title) concatenates the title into SQL run by SQLite: quotes break it (the SQLite message is returned in errors[].message), OR and UNION change the rows (password hashes via UNION), sleep(n) delays.',
    hardened: 'A bound parameter; any title is just text.',
  },
  'nosql-injection': {
    owasp: 'API8',
    description: 'Query.findMembers(filter: JSON) evaluates the filter as a MongoDB-style query on the member directory: operator objects ($ne, $gt, $regex, $in, $exists...) and private fields (email, role) are honoured, so {"username": {"$ne": null}} lists every member and {"email": {"$regex": "^a"}} is an oracle on private data.',
    hardened: 'Only the fields username and displayName with plain string values; anything else fails with "Invalid filter" (BAD_USER_INPUT).',
  },
  'command-injection': {
    owasp: 'API8',
    description: 'Mutation.checkMirror(host) runs "getent -s files hosts <host>" through /bin/sh with the host concatenated: ";id", "$(sleep 1)", "|", backticks run commands, whose output comes back in the result.',
    hardened: 'The host must be a host name or IP address and the command runs with execFile (no shell).',
  },
  ssrf: {
    owasp: 'API7',
    description: 'Mutation.importBookCover(bookId, url) and Mutation.suggestPurchase(title, link) fetch any http(s) URL server-side (loopback and private addresses included) and return its status and content type (and size for covers).',
    hardened: 'Only origins of the fetchAllowlist option are fetched (redirects held to it too); anything else fails with "URL not allowed".',
  },
  'debug-errors': {
    owasp: 'API8',
    description: 'Every error carries extensions.exception with the real stack trace (stacktrace lines) and the exception name; unexpected errors (a CHECK or FOREIGN KEY constraint of SQLite, say addReview(rating: 9)) keep their internal message.',
    hardened: 'No stack, no exception: unexpected errors become "Internal server error" (extensions.code INTERNAL_SERVER_ERROR).',
  },
  'get-mutation': {
    owasp: 'API8',
    description: 'Mutations execute over GET (?query=mutation...) and POST bodies are parsed as JSON whatever their Content-Type (text/plain, form posts): cross-site request forgery.',
    hardened: 'A mutation over GET is answered 405 (Allow: POST); a POST must be application/json (415 otherwise), as GraphQL over HTTP asks.',
  },
  'unauthenticated-fields': {
    owasp: 'API2',
    description: 'Query.members and Query.loans (lists with e-mails, addresses and private loan notes) answer without credentials, with every member and every loan.',
    hardened: 'Without a valid token: null for the field and an error "Unauthorized" (extensions.code UNAUTHENTICATED). With one: a member sees their own row and loans, an admin everything.',
  },
  graphiql: {
    owasp: 'API8',
    description: 'The GraphiQL IDE is served in production: GET /graphiql, and GET /graphql asked for HTML without a query, answer its page.',
    hardened: '/graphiql is a 404; /graphql answers GraphQL only (a GET without a query is a 400).',
  },
  'token-limit': {
    owasp: 'API4',
    description: 'Documents of any size are parsed and run, and the field-merge validation (which aborts on thousands of repeated fields in recent graphql-js) is left out: a selection repeating __typename thousands of times is answered in full.',
    hardened: 'Parsing stops at 1,500 tokens (graphql-js maxTokens): a 400 syntax error before anything runs.',
  },
  'fragment-cycles': {
    owasp: 'API4',
    description: 'A field-count rule expands fragment spreads without remembering the ones it is in, and graphql-js\'s NoFragmentCyclesRule is left out: two fragments that spread each other recurse until the stack overflows (HTTP 500).',
    hardened: 'NoFragmentCyclesRule: a 400 "Cannot spread fragment ... within itself" before anything runs.',
  },
  'share-token-unverified': {
    owasp: 'API2',
    description: 'Query.sharedCard(token) reads the member id of the share token (an HS256 JWT from Query.shareToken) without checking its signature: an unsigned or re-signed token opens any member\'s card.',
    hardened: 'The signature is checked (HS256 with the library\'s secret): anything else is an error "Invalid share token" (UNAUTHENTICATED).',
  },
  'badge-token-unverified': {
    owasp: 'API2',
    description: 'Query.badge(token) reads the username claim of the badge token (an HS256 JWT from Query.badgeToken) without checking its signature: an unsigned or re-signed token naming any member opens their card.',
    hardened: 'The signature is checked (HS256 with the library\'s secret): anything else is an error "Invalid badge token" (UNAUTHENTICATED).',
  },
  'ssrf-split-url': {
    owasp: 'API7',
    description: 'Mutation.importCatalogue(scheme, host, port, path) joins the URL from its parts by string and fetches it server-side, loopback and private addresses included.',
    hardened: 'Only origins of the fetchAllowlist option are fetched; anything else fails with "URL not allowed".',
  },
  'default-password': {
    owasp: 'API2',
    description: 'An administrator account "administrator" keeps the password it was installed with ("admin123"): Mutation.login signs it in.',
    hardened: 'No such account.',
  },
  'stored-markup': {
    owasp: 'API8',
    description: 'Mutation.postNotice(title, body) stores markup as sent and Query.notices returns it verbatim: a client that puts notices into a page runs whatever script they carry (stored XSS, HTML injection).',
    hardened: 'Markup characters are HTML-encoded on the way in (&#60;h1&#62;).',
  },
  'resolver-error-traces': {
    owasp: 'API8',
    description: 'Errors raised inside a resolver (not those of parsing, validation or variable coercion) carry extensions.exception with the stack of the raising code, as Python servers in debug mode add it: Query.loan(id: "x\'") or Query.sharedCard(token: "") answer their "Not found" or "Invalid share token" with the stack.',
    hardened: 'Resolver errors carry their message and code only.',
  },
  'guarded-command-injection': {
    owasp: 'API8',
    description: 'Query.mirrorReport(username, password, host), for administrators who pass their own username and password as arguments, runs "getent -s files hosts <host>" through /bin/sh with the host concatenated: with an administrator\'s password (the default-password flaw\'s, say), ";sleep 1;" in host runs. Without one it answers "Invalid credentials."',
    hardened: 'The host must be a host name or IP address and the command runs with execFile (no shell).',
  },
} as const satisfies Record<string, GraphqlFlawInfo>;

export type GraphqlFlawId = keyof typeof GRAPHQL_FLAWS;
export const GRAPHQL_FLAW_IDS = Object.keys(GRAPHQL_FLAWS) as GraphqlFlawId[];

/** The active flaws: every one in vulnerable mode, none in hardened mode, then the overrides. */
export function resolveGraphqlFlaws(mode: GraphqlTargetMode, overrides: Partial<Record<GraphqlFlawId, boolean>> = {}): Set<GraphqlFlawId> {
  const on = new Set<GraphqlFlawId>(mode === 'vulnerable' ? GRAPHQL_FLAW_IDS : []);
  for (const [id, value] of Object.entries(overrides) as [GraphqlFlawId, boolean | undefined][]) {
    if (!(id in GRAPHQL_FLAWS)) throw new Error(`unknown GraphQL flaw id "${id}"`);
    if (value === true) on.add(id);
    else if (value === false) on.delete(id);
  }
  return on;
}

/** The scanner checks that find each flaw (for whole-scan tests and the scan benchmark). */
export const GRAPHQL_FLAW_CHECKS: Record<GraphqlFlawId, readonly string[]> = {
  introspection: ['api9-graphql-introspection'],
  'field-suggestions': ['api8-graphql-field-suggestions'],
  'depth-limit': ['api4-graphql-depth'],
  'batching-limit': ['api4-graphql-batching'],
  'batch-rate-limit': ['api2-graphql-batch-brute-force'],
  bola: ['api1-graphql-bola'],
  bfla: ['api5-graphql-bfla'],
  'sql-injection': ['api8-graphql-sql-injection'],
  'nosql-injection': ['api8-graphql-nosql-injection'],
  'command-injection': ['api8-graphql-command-injection'],
  ssrf: ['api7-graphql-ssrf'],
  'debug-errors': ['api8-graphql-debug-errors'],
  'get-mutation': ['api8-graphql-get-mutation'],
  'unauthenticated-fields': ['api2-graphql-unauthenticated'],
  graphiql: ['api8-graphql-ide-exposed'],
  'token-limit': ['api4-graphql-document-abuse'],
  'fragment-cycles': ['api4-graphql-document-abuse'],
  'share-token-unverified': ['api2-jwt-argument'],
  'badge-token-unverified': ['api2-jwt-argument'],
  'ssrf-split-url': ['api7-graphql-ssrf'],
  'default-password': ['api2-graphql-weak-credentials'],
  'stored-markup': ['api8-graphql-stored-markup'],
  'resolver-error-traces': ['api8-graphql-debug-errors'],
  'guarded-command-injection': ['api8-graphql-command-injection-proven-password'],
};
