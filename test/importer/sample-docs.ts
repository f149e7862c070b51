// Small documents of every format that use most features the readers know, for mutation tests.

export const OPENAPI_31 = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1.0' },
  servers: [{ url: 'https://{env}.shop.test/{base}', variables: { env: { default: 'api', enum: ['api', 'staging'] }, base: { default: 'v2' } } }],
  security: [{ bearer: [] }],
  tags: [{ name: 'orders' }],
  paths: {
    '/orders': {
      parameters: [{ $ref: '#/components/parameters/Trace' }],
      get: {
        summary: 'List orders',
        operationId: 'listOrders',
        tags: ['orders'],
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 }, example: 10 },
          { name: 'callback_url', in: 'query', schema: { type: 'string', format: 'uri' } },
          { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object' }, examples: { a: { $ref: '#/components/examples/Filter' } } } } },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } } },
          default: { $ref: '#/components/responses/Error' },
        },
      },
      post: {
        operationId: 'createOrder',
        requestBody: { $ref: '#/components/requestBodies/NewOrder' },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
        security: [],
      },
    },
    '/orders/{orderId}': { $ref: '#/components/pathItems/OneOrder' },
  },
  webhooks: { paid: { post: { responses: { '200': { description: 'ok' } } } } },
  components: {
    schemas: {
      Order: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          total: { type: ['number', 'null'] },
          parent: { $ref: '#/components/schemas/Order' },
          items: { type: 'array', prefixItems: [{ type: 'string' }], items: { $ref: '#/components/schemas/Item' } },
        },
        allOf: [{ $ref: '#/components/schemas/Base' }],
      },
      Item: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'integer' } }], example: { sku: 1 } },
      Base: { type: 'object', properties: { created: { type: 'string', format: 'date-time' } } },
    },
    parameters: { Trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' } } },
    examples: { Filter: { value: { status: 'open' } } },
    responses: { Error: { description: 'error', content: { 'application/problem+json': { schema: { type: 'object', properties: { title: { type: 'string' } } } } } } },
    requestBodies: {
      NewOrder: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' }, example: { id: 'x' } }, 'text/plain': {} } },
    },
    pathItems: {
      OneOrder: {
        parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': { description: 'ok' } } },
        delete: { security: [{ apiKey: [] }], responses: { '204': { description: 'gone' } } },
      },
    },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Key' },
      oauth: { type: 'oauth2', flows: {} },
      mtls: { type: 'mutualTLS' },
    },
  },
};

