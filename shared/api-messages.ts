// Server texts of the API, endpoint and import routes that the spec leaves open (the spec's own
// texts are in messages.ts). Screens and tests read the same values.

import { FLAGS } from './constants';

export const APIS_MESSAGES = {
  listed: 'APIs loaded',
  endpointsListed: 'Endpoints loaded',
  manualCreated: (name: string, count: number) => `API "${name}" created with ${count} endpoint${count === 1 ? '' : 's'}.`,
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
  methodInvalid: 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or TRACE.',
  pathRequired: 'Path is required.',
  pathInvalid: 'Path must start with "/" and contain no spaces, "?" or "#".',
  pathTooLong: 'Path is too long.',
  summaryTooLong: 'Summary must be at most 300 characters.',
  duplicateEndpoint: (method: string, path: string) => `${method} ${path} is listed twice.`,
  endpointNotFound: 'Endpoint not found.',
  unknownFlag: `flags must be one flag name: ${FLAGS.join(', ')}.`,
  flagAdded: (flag: string) => `Flag ${flag} added.`,
  flagRemoved: (flag: string) => `Flag ${flag} removed.`,
} as const;
