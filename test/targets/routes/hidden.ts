// Surfaces the spec does not document: API docs, actuator/debug/metrics endpoints and GraphQL,
// each reachable only while its flaw is on. The root banner exists in both modes.

import { type Ctx, type TargetState } from '../context';
import { CATEGORIES } from '../db';
import { execute, type GraphQLRequest, introspection, list, named, type NamedType, nonNull } from '../graphql';
import { json, type Reply, type Router } from '../http';
import { money } from './account';
import { webClientPage } from './web-client';

const DOC_JSON = ['/openapi.json', '/swagger.json', '/api-docs', '/v2/api-docs', '/v3/api-docs', '/swagger/v1/swagger.json', '/api-docs.json'];
const DOC_YAML = ['/openapi.yaml', '/openapi.yml', '/swagger.yaml'];
const DOC_UI = ['/swagger', '/swagger/', '/swagger-ui', '/swagger-ui/', '/swagger-ui.html', '/swagger-ui/index.html', '/docs', '/docs/', '/redoc'];
const PREFIXES = ['', '/api', '/api/v2'];

const GQL_TYPES: NamedType[] = [
  {
    kind: 'OBJECT',
    name: 'Query',
    fields: [
      {
        name: 'products',
        type: nonNull(list(nonNull(named('Product')))),
        args: [
          { name: 'limit', type: named('Int'), defaultValue: '20' },
          { name: 'category', type: named('Category') },
        ],
      },
      { name: 'product', type: named('Product'), args: [{ name: 'id', type: nonNull(named('ID')) }] },
      { name: 'me', type: named('User') },
      { name: 'orders', type: nonNull(list(nonNull(named('Order')))) },
    ],
  },
  {
    kind: 'OBJECT',
    name: 'Product',
    fields: [
      { name: 'id', type: nonNull(named('ID')) },
      { name: 'name', type: nonNull(named('String')) },
      { name: 'description', type: named('String') },
      { name: 'category', type: nonNull(named('Category')) },
      { name: 'price', type: nonNull(named('Float')) },
      { name: 'stock', type: nonNull(named('Int')) },
    ],
  },
  {
    kind: 'OBJECT',
    name: 'User',
    fields: [
      { name: 'id', type: nonNull(named('ID')) },
      { name: 'username', type: nonNull(named('String')) },
      { name: 'email', type: nonNull(named('String')) },
      { name: 'displayName', type: named('String') },
      { name: 'role', type: nonNull(named('String')) },
    ],
  },
  {
    kind: 'OBJECT',
    name: 'Order',
    fields: [
      { name: 'id', type: nonNull(named('ID')) },
      { name: 'status', type: nonNull(named('String')) },
      { name: 'total', type: nonNull(named('Float')) },
      { name: 'createdAt', type: nonNull(named('String')) },
    ],
  },
  { kind: 'ENUM', name: 'Category', enumValues: [...CATEGORIES] },
  { kind: 'SCALAR', name: 'ID' },
  { kind: 'SCALAR', name: 'Int' },
  { kind: 'SCALAR', name: 'Float' },
];

const INTRO = introspection(GQL_TYPES, 'Query');

type Row = Record<string, unknown>;
const gqlProduct = (p: Row) => ({ __typename: 'Product', id: String(p.id), name: p.name, description: p.description, category: p.category, price: money(Number(p.price_cents)), stock: p.stock });

