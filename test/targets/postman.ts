// A Postman collection of the target as teams often keep them: no collection-level auth, every
// request carrying its credential in its own X-Api-Token: {{token}} header. For importer and
// identity tests (the static copy is test/fixtures/identities/acme-shop.postman_collection.json).

import { SEED } from './db';

type Json = Record<string, unknown>;

export interface PostmanOptions {
  /** The value of the {{token}} variable: a JWT or an API key. Default "" (left for the importer to ask). */
  token?: string;
}

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** "/orders/:orderId" with `vars` for the path variables, and `query` pairs. */
function request(method: string, path: string, o: { vars?: Record<string, string | number>; query?: Record<string, string>; body?: unknown } = {}): Json {
  const query = Object.entries(o.query ?? {});
  const raw = `{{baseUrl}}${path}${query.length ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
  const header = [{ key: 'X-Api-Token', value: '{{token}}', type: 'text' }];
  if (o.body !== undefined) header.push({ key: 'Content-Type', value: 'application/json', type: 'text' });
  return {
    method,
    header,
    ...(o.body !== undefined ? { body: { mode: 'raw', raw: JSON.stringify(o.body, null, 2), options: { raw: { language: 'json' } } } } : {}),
    url: {
      raw,
      host: ['{{baseUrl}}'],
      path: path.split('/').filter(Boolean),
      ...(query.length ? { query: query.map(([key, value]) => ({ key, value })) } : {}),
      ...(o.vars ? { variable: Object.entries(o.vars).map(([key, value]) => ({ key, value: String(value) })) } : {}),
    },
  };
}

const item = (name: string, req: Json): Json => ({ name, request: req, response: [] });

/** The collection for a target (its baseUrl becomes the {{baseUrl}} variable). */
export function buildPostmanCollection(target: { baseUrl: string }, options: PostmanOptions = {}): Json {
  return {
    info: {
      name: 'Acme Shop API (X-Api-Token)',
      description: 'Every request sends its credential in X-Api-Token: {{token}} (a JWT from POST /auth/login, or an API key). No collection-level auth.',
      schema: POSTMAN_SCHEMA,
    },
    variable: [
      { key: 'baseUrl', value: target.baseUrl },
      { key: 'token', value: options.token ?? '' },
    ],
    item: [
      {
        name: 'Account',
        item: [item('Who am I', request('GET', '/me')), item('My addresses', request('GET', '/users/:userId/addresses', { vars: { userId: SEED.users.alice } }))],
      },
      {
        name: 'Orders',
        item: [
          item('List orders', request('GET', '/orders', { query: { page: '1', page_size: '20' } })),
          item('Get order', request('GET', '/orders/:orderId', { vars: { orderId: SEED.orders.alice[0] } })),
          item('Invoice of an order', request('POST', '/invoices/lookup', { body: { orderId: SEED.orders.alice[0] } })),
        ],
      },
      {
        name: 'Notes',
        item: [
          item('List notes', request('GET', '/notes')),
          item('Create note', request('POST', '/notes', { body: { title: 'Shopping list', body: 'Coffee beans, olive oil', tags: ['home'] } })),
          item('Get note', request('GET', '/notes/:noteId', { vars: { noteId: SEED.notes.alice[0] } })),
        ],
      },
      {
        name: 'Documents',
        item: [item('Download document', request('GET', '/documents/download', { query: { documentId: SEED.documents.alice[0] } }))],
      },
    ],
  };
}

/** The base URL of the static copy: the standalone target's documented port (serve.js --port 8088). */
export const POSTMAN_FIXTURE_BASE_URL = 'http://127.0.0.1:8088/api/v2';
