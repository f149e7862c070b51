// Server texts of the API, endpoint and import routes that the spec leaves open (the spec's own
// texts are in messages.ts). Screens and tests read the same values.

import { FLAGS } from './constants';

export const APIS_MESSAGES = {
  listed: 'APIs loaded',
  endpointsListed: 'Endpoints loaded',
  manualCreated: (name: string, count: number) => `API "${name}" created with ${count} endpoint${count === 1 ? '' : 's'}.`,
  graphqlImported: (name: string, count: number) => `GraphQL API "${name}" imported with ${count} operation${count === 1 ? '' : 's'}.`,
  graphqlUrlRequired: 'GraphQL endpoint URL is required.',
  graphqlUrlInvalid: 'GraphQL endpoint URL must be an http:// or https:// address.',
  graphqlUrlTooLong: 'GraphQL endpoint URL is too long.',
  specUrlRequired: 'The URL of the API description is required.',
  specUrlInvalid: 'The URL of the API description must be an http:// or https:// address.',
  specUrlTooLong: 'The URL of the API description is too long.',
  specUrlImported: (name: string, count: number) => `API "${name}" imported from its URL with ${count} endpoint${count === 1 ? '' : 's'}.`,
  notMultipart: 'Send the file as multipart/form-data in a field named "file".',
  oneFileOnly: 'Please upload one file at a time.',
  fileEmpty: 'The file is empty.',
  nameRequired: 'API name is required.',
  nameTooLong: 'API name must be at most 200 characters.',
  titleRequired: 'Title is required.',
  titleTooLong: 'Title must be at most 200 characters.',
  baseUrlRequired: 'Base URL is required.',
  baseUrlInvalid: 'Base URL must be an http:// or https:// address.',
  baseUrlTooLong: 'Base URL is too long.',
  nothingToUpdate: 'Nothing to update: send updates.title and/or updates.base_url.',
  updatesRequired: 'updates must be an object with title and/or base_url.',
  endpointsRequired: 'Add at least one endpoint.',
  tooManyEndpoints: (max: number) => `At most ${max} endpoints can be added by hand.`,
  methodInvalid: 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE or GRAPHQL.',
  pathRequired: 'Path is required.',
  pathInvalid: 'Path must start with "/" and contain no spaces, "?" or "#".',
  pathTooLong: 'Path is too long.',
  summaryTooLong: 'Summary must be at most 300 characters.',
  duplicateEndpoint: (method: string, path: string) => `${method} ${path} is listed twice.`,
  endpointNotFound: 'Endpoint not found.',
  unknownFlag: `flags must be one flag name: ${FLAGS.join(', ')}.`,
  flagAdded: (flag: string) => `Flag ${flag} added.`,
  flagRemoved: (flag: string) => `Flag ${flag} removed.`,
  flagSetForMany: (flag: string, on: boolean, n: number) => `Flag ${flag} ${on ? 'added to' : 'removed from'} ${n} endpoint${n === 1 ? '' : 's'}.`,
  bulkEndpointsInvalid: 'endpoint_ids must list this API\'s endpoints (at most 100,000).',
} as const;

/**
 * Why an import from a URL (POST /api/import/url) failed, each with what to do. The local-address refusal
 * names the setting that lifts it: the team server's administrator reads the same words.
 */
export const SPEC_URL_MESSAGES = {
  local: (host: string) =>
    `${host} is on this machine or a private network, and this server does not fetch from local addresses. Download the description and upload the file instead, or ask the server's administrator to allow local addresses (PORTCULLIS_ALLOW_LOCAL_SCANS=1).`,
  unreachable: (origin: string, reason: string) =>
    `Could not reach ${origin} (${reason}). Check the address, and that the API is running and reachable from where Portcullis runs.`,
  otherHost: (to: string) => `The address redirects to another host (${to}). Import from that address instead.`,
  status: (status: number) =>
    `The address answered HTTP ${status}, not an API description. Check the URL: a description is often at /openapi.json, /swagger.json or /v3/api-docs.`,
  webPage:
    'The address answered with a web page, not an API description. A documentation page (Swagger UI, ReDoc) loads its description from another address, often /openapi.json or /v3/api-docs: import that one.',
  binary: (type: string) =>
    `The address answered with ${type}, not an API description (OpenAPI or Swagger as JSON or YAML, a Postman collection, a HAR file or a GraphQL schema).`,
  tooLarge: (mb: number) => `The API description at this address is larger than the import limit of ${mb} MB. Download it and split it, or import a smaller part.`,
  baseUrlFromAddress: (url: string) => `The description gives no absolute server URL; the base URL ${url} was taken from the address it was imported from.`,
} as const;

/** "1 GB", "250 MB", "12.5 MB": the sizes of the quota messages (binary units, as the import limit). */
export function formatQuotaBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * 413 when adding an API would pass one of the owner's quotas (issue 18, item 6). Each says the limit,
 * where the user stands, and what to do: the environment variable names the administrator sets.
 */
export const QUOTA_MESSAGES = {
  apis: (limit: number) =>
    `You have reached your limit of ${count(limit)} API${limit === 1 ? '' : 's'}. Delete APIs you no longer need, or ask your administrator to raise PORTCULLIS_QUOTA_APIS.`,
  /** `adding` is unknown when the refusal comes before the file is read (the user is already at the limit). */
  endpoints: (limit: number, used: number, adding?: number) =>
    `This API would exceed your limit of ${count(limit)} endpoint${limit === 1 ? '' : 's'}: your APIs have ${count(used)}${adding === undefined ? '' : ` and it adds ${count(adding)}`}. Delete APIs you no longer need, or ask your administrator to raise PORTCULLIS_QUOTA_ENDPOINTS.`,
  bytes: (limit: number, used: number, adding?: number) =>
    `This API would exceed your storage limit of ${formatQuotaBytes(limit)}: your APIs use ${formatQuotaBytes(used)}${adding === undefined ? '' : ` and it needs ${formatQuotaBytes(adding)}`}. Delete APIs you no longer need, or ask your administrator to raise PORTCULLIS_QUOTA_BYTES.`,
  usage: 'Usage loaded',
} as const;