async function graphql(ctx: Ctx): Promise<Reply> {
  let req: GraphQLRequest;
  if (ctx.method === 'GET') {
    const vars = ctx.query.get('variables');
    let variables: unknown;
    try {
      variables = vars ? JSON.parse(vars) : undefined;
    } catch {
      return json(400, { errors: [{ message: 'Variables are invalid JSON.' }] });
    }
    req = { query: ctx.query.get('query') ?? undefined, variables, operationName: ctx.query.get('operationName') ?? undefined };
  } else if ((ctx.header('content-type') ?? '').includes('application/graphql')) {
    req = { query: ctx.rawBody.toString('utf8') };
  } else {
    const body = ctx.body();
    req = body && typeof body === 'object' ? (body as GraphQLRequest) : {};
  }
  const db = ctx.t.db;
  const root = {
    __typename: 'Query',
    products: ({ limit, category }: { limit?: unknown; category?: unknown }) => {
      const n = Math.min(Math.max(Number(limit ?? 20) || 20, 1), 100);
      const rows = (typeof category === 'string'
        ? db.prepare('SELECT * FROM products WHERE category = ? ORDER BY id LIMIT ?').all(category, n)
        : db.prepare('SELECT * FROM products ORDER BY id LIMIT ?').all(n)) as Row[];
      return rows.map(gqlProduct);
    },
    product: ({ id }: { id?: unknown }) => {
      const p = db.prepare('SELECT * FROM products WHERE id = ?').get(Number(id)) as Row | undefined;
      return p ? gqlProduct(p) : null;
    },
    me: async () => {
      const a = await ctx.auth();
      return a.kind === 'user' ? { __typename: 'User', id: String(a.user.id), username: a.user.username, email: a.user.email, displayName: a.user.display_name, role: a.user.role } : null;
    },
    orders: async () => {
      const a = await ctx.auth();
      if (a.kind !== 'user') throw new Error('Authentication required.');
      return (db.prepare('SELECT * FROM orders WHERE owner_id = ? AND deleted = 0 ORDER BY id').all(a.user.id) as Row[]).map((o) => ({
        __typename: 'Order',
        id: String(o.id),
        status: o.status,
        total: money(Number(o.total_cents)),
        createdAt: o.created_at,
      }));
    },
    __schema: () => INTRO.schema,
    __type: ({ name }: { name?: unknown }) => INTRO.type(String(name)),
  };
  return json(200, await execute(req, root));
}

function metrics(t: TargetState): string {
  const mem = process.memoryUsage();
  const lines = [
    '# HELP http_requests_total Total number of HTTP requests received.',
    '# TYPE http_requests_total counter',
    ...[...t.counters.byStatus.entries()].map(([status, n]) => `http_requests_total{status="${status}"} ${n}`),
    '# HELP process_resident_memory_bytes Resident memory size in bytes.',
    '# TYPE process_resident_memory_bytes gauge',
    `process_resident_memory_bytes ${mem.rss}`,
    '# HELP nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.',
    '# TYPE nodejs_heap_size_used_bytes gauge',
    `nodejs_heap_size_used_bytes ${mem.heapUsed}`,
    '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.',
    '# TYPE process_start_time_seconds gauge',
    `process_start_time_seconds ${Math.floor(t.startedAt / 1000)}`,
    '# HELP nodejs_version_info Node.js version info.',
    '# TYPE nodejs_version_info gauge',
    `nodejs_version_info{version="${process.version}"} 1`,
    '# HELP acme_orders_total Orders in the database.',
    '# TYPE acme_orders_total gauge',
    `acme_orders_total ${(t.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n}`,
    '',
  ];
  return lines.join('\n');
}

/** The spec as the developers keep it: the published one plus an internal operation it leaves out. */
function internalSpec(t: TargetState): string {
  const spec = JSON.parse(t.specJson) as { paths: Record<string, unknown> };
  spec.paths['/internal/reindex'] = { post: { summary: 'Rebuild the search index (internal)', responses: { '202': { description: 'Started' } } } };
  return JSON.stringify(spec, null, 2);
}

const SQL_DUMP = (t: TargetState) =>
  [
    '-- SQLite dump of the Acme Shop database (nightly backup)',
    'CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT, email TEXT, password_hash TEXT, role TEXT);',
    ...(t.db.prepare('SELECT id, username, email, role FROM users ORDER BY id LIMIT 20').all() as { id: number; username: string; email: string; role: string }[]).map(
      (u) => `INSERT INTO users VALUES (${u.id}, '${u.username}', '${u.email}', '$2b$10$${'x'.repeat(53)}', '${u.role}');`,
    ),
    '',
  ].join('\n');

const WERKZEUG_CONSOLE = `<!doctype html>
<html lang=en>
  <head>
    <title>Console // Werkzeug Debugger</title>
    <link rel="stylesheet" href="?__debugger__=yes&amp;cmd=resource&amp;f=style.css">
    <script src="?__debugger__=yes&amp;cmd=resource&amp;f=debugger.js"></script>
  </head>
  <body style="background-color: #fff">
    <div class="debugger"><h1>Interactive Console</h1>
    <div class="explanation">In this console you can execute Python expressions in the context of the application.</div>
    <div class="console"><div class="inner">The Console requires JavaScript.</div></div></div>
  </body>
</html>`;

