// The probe safety rule (probe-safety.ts): which operations read, which change existing data, which
// wipe, which writes name files, and what the user's consent lifts.

import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/contract';
import {
  altersByName,
  changesExisting,
  consented,
  fileWriteRefusal,
  probeBlocked,
  readOnly,
  wipeOperation,
  writesFiles,
} from './probe-safety';

function ep(method: string, path: string, extra: Partial<Endpoint> = {}): Endpoint {
  return { id: 'e', method, path, summary: '', flags: [], operation_id: null, tags: [], parameters: [], request_body: null, responses: {}, security: null, ...extra };
}

const rawWrite = ep('PUT', '/api/files/raw', { parameters: [{ name: 'path', in: 'query', required: true, schema: { type: 'string' } }] });
const noConsent = { allowExistingObjects: false };

describe('the probe safety rule', () => {
  it('tells reads from writes', () => {
    expect(readOnly(ep('GET', '/files'))).toBe(true);
    expect(readOnly(ep('GET', '/reset'))).toBe(false);
    expect(readOnly(rawWrite)).toBe(false);
    expect(readOnly(ep('POST', '/graphql', { graphql: { kind: 'query', root_type: 'Query', field: 'pastes', document: '', variable_types: {}, returns: '', cycle: null } }))).toBe(true);
  });

  it('tells operations that change existing data from creates, logins and searches', () => {
    expect(changesExisting(ep('PUT', '/items/{id}'))).toBe(true);
    expect(changesExisting(ep('PATCH', '/me'))).toBe(true);
    expect(changesExisting(ep('POST', '/users/{id}/email'))).toBe(true);
    expect(changesExisting(ep('POST', '/orders/cancel'))).toBe(true);
    expect(changesExisting(ep('POST', '/items/rename'))).toBe(true);
    expect(changesExisting(ep('POST', '/items', { operation_id: 'updateItems' }))).toBe(true);
    expect(changesExisting(ep('POST', '/items'))).toBe(false);
    expect(changesExisting(ep('POST', '/login'))).toBe(false);
    expect(changesExisting(ep('POST', '/search'))).toBe(false);
    expect(changesExisting(ep('POST', '/settings'))).toBe(false);
    expect(changesExisting(ep('GET', '/items'))).toBe(false);
    // A GET named as a change changes data (the password travels in its query string): no widening probes there.
    expect(changesExisting(ep('GET', '/user/change-password'))).toBe(true);
    expect(changesExisting(ep('GET', '/settings', { operation_id: 'setTheme' }))).toBe(true);
    expect(changesExisting(ep('GET', '/changes'))).toBe(false);
  });

  it('knows wipes by name and bulk deletes by shape, whatever the method', () => {
    expect(wipeOperation(ep('GET', '/createdb'))).toMatch(/wipes/);
    expect(wipeOperation(ep('POST', '/admin/reset'))).toMatch(/wipes/);
    expect(wipeOperation(ep('POST', '/items/bulk-delete'))).toMatch(/wipes/);
    expect(wipeOperation(ep('POST', '/tables', { operation_id: 'truncateAll' }))).toMatch(/wipes/);
    expect(wipeOperation(ep('DELETE', '/api/files'))).toMatch(/whole collection/);
    expect(wipeOperation(ep('DELETE', '/api/files/{name}'))).toBeNull();
    expect(wipeOperation(ep('POST', '/reset-password'))).toBeNull();
    expect(wipeOperation(ep('GET', '/users'))).toBeNull();
  });

  it('knows POSTs that alter an object their body names', () => {
    expect(altersByName(ep('POST', '/items/rename'))).toBe(true);
    expect(altersByName(ep('POST', '/orders/cancel-order'))).toBe(true);
    expect(altersByName(ep('POST', '/orders/{id}/cancel'))).toBe(false); // addressed by its path: the object rule decides
    expect(altersByName(ep('POST', '/orders'))).toBe(false);
    expect(altersByName(ep('POST', '/rest/user/reset-password'))).toBe(false);
  });

  it('keeps file probes to reads and widening probes away from changes, unless the user named the operation', () => {
    expect(probeBlocked(ep('GET', '/files/raw'), 'file', noConsent)).toBeNull();
    expect(probeBlocked(rawWrite, 'file', noConsent)).toMatch(/only to operations that read/);
    expect(probeBlocked(ep('PUT', '/items/{id}'), 'widening', noConsent)).toMatch(/never go to operations that change/);
    expect(probeBlocked(ep('POST', '/login'), 'widening', noConsent)).toBeNull();
    // Naming it is not enough without writes to existing objects, nor writes without naming it.
    expect(probeBlocked(rawWrite, 'file', { allowExistingObjects: false, namedOperations: ['PUT /api/files/raw'] })).not.toBeNull();
    expect(probeBlocked(rawWrite, 'file', { allowExistingObjects: true })).not.toBeNull();
    expect(probeBlocked(rawWrite, 'file', { allowExistingObjects: true, namedOperations: ['put /api/files/raw'] })).toBeNull();
    expect(consented(ep('POST', '/graphql', { graphql: { kind: 'mutation', root_type: 'Mutation', field: 'uploadPaste', document: '', variable_types: {}, returns: '', cycle: null } }), { allowExistingObjects: true, namedOperations: ['Mutation.uploadPaste'] })).toBe(true);
  });

  it('lets a write that names a file leave only with the name the scan made up', () => {
    expect(writesFiles(rawWrite)).toBe(true);
    expect(writesFiles(ep('GET', '/files/raw', { parameters: rawWrite.parameters }))).toBe(false);
    const url = (v: string) => `http://127.0.0.1/api/files/raw?path=${encodeURIComponent(v)}`;
    expect(fileWriteRefusal(rawWrite, { url: url('portcullis-ab12.txt') }, noConsent)).toBeNull();
    expect(fileWriteRefusal(rawWrite, { url: url('../../etc/passwd') }, noConsent)).toMatch(/only to operations that read/);
    expect(fileWriteRefusal(rawWrite, { url: url('notes.txt') }, noConsent)).not.toBeNull();
    expect(fileWriteRefusal(rawWrite, { url: url('portcullis-ab12.txt"><svg>') }, noConsent)).not.toBeNull();
    const upload = ep('POST', '/upload', { request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { filename: { type: 'string' } } } } });
    const json = { 'content-type': 'application/json' };
    expect(fileWriteRefusal(upload, { url: 'http://127.0.0.1/upload', body: '{"filename":"portcullis-x1.png"}', headers: json }, noConsent)).toBeNull();
    expect(fileWriteRefusal(upload, { url: 'http://127.0.0.1/upload', body: '{"filename":"../app.js"}', headers: json }, noConsent)).not.toBeNull();
    expect(fileWriteRefusal(rawWrite, { url: url('../x') }, { allowExistingObjects: true, namedOperations: ['PUT /api/files/raw'] })).toBeNull();
  });
});
