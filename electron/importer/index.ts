// The importer: an uploaded file's bytes -> one API with its endpoints, flags and warnings.
// Pure and synchronous: it reads no file, opens no connection and writes nothing; storing the
// result is store-import.ts. Every refusal is an ImportError naming what is wrong and where.

import { IMPORT_MAX_BYTES } from '../../shared/constants';
import { singleLine } from '../../shared/validation';
import { SERVER_MESSAGES } from '../../shared/messages';
import { decodeText } from './decode-text';
import { detectFormat } from './detect-format';
import { ImportError, ImportTooLargeError } from './errors';
import { guardDocument, mayHaveAliases } from './guard-document';
import { IMPORT_LIMITS } from './limits';
import { parseDocument } from './parse-document';
import { readHar } from './read-har';
import { readOpenApi3 } from './read-openapi3';
import { readPostman } from './read-postman';
import { DEFAULT_GRAPHQL_NAME, DEFAULT_GRAPHQL_PATH, importGraphqlSchemaWith, introspectionIn, looksLikeGraphqlSdl, readGraphqlIntrospection, readGraphqlSdl, type GraphqlFormat } from './read-graphql';
import { buildEndpoints, type SpecReading, type UnexpectedErrorHook } from './read-spec';
import { readSwagger2 } from './read-swagger2';
import type { ImportResult, SourceFormat } from './result';
import { clampText, type Obj } from './values';
import { Warnings } from './warnings';

export { ImportError, ImportTooLargeError } from './errors';
export type { ImportResult, PreparedImport } from './result';

export interface ImportOptions {
  /** The uploaded file's name: the API's name when the file has none. */
  filename?: string;
  /** Told about an error no reader meant to throw (the operation is skipped either way): logs, tests. */
  onUnexpectedError?: UnexpectedErrorHook;
}

/** "petstore.v2.yaml" -> "petstore.v2". */
function nameFromFile(filename: string | undefined): string {
  if (!filename) return '';
  const base = filename.split(/[\\/]/).pop() ?? '';
  return clampText(base.replace(/\.(json|ya?ml|har|graphqls?|gql)$/i, ''), IMPORT_LIMITS.maxNameLength);
}

/** A GraphQL schema file: no server and no title of its own, so the file names the API and the path is /graphql. */
function graphqlOptions(format: GraphqlFormat, options: ImportOptions) {
  const name = singleLine(nameFromFile(options.filename)).trim() || DEFAULT_GRAPHQL_NAME;
  return { name, baseUrl: '', path: DEFAULT_GRAPHQL_PATH, format, onUnexpectedError: options.onUnexpectedError };
}

export function importApiDocument(bytes: Uint8Array, options: ImportOptions = {}): ImportResult {
  if (bytes.length > IMPORT_MAX_BYTES) throw new ImportTooLargeError(SERVER_MESSAGES.importTooLarge);
  const text = decodeText(bytes);
  // SDL first: the YAML parser would read some of it ("type Query" alone is a YAML string) and refuse it confusingly.
  if (looksLikeGraphqlSdl(text)) {
    const warnings = new Warnings();
    return importGraphqlSchemaWith(readGraphqlSdl(text, warnings), graphqlOptions('graphql-sdl', options), warnings);
  }
  const parsed = parseDocument(text);
  if (parsed.syntax === 'json' || mayHaveAliases(text)) guardDocument(parsed.value, parsed.syntax);
  const introspection = introspectionIn(parsed.value);
  if (introspection) return importGraphqlSchemaWith(readGraphqlIntrospection(introspection), graphqlOptions('graphql-introspection', options), new Warnings());
  const detected = detectFormat(parsed.value);
  const doc = parsed.value as Obj;
  const warnings = new Warnings();
  let reading: SpecReading;
  switch (detected.kind) {
    case 'openapi3':
      if (detected.minor > 1)
        warnings.add('/openapi', `OpenAPI ${clampText(detected.version, 20)} is newer than this importer knows; it was read as 3.1.`);
      reading = readOpenApi3(doc, detected.minor, warnings);
      break;
    case 'swagger2':
      reading = readSwagger2(doc, warnings);
      break;
    case 'postman':
      reading = readPostman(doc, warnings);
      break;
    case 'har':
      reading = readHar(doc, warnings);
      break;
  }
  const { endpoints, skipped } = buildEndpoints(reading, warnings, options.onUnexpectedError);
  if (skipped > 0 && endpoints.length === 0) {
    const first = warnings.toArray().find((w) => w.message.startsWith('Skipped'));
    throw new ImportError(
      `None of the ${skipped} operations could be imported${first ? `; the first: ${first.message}` : '.'}`,
      first?.location ?? '',
    );
  }
  return {
    name: singleLine(reading.name).trim() || singleLine(nameFromFile(options.filename)).trim() || 'Untitled API',
    base_url: reading.baseUrl,
    format: detected.format as SourceFormat,
    spec_version: detected.version,
    security: reading.security,
    endpoints,
    warnings: warnings.toArray(),
  };
}