/** Undocumented routes and files that discovery finds: a collection route, a backup, a debug console. */
function registerUndocumented(r: Router<Ctx>, t: TargetState): void {
  r.get(
    '/api/v2/users',
    async (ctx) => {
      await ctx.user();
      return json(200, { users: (ctx.t.db.prepare('SELECT id, username, email, role FROM users ORDER BY id').all() as Record<string, unknown>[]) });
    },
    { enabled: () => t.has('undocumented-collection') },
  );
  r.get('/backup.sql', () => ({ status: 200, text: SQL_DUMP(t), contentType: 'application/sql' }), { enabled: () => t.has('backup-file'), rate: 'none' });
  r.get('/console', () => ({ status: 200, text: WERKZEUG_CONSOLE, contentType: 'text/html; charset=utf-8' }), { enabled: () => t.has('debug-console'), rate: 'none' });
}

export function registerHidden(r: Router<Ctx>, t: TargetState): void {
  registerUndocumented(r, t);
  r.get('/', (ctx) => webClientPage(ctx) ?? json(200, { service: 'Acme Shop API', status: 'ok' }), { rate: 'none' });

  const docs = { enabled: () => t.has('exposed-docs'), rate: 'none' as const };
  for (const prefix of PREFIXES) {
    for (const p of DOC_JSON) r.get(prefix + p, () => ({ status: 200, text: internalSpec(t), contentType: 'application/json; charset=utf-8' }), docs);
    for (const p of DOC_YAML) r.get(prefix + p, () => ({ status: 200, text: t.specYaml, contentType: 'application/yaml; charset=utf-8' }), docs);
    for (const p of DOC_UI) {
      r.get(
        prefix + p,
        () => ({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          text: `<!doctype html>
<html><head><meta charset="utf-8"><title>Swagger UI - Acme Shop API</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '${prefix}/openapi.json', dom_id: '#swagger-ui' });</script>
</body></html>`,
        }),
        docs,
      );
    }
  }

  const debug = { enabled: () => t.has('debug-endpoints'), rate: 'none' as const };
  for (const prefix of PREFIXES) {
    const base = `${t.origin}${prefix}/actuator`;
    r.get(`${prefix}/actuator`, () => json(200, { _links: { self: { href: base }, health: { href: `${base}/health` }, env: { href: `${base}/env` }, metrics: { href: `${base}/metrics` } } }), debug);
    r.get(
      `${prefix}/actuator/health`,
      () => json(200, { status: 'UP', components: { db: { status: 'UP', details: { database: 'SQLite', file: t.db.name } }, diskSpace: { status: 'UP' }, ping: { status: 'UP' } } }),
      debug,
    );
    r.get(
      `${prefix}/actuator/env`,
      () =>
        json(200, {
          activeProfiles: ['production'],
          propertySources: [
            {
              name: 'systemEnvironment',
              properties: {
                NODE_ENV: { value: 'production' },
                DATABASE_URL: { value: `file:${t.db.name}` },
                JWT_SECRET: { value: '******' },
                WEBHOOK_SIGNING_SECRET: { value: `${t.webhookSecret.slice(0, 6)}******` },
                INTERNAL_BILLING_URL: { value: 'http://billing.internal:8081/v1' },
                NODE_VERSION: { value: process.version },
              },
            },
            { name: 'applicationConfig: [classpath:/application.yml]', properties: { 'server.port': { value: new URL(t.origin).port }, 'downloads.dir': { value: t.downloadsDir } } },
          ],
        }),
      debug,
    );
    r.get(`${prefix}/actuator/metrics`, () => json(200, { names: ['http.server.requests', 'process.uptime', 'process.memory.rss', 'nodejs.heap.used'] }), debug);
    r.get(`${prefix}/metrics`, () => ({ status: 200, text: metrics(t), contentType: 'text/plain; version=0.0.4; charset=utf-8' }), debug);
    r.get(
      `${prefix}/debug/vars`,
      () =>
        json(200, {
          cmdline: process.argv,
          memstats: process.memoryUsage(),
          uptimeSeconds: Math.round((Date.now() - t.startedAt) / 1000),
          requests: t.counters.requests,
          database: t.db.name,
        }),
      debug,
    );
    r.get(
      `${prefix}/debug/pprof/`,
      () => ({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        text: '<html><head><title>/debug/pprof/</title></head><body>/debug/pprof/<br><br>Types of profiles available:<table><tr><td>heap</td></tr><tr><td>profile</td></tr><tr><td>goroutine</td></tr></table></body></html>',
      }),
      debug,
    );
  }

  const gql = { enabled: () => t.has('graphql-introspection'), rate: 'none' as const };
  for (const p of ['/graphql', '/api/graphql', '/api/v2/graphql']) {
    r.get(p, graphql, gql);
    r.post(p, graphql, gql);
  }
}
