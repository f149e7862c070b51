// The names the screens give an API's source format (ImportData.format, ApiSummary.source_format).

const FORMAT_LABELS: Record<string, string> = {
  'openapi-3.0': 'OpenAPI 3.0',
  'openapi-3.1': 'OpenAPI 3.1',
  'swagger-2.0': 'Swagger 2.0',
  'postman-2.0': 'Postman v2.0',
  'postman-2.1': 'Postman v2.1',
  'har-1.2': 'HAR 1.2',
  'graphql-sdl': 'GraphQL SDL',
  'graphql-introspection': 'GraphQL introspection',
  manual: 'Manual',
};

/** "GraphQL SDL" for "graphql-sdl"; an unknown format as it is. */
export function formatLabel(format: string): string {
  return FORMAT_LABELS[format] ?? format;
}
