// The shared fixture specs (../shared/fixtures/specs) with the operation counts of their SOURCES.md.

import fs from 'node:fs';
import path from 'node:path';

export const FIXTURE_DIR = process.env.PORTCULLIS_FIXTURES ?? '/work/shared/fixtures/specs';

export interface Fixture {
  file: string;
  format: string;
  operations: number;
}

/** From SOURCES.md; webhook operations are not endpoints (docs/decisions.md, "Importer"). */
export const FIXTURES: Fixture[] = [
  { file: 'oai-petstore-3.0.yaml', format: 'openapi-3.0', operations: 3 },
  { file: 'oai-petstore-expanded-3.0.json', format: 'openapi-3.0', operations: 4 },
  { file: 'oai-petstore-swagger-2.0.json', format: 'swagger-2.0', operations: 3 },
  { file: 'oai-petstore-with-external-docs-swagger-2.0.yaml', format: 'swagger-2.0', operations: 4 },
  { file: 'oai-petstore-separate-swagger-2.0/spec/swagger.yaml', format: 'swagger-2.0', operations: 4 },
  { file: 'oai-webhook-example-3.1.json', format: 'openapi-3.1', operations: 0 },
  { file: 'redocly-museum-3.1.yaml', format: 'openapi-3.1', operations: 8 },
  { file: 'readme-schema-circular-3.0.yaml', format: 'openapi-3.0', operations: 3 },
  { file: 'kin-yaml-anchors-3.0.yaml', format: 'openapi-3.0', operations: 1 },
  { file: 'stripe-spec3.json', format: 'openapi-3.0', operations: 417 },
  { file: 'github-api.github.com.json', format: 'openapi-3.0', operations: 771 },
  { file: 'apisguru-azure-web-WebApps-2019-08-01-swagger-2.0.yaml', format: 'swagger-2.0', operations: 363 },
  { file: 'twitter-api-v2.postman_collection.json', format: 'postman-2.1', operations: 56 },
  { file: 'newman-echo-v2.0.postman_collection.json', format: 'postman-2.0', operations: 22 },
];

export function readFixture(file: string): Buffer {
  return fs.readFileSync(path.join(FIXTURE_DIR, file));
}

/** Every top-level fixture file, so a file added to the directory without a count fails the test. */
export function listedFixtureFiles(): string[] {
  return fs.readdirSync(FIXTURE_DIR).filter((f) => /\.(json|ya?ml)$/i.test(f));
}
