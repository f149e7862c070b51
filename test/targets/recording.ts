// A small vulnerable API whose handlers record every file, command, row and wipe they are asked to
// touch (issue 30: a scan must never damage the target's host). Its flaws are real and written the
// way careless APIs write them — a file path joined onto a folder for reads *and* writes, a ping run
// through a shell, SQL concatenated into SELECT and UPDATE statements, a Mongo-style filter taken from
// the body for finds *and* renames, a reset route, a bulk delete — so a scan that probes them the wrong
// way would do lasting damage. Nothing here runs a command or writes outside its own temp folder: the
// shell is emulated (a `sleep N` really waits), and a write that resolves outside the folder is
// recorded and refused, so a failing test cannot damage the machine it runs on.

import Database from 'better-sqlite3';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { listenLocal } from './http';

export interface FileTouch {
  op: 'write' | 'delete';
  /** The path the handler resolved (absolute). */
  path: string;
  /** Inside the target's file folder. */
  inside: boolean;
  route: string;
}

export interface RecordingTarget {
  url: string;
  spec: Record<string, unknown>;
  tokens: { alice: string; bob: string };
  /** Files the handlers wrote or deleted (reads are not recorded: reading /etc/passwd harms nothing). */
  files: FileTouch[];
  /** Command lines the ping handler would have run through a shell. */
  commands: string[];
  /** Wipes: the reset routes and the bulk delete, by route. */
  wipes: string[];
  /** UPDATE statements that changed more than one row, and renames that matched more than one item. */
  bulkChanges: string[];
  /** The seeded files and their contents at start. */
  seededFiles: Record<string, string>;
  /** The seeded items (id, name) at start. */
  seededItems: { id: number; name: string }[];
  fileDir: string;
  /** The current contents of a seeded file (null when gone). */
  readSeeded(name: string): string | null;
  /** The seeded items as they are now. */
  items(): { id: number; name: string }[];
  close(): Promise<void>;
}

const SEEDED_FILES: Record<string, string> = { 'notes.txt': 'Quarterly notes: do not overwrite.\n', 'report.csv': 'id,total\n1,42\n' };
const SEEDED_ITEMS = ['lamp', 'chair', 'table'];

