// What every format module produces: one API and its endpoints, ready to store.

import type { ApiSecurity, ImportWarning } from '../../shared/contract';
import type { NewEndpoint } from '../store/apis';
import type { PreparedEndpoint } from '../store/endpoint-row';

export type SourceFormat =
  | 'openapi-3.0'
  | 'openapi-3.1'
  | `openapi-3.${number}`
  | 'swagger-2.0'
  | 'postman-2.0'
  | 'postman-2.1'
  | 'har-1.2'
  | 'graphql-sdl'
  | 'graphql-introspection'
  | 'manual';

export interface ImportResult<E = NewEndpoint> {
  name: string;
  base_url: string;
  format: SourceFormat;
  spec_version: string | null;
  security: ApiSecurity;
  endpoints: E[];
  warnings: ImportWarning[];
}

/** What the import worker answers: the endpoints as the store writes them (store/endpoint-row.ts). */
export type PreparedImport = ImportResult<PreparedEndpoint>;

/** An endpoint before its default flags are derived. */
export type ExtractedEndpoint = Omit<NewEndpoint, 'flags'>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
