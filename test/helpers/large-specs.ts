// Large but legal API descriptions, generated (never committed): each within every import limit, and
// each seconds of work to read (issue 30, item 3). Used over HTTP (test/api/hostile-inputs.test.ts) and
// by the import runner's own tests.

import { IMPORT_MAX_BYTES } from '../../shared/constants';

/** `types` object types of `fieldsPer` scalar fields, each reachable from a Query field with an argument. */
export function graphqlFieldsAcrossTypes(types: number, fieldsPer: number): string {
  const parts: string[] = [];
  const query: string[] = [];
  for (let t = 0; t < types; t += 1) {
    const fields: string[] = [];
    for (let i = 0; i < fieldsPer; i += 1) fields.push(`f${i}: ${i % 3 === 0 ? 'String' : 'Int'}`);
    parts.push(`type T${t} {\n${fields.join('\n')}\n}`);
    query.push(`t${t}(id: ID): T${t}`);
  }
  return `type Query {\n${query.join('\n')}\n}\n${parts.join('\n')}`;
}

/** `types` named types in all (Query included): small object types that link to each other, every fourth one a query. */
export function graphqlManyTypes(types: number): string {
  const parts: string[] = [];
  const query: string[] = [];
  for (let i = 1; i < types; i += 1) {
    parts.push(`type T${i} { a: Int b: String c: T${(i % (types - 1)) + 1} d: Boolean }`);
    if (i % 4 === 0) query.push(`t${i}(id: ID): T${i}`);
  }
  return `type Query {\n${query.join('\n')}\n}\n${parts.join('\n')}`;
}

/** An OpenAPI 3.0 JSON document of about `bytes` (default: just under the upload limit): many paths, two operations each. */
export function largeOpenApi(bytes: number = IMPORT_MAX_BYTES - 64 * 1024): string {
  const paths: Record<string, unknown> = {};
  const prose = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16);
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const operation = (verb: string) => ({
      summary: `${verb} thing ${i}`,
      description: prose,
      operationId: `${verb}Thing${i}`,
      tags: [`group${i % 50}`],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'q', in: 'query', schema: { type: 'string', maxLength: 50 } },
      ],
      requestBody: {
        content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } } },
      },
      responses: { 200: { description: prose, content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } } },
    });
    const item = { get: operation('get'), put: operation('put') };
    const key = `/things${i}/{id}`;
    paths[key] = item;
    size += JSON.stringify(item).length + key.length + 4;
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Large API', version: '1' }, servers: [{ url: 'https://api.example.com' }], paths });
}