export const SWAGGER_2 = {
  swagger: '2.0',
  info: { title: 'Files', version: '1' },
  host: 'files.test:8443',
  basePath: '/api',
  schemes: ['http', 'https'],
  consumes: ['application/json'],
  produces: ['application/json'],
  securityDefinitions: { basic: { type: 'basic' }, key: { type: 'apiKey', in: 'query', name: 'key' } },
  security: [{ basic: [] }],
  parameters: { Page: { name: 'page', in: 'query', type: 'integer', default: 1 } },
  responses: { NotFound: { description: 'missing', schema: { $ref: '#/definitions/Error' } } },
  paths: {
    '/files': {
      get: { parameters: [{ $ref: '#/parameters/Page' }], responses: { '200': { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/File' } } } } },
      post: {
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'upload', in: 'formData', type: 'file', required: true },
          { name: 'note', in: 'formData', type: 'string' },
        ],
        responses: { '201': { description: 'created' } },
      },
    },
    '/files/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
      put: { parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/File' } }], responses: { '404': { $ref: '#/responses/NotFound' } } },
      delete: { security: [{ key: [] }], responses: { '204': { description: 'gone' } } },
    },
  },
  definitions: {
    File: { type: 'object', properties: { id: { type: 'integer' }, url: { type: 'string' }, owner: { $ref: '#/definitions/User' } } },
    User: { type: 'object', properties: { files: { type: 'array', items: { $ref: '#/definitions/File' } } } },
    Error: { type: 'object', properties: { message: { type: 'string' } } },
  },
};

export const POSTMAN_21 = {
  info: { _postman_id: 'x', name: 'Blog', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  variable: [
    { key: 'baseUrl', value: 'https://blog.test/api' },
    { key: 'token', value: 'secret-token-value' },
  ],
  auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] },
  item: [
    {
      name: 'Posts',
      item: [
        {
          name: 'List posts',
          request: { method: 'GET', url: { raw: '{{baseUrl}}/posts?page=1&search=x', host: ['{{baseUrl}}'], path: ['posts'], query: [{ key: 'page', value: '1' }, { key: 'search', value: 'x' }] } },
          response: [{ name: 'ok', code: 200, status: 'OK', header: [{ key: 'Content-Type', value: 'application/json' }], body: '[{"id": 1, "title": "a"}]' }],
        },
        {
          name: 'Comment on a post',
          request: {
            method: 'POST',
            header: [{ key: 'X-Request-Id', value: 'abc' }, { key: 'Authorization', value: 'Bearer real-secret' }],
            url: '{{baseUrl}}/posts/:postId/comments',
            body: { mode: 'raw', raw: '{"text": "hi", "password": "hunter2", "avatar_url": "https://x.test/a.png"}', options: { raw: { language: 'json' } } },
          },
        },
        {
          name: 'Admin',
          auth: { type: 'noauth' },
          item: [
            {
              name: 'Upload',
              request: {
                method: 'PUT',
                auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-Admin-Key' }, { key: 'value', value: 'k-123' }, { key: 'in', value: 'header' }] },
                url: { raw: '{{baseUrl}}/admin/files/{{fileId}}' },
                body: { mode: 'formdata', formdata: [{ key: 'file', type: 'file', src: '/tmp/x' }, { key: 'name', value: 'n' }] },
              },
            },
            { name: 'Open', request: { method: 'DELETE', url: '{{baseUrl}}/admin/cache' } },
          ],
        },
      ],
    },
    { name: 'Login', request: { method: 'POST', url: '{{baseUrl}}/login', body: { mode: 'urlencoded', urlencoded: [{ key: 'user', value: 'u' }, { key: 'password', value: 'p' }] } } },
    { name: 'Elsewhere', request: 'https://other.test/ping' },
  ],
};

export const HAR_12 = {
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    pages: [{ title: 'Shop admin', id: 'p1' }],
    entries: [
      {
        _resourceType: 'fetch',
        request: { method: 'GET', url: 'https://shop.test/api/users/42/orders?limit=5&session_token=abc', headers: [{ name: 'Authorization', value: 'Bearer real-token' }], queryString: [] },
        response: { status: 200, statusText: 'OK', content: { mimeType: 'application/json', text: '[{"id": 7, "total": 3.5}]' } },
      },
      {
        _resourceType: 'xhr',
        request: { method: 'GET', url: 'https://shop.test/api/users/43/orders?limit=9', headers: [] },
        response: { status: 200, content: { mimeType: 'application/json', text: '[]' } },
      },
      {
        request: {
          method: 'POST',
          url: 'https://shop.test/api/users/42/orders',
          headers: [{ name: 'X-API-Key', value: 'k' }],
          postData: { mimeType: 'application/json', text: '{"item": "a", "password": "p", "webhook": "https://x.test"}' },
        },
        response: { status: 201, content: { mimeType: 'application/json', text: '{"id": 8}' } },
      },
      { request: { method: 'GET', url: 'https://shop.test/static/app.js', headers: [] }, response: { status: 200, content: { mimeType: 'application/javascript' } } },
      { _resourceType: 'document', request: { method: 'GET', url: 'https://shop.test/', headers: [] }, response: { status: 200, content: { mimeType: 'text/html' } } },
      { request: { method: 'GET', url: 'https://cdn.analytics.test/collect?x=1', headers: [] }, response: { status: 204, content: {} } },
      {
        request: { method: 'DELETE', url: 'https://shop.test/api/orders/5f2b7c9e8d1a4b3c2d1e0f9a', headers: [] },
        response: { status: 204, content: {} },
      },
    ],
  },
};
