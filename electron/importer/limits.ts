// Bounds that keep an import's time, memory and stored size in check whatever the file holds.
// Every walker of the importer is depth- or budget-limited by these; none recurses unbounded.

export const IMPORT_LIMITS = {
  /** Deepest nesting a document may have (real specs stay under 40); deeper is refused with its pointer. */
  maxDocumentDepth: 256,
  /** Values a YAML document may have once its aliases are expanded (alias bombs). */
  maxExpandedNodes: 2_000_000,
  /** ...or this many times its distinct values, whichever is larger. */
  maxExpansionRatio: 8,
  /**
   * Marks that open or separate values in JSON ({ [ and , strings included: an upper bound), counted
   * before parsing (count-values.ts): JSON.parse allocates at most one value per mark. Real descriptions
   * have one per 40-50 bytes (about 600,000 in 25 MB); 25 MB of "{}," has 17 million.
   */
  maxJsonValueMarks: 2_500_000,
  /** The same in YAML, where - : and line ends count too (strings included): one per 10-20 bytes in real files. */
  maxYamlValueMarks: 5_000_000,
  /** `$ref` -> `$ref` chains longer than this are cut. */
  maxRefChain: 32,
  /** Nesting of a stored schema; deeper parts become `{ "x-truncated": "depth" }`. */
  maxSchemaDepth: 40,
  /** Values stored per endpoint for its parameters and request body (schemas and examples). */
  requestNodeBudget: 3_000,
  /** ...and for all its response schemas together. */
  responseNodeBudget: 1_000,
  /** Response schemas inline references this many levels deep; deeper ones stay named by `x-ref`. */
  responseRefDepth: 1,
  /** Strings inside stored schemas and examples are cut to this many characters. */
  maxStoredString: 1_000,
  maxEndpoints: 10_000,
  maxWarnings: 200,
  maxNameLength: 200,
  maxSummaryLength: 300,
  maxPathLength: 2_048,
  maxBaseUrlLength: 2_048,
  /** A security scheme's token or OpenID Connect URL; longer ones are dropped (a cut URL would be wrong). */
  maxSchemeUrlLength: 2_048,
  maxOperationIdLength: 200,
  maxTags: 20,
  maxTagLength: 100,
  maxParameters: 200,
  maxParameterNameLength: 200,
  maxResponses: 50,
  /**
   * GraphQL SDL tokens (names, punctuation, strings; comments are not tokens). graphql-js holds every
   * token and node in memory: about 370 bytes a token, so 185 MB at this limit. Counted before parsing.
   */
  maxGraphqlTokens: 500_000,
  /** Type, directive and schema definitions and extensions (SDL), or types (introspection). */
  maxGraphqlDefinitions: 20_000,
  /** `extend ...` definitions: graphql-js merges a type's extensions in time quadratic in their number. */
  maxGraphqlExtensions: 2_000,
  /** Fields, arguments, input fields, enum values, union members and interfaces of all types together. */
  maxGraphqlMembers: 200_000,
} as const;