/** Sub-commands of a shell line: split on ; | & newlines, and the insides of $() and backticks. */
export function shellCommands(line: string): string[] {
  const inner: string[] = [];
  const outer = line.replace(/\$\(([^)]*)\)|`([^`]*)`/g, (_, a: string | undefined, b: string | undefined) => {
    inner.push((a ?? b ?? '').trim());
    return ' ';
  });
  return [...outer.split(/[;|&\n]+/), ...inner]
    .map((c) => c.replace(/^['"\s]+|['"\s]+$/g, '').trim())
    .filter(Boolean);
}

/** Seconds a shell would spend on a line's sleeps (bounded: the emulation never waits long). */
function sleepSeconds(line: string): number {
  let total = 0;
  for (const c of shellCommands(line)) {
    const m = /^sleep\s+(\d+(?:\.\d+)?)$/.exec(c);
    if (m) total += Number(m[1]);
  }
  return Math.min(total, 10);
}

type Filter = Record<string, unknown>;

/** A Mongo-style match of one item against a filter whose values may be operator objects. */
function matches(item: { id: number; name: string }, filter: Filter): boolean {
  for (const [k, cond] of Object.entries(filter)) {
    const v = (item as Record<string, unknown>)[k];
    if (cond && typeof cond === 'object' && !Array.isArray(cond)) {
      for (const [op, arg] of Object.entries(cond as Record<string, unknown>)) {
        if (op === '$ne' && v === arg) return false;
        if (op === '$eq' && v !== arg) return false;
        if (op === '$gt' && !(String(v) > String(arg))) return false;
        if (op === '$lt' && !(String(v) < String(arg))) return false;
        if (op === '$in' && !(Array.isArray(arg) && arg.includes(v))) return false;
        if (op === '$regex' && !new RegExp(String(arg)).test(String(v))) return false;
      }
    } else if (v !== cond) return false;
  }
  return true;
}

function spec(): Record<string, unknown> {
  const bearer = [{ bearer: [] }];
  const json = (schema: Record<string, unknown>, example?: unknown) => ({
    required: true,
    content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } },
  });
  const ok = { '200': { description: 'ok' } };
  const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
  const fileQuery = { name: 'path', in: 'query', required: true, schema: { type: 'string', example: 'notes.txt' } };
  return {
    openapi: '3.0.3',
    info: { title: 'Recording API', version: '1.0.0' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: bearer,
    paths: {
      '/api/files/raw': {
        get: { operationId: 'readRaw', parameters: [fileQuery], responses: ok },
        put: { operationId: 'writeRaw', parameters: [fileQuery], requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } } } }, responses: ok },
      },
      '/api/files': {
        post: { operationId: 'uploadFile', requestBody: json({ type: 'object', required: ['filename', 'content'], properties: { filename: { type: 'string' }, content: { type: 'string' } } }, { filename: 'report.csv', content: 'a,b' }), responses: { '201': { description: 'created' } } },
        delete: { operationId: 'deleteAllFiles', responses: ok },
      },
      '/api/files/{name}': {
        get: { operationId: 'readFile', parameters: [pathParam('name')], responses: ok },
        delete: { operationId: 'deleteFile', parameters: [pathParam('name')], responses: ok },
      },
      '/api/tools/ping': { post: { operationId: 'ping', requestBody: json({ type: 'object', required: ['host'], properties: { host: { type: 'string', example: '127.0.0.1' } } }), responses: ok } },
      '/api/items': {
        get: { operationId: 'searchItems', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string', example: 'lamp' } }], responses: ok },
        post: { operationId: 'createItem', requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }), responses: { '201': { description: 'created' } } },
      },
      '/api/items/{id}': {
        get: { operationId: 'getItem', parameters: [pathParam('id')], responses: ok },
        put: { operationId: 'updateItem', parameters: [pathParam('id')], requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }), responses: ok },
      },
      '/api/items/find': { post: { operationId: 'findItems', requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'lamp' } } }), responses: ok } },
      '/api/items/rename': {
        post: { operationId: 'renameItems', requestBody: json({ type: 'object', required: ['name', 'newName'], properties: { name: { type: 'string', example: 'lamp' }, newName: { type: 'string', example: 'lantern' } } }), responses: ok },
      },
      '/api/admin/reset': { post: { operationId: 'resetDatabase', responses: ok } },
      '/api/reset': { get: { operationId: 'reset', security: [], responses: ok } },
    },
  };
}

export async function startRecordingTarget(): Promise<RecordingTarget> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-recording-'));
  const fileDir = path.join(root, 'app', 'data', 'files');
  fs.mkdirSync(fileDir, { recursive: true });
  for (const [name, content] of Object.entries(SEEDED_FILES)) fs.writeFileSync(path.join(fileDir, name), content);
  const db = new Database(':memory:');
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, owner TEXT)');
  for (const name of SEEDED_ITEMS) db.prepare("INSERT INTO items (name, owner) VALUES (?, 'seed')").run(name);
  const seededItems = db.prepare('SELECT id, name FROM items ORDER BY id').all() as { id: number; name: string }[];

  const tokens = { alice: 'rec-alice-0c7b2a', bob: 'rec-bob-9f31d4' };
  const files: FileTouch[] = [];
  const commands: string[] = [];
  const wipes: string[] = [];
  const bulkChanges: string[] = [];
  const inside = (p: string) => p === fileDir || p.startsWith(fileDir + path.sep);

  /** A write or delete as the vulnerable handler would do it: recorded, and done only inside the folder. */
  const touch = (op: FileTouch['op'], name: string, route: string, content?: string): boolean => {
    const resolved = path.resolve(fileDir, name);
    const ok = inside(resolved);
    files.push({ op, path: resolved, inside: ok, route });
    if (!ok) return false;
    if (op === 'write') fs.writeFileSync(resolved, content ?? '');
    else fs.rmSync(resolved, { force: true });
    return true;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, Buffer.concat(chunks).toString('utf8')).then(
        ({ status, body }) => {
          res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
          res.end(typeof body === 'string' ? body : JSON.stringify(body));
        },
        (err: Error) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: err.message }));
        },
      );
    });
  });

  async function handle(req: http.IncomingMessage, raw: string): Promise<{ status: number; body: unknown }> {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const route = `${method} ${url.pathname}`;
    if (route === 'GET /api/reset') {
      wipes.push(route);
      return { status: 200, body: { message: 'Database reset' } };
    }
    const auth = req.headers.authorization ?? '';
    const user = auth === `Bearer ${tokens.alice}` ? 'alice' : auth === `Bearer ${tokens.bob}` ? 'bob' : null;
    if (!user) return { status: 401, body: { error: 'unauthorized' } };
    let body: Record<string, unknown> = {};
    if (raw && /json/.test(req.headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return { status: 400, body: { error: 'invalid JSON' } };
      }
    }
    const p = url.pathname;
    if (p === '/api/files/raw') {
      const name = url.searchParams.get('path') ?? '';
      if (method === 'GET') {
        try {
          return { status: 200, body: fs.readFileSync(path.resolve(fileDir, name), 'utf8') };
        } catch {
          return { status: 404, body: { error: 'no such file' } };
        }
      }
      if (method === 'PUT') return touch('write', name, route, raw) ? { status: 200, body: { saved: name } } : { status: 500, body: { error: 'EACCES' } };
    }
    if (p === '/api/files' && method === 'POST') {
      const name = String(body.filename ?? '');
      if (!name) return { status: 400, body: { error: 'filename is required' } };
      touch('write', name, route, String(body.content ?? ''));
      return { status: 201, body: { id: name, filename: name } };
    }
    if (p === '/api/files' && method === 'DELETE') {
      wipes.push(route);
      return { status: 200, body: { deleted: 'all' } };
    }
    const fileMatch = /^\/api\/files\/([^/]+)$/.exec(p);
    if (fileMatch) {
      const name = decodeURIComponent(fileMatch[1]!);
      if (method === 'GET') {
        try {
          return { status: 200, body: { filename: name, content: fs.readFileSync(path.resolve(fileDir, name), 'utf8') } };
        } catch {
          return { status: 404, body: { error: 'no such file' } };
        }
      }
      if (method === 'DELETE') {
        touch('delete', name, route);
        return { status: 200, body: { deleted: name } };
      }
    }
    if (route === 'POST /api/tools/ping') {
      const line = `ping -c 1 ${String(body.host ?? '')}`;
      commands.push(line);
      const s = sleepSeconds(line);
      if (s) await new Promise((r) => setTimeout(r, s * 1000));
      return { status: 200, body: { output: `PING ${String(body.host)}: 1 packets transmitted, 1 received` } };
    }
    if (route === 'GET /api/items') {
      const q = url.searchParams.get('q') ?? '';
      const rows = db.prepare(`SELECT id, name FROM items WHERE name LIKE '%${q}%'`).all();
      return { status: 200, body: rows };
    }
    if (route === 'POST /api/items') {
      const info = db.prepare('INSERT INTO items (name, owner) VALUES (?, ?)').run(String(body.name ?? 'item'), user);
      return { status: 201, body: { id: Number(info.lastInsertRowid), name: body.name } };
    }
    if (route === 'POST /api/items/find') {
      const all = db.prepare('SELECT id, name FROM items').all() as { id: number; name: string }[];
      return { status: 200, body: all.filter((i) => matches(i, { name: body.name })) };
    }
    if (route === 'POST /api/items/rename') {
      const all = db.prepare('SELECT id, name FROM items').all() as { id: number; name: string }[];
      const hit = all.filter((i) => matches(i, { name: body.name }));
      if (hit.length > 1) bulkChanges.push(`${route}: ${hit.length} items renamed`);
      for (const i of hit) db.prepare('UPDATE items SET name = ? WHERE id = ?').run(String(body.newName ?? ''), i.id);
      return { status: 200, body: { renamed: hit.length } };
    }
    const itemMatch = /^\/api\/items\/([^/]+)$/.exec(p);
    if (itemMatch) {
      const id = itemMatch[1]!;
      if (method === 'GET') {
        const row = db.prepare(`SELECT id, name FROM items WHERE id = ${id}`).get();
        return row ? { status: 200, body: row } : { status: 404, body: { error: 'not found' } };
      }
      if (method === 'PUT') {
        const info = db.prepare(`UPDATE items SET name = '${String(body.name ?? '')}' WHERE id = ${id}`).run();
        if (info.changes > 1) bulkChanges.push(`${route}: ${info.changes} rows updated`);
        return { status: 200, body: { updated: info.changes } };
      }
    }
    if (route === 'POST /api/admin/reset') {
      wipes.push(route);
      return { status: 200, body: { message: 'reset' } };
    }
    return { status: 404, body: { error: 'not found' } };
  }

  const stop = await listenLocal(server);
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    spec: { ...spec(), servers: [{ url: `http://127.0.0.1:${port}` }] },
    tokens,
    files,
    commands,
    wipes,
    bulkChanges,
    seededFiles: { ...SEEDED_FILES },
    seededItems,
    fileDir,
    readSeeded: (name) => {
      try {
        return fs.readFileSync(path.join(fileDir, name), 'utf8');
      } catch {
        return null;
      }
    },
    items: () => db.prepare('SELECT id, name FROM items WHERE id <= ? ORDER BY id').all(seededItems.length) as { id: number; name: string }[],
    async close() {
      await stop();
      db.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
