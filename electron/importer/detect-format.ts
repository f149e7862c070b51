// Which kind of description a parsed document is, from its content (never from the file name).

import { ImportError } from './errors';
import { arr, isObject, own, str } from './values';

export type DetectedFormat =
  | { kind: 'openapi3'; format: string; version: string; minor: number }
  | { kind: 'swagger2'; format: 'swagger-2.0'; version: string }
  | { kind: 'postman'; format: 'postman-2.0' | 'postman-2.1'; version: string }
  | { kind: 'har'; format: 'har-1.2'; version: string };

const UNRECOGNISED =
  'The file is not an API description this app can read: expected OpenAPI 3.x, Swagger 2.0, a Postman Collection v2.0/v2.1, a HAR 1.2 file, a GraphQL schema (SDL) or a GraphQL introspection result.';

const POSTMAN_SCHEMA = /schema\.(?:getpostman|postman)\.com\/json\/collection\/v(\d+)\.(\d+)(?:\.\d+)?\//i;

export function detectFormat(doc: unknown): DetectedFormat {
  if (!isObject(doc)) {
    const what = Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`;
    throw new ImportError(`The file must hold an object at its top level, not ${what}. ${UNRECOGNISED}`);
  }
  const openapi = own(doc, 'openapi');
  if (openapi !== undefined) {
    const version = typeof openapi === 'number' ? String(openapi) : str(openapi);
    const m = version ? /^3\.(\d+)(?:\.\d+)?(?:-[\w.]+)?$/.exec(version.trim()) : null;
    if (!version || !m) {
      throw new ImportError(
        `Unsupported OpenAPI version ${JSON.stringify(String(openapi)).slice(0, 40)}: this app reads OpenAPI 3.0, 3.1 and later 3.x versions.`,
        '/openapi',
      );
    }
    const minor = Number(m[1]);
    return { kind: 'openapi3', format: `openapi-3.${minor}`, version: version.trim(), minor };
  }
  const swagger = own(doc, 'swagger');
  if (swagger !== undefined) {
    const version = String(swagger).trim();
    if (version !== '2.0' && version !== '2')
      throw new ImportError(`Unsupported Swagger version ${JSON.stringify(version.slice(0, 20))}: this app reads Swagger 2.0; convert older files to 2.0 or OpenAPI 3 first.`, '/swagger');
    return { kind: 'swagger2', format: 'swagger-2.0', version: '2.0' };
  }
  const info = own(doc, 'info');
  const schema = str(own(info, 'schema'));
  const postman = schema ? POSTMAN_SCHEMA.exec(schema) : null;
  if (postman) {
    if (postman[1] !== '2')
      throw new ImportError(`Unsupported Postman Collection version v${postman[1]}.${postman[2]}: export the collection as v2.1 and try again.`, '/info/schema');
    const v = postman[2] === '0' ? '2.0' : '2.1';
    return { kind: 'postman', format: v === '2.0' ? 'postman-2.0' : 'postman-2.1', version: `${v}.0` };
  }
  if (isObject(info) && own(info, '_postman_id') !== undefined && Array.isArray(own(doc, 'item')))
    return { kind: 'postman', format: 'postman-2.1', version: '2.1.0' };
  if (Array.isArray(own(doc, 'requests')) && (own(doc, 'order') !== undefined || own(doc, 'folders') !== undefined))
    throw new ImportError('Postman Collection v1 is not supported: export the collection as v2.1 and try again.');
  const log = own(doc, 'log');
  if (isObject(log) && arr(own(log, 'entries'))) {
    const version = str(own(log, 'version')) ?? '1.2';
    return { kind: 'har', format: 'har-1.2', version };
  }
  throw new ImportError(UNRECOGNISED);
}
