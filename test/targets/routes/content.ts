// The caller's own content: notes, documents, activity, integrations, and the downloads area.

import { exec } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isAdmin } from '../auth';
import { type Ctx, notFound } from '../context';
import { newId } from '../db';
import { json, type Router, ValidationError } from '../http';
import { SCHEMAS } from '../schemas';

type Row = Record<string, unknown>;

interface NoteRow {
  id: string;
  owner_id: number;
  title: string;
  body: string;
  tags_json: string;
  priority: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const noteView = (n: NoteRow) => ({
  id: n.id,
  ownerId: n.owner_id,
  title: n.title,
  body: n.body,
  tags: JSON.parse(n.tags_json) as unknown,
  priority: n.priority,
  createdAt: n.created_at,
  updatedAt: n.updated_at,
});

/** The files of the public downloads area, written into the sandbox directory at start-up. */
export const DOWNLOADS: Record<string, { title: string; content: string }> = {
  'catalog-2026.txt': {
    title: 'Spring catalogue 2026',
    content: 'ACME SHOP SPRING CATALOGUE 2026\n\nElectronics, books, home and garden: 500 products, free returns within 30 days.\n',
  },
  'returns-policy.txt': {
    title: 'Returns policy',
    content: 'Returns are free within 30 days of delivery. Items must be unused and in their original packaging.\n',
  },
  'size-guide.txt': {
    title: 'Size guide',
    content: 'S: chest 86-91 cm\nM: chest 96-101 cm\nL: chest 106-111 cm\nXL: chest 116-121 cm\n',
  },
};

function getNote(ctx: Ctx, id: string): NoteRow | undefined {
  return ctx.t.db.prepare<[string], NoteRow>('SELECT * FROM notes WHERE id = ?').get(id);
}

function fileParam(ctx: Ctx): string {
  const file = ctx.query.get('file');
  if (!file) throw new ValidationError([{ field: 'file', message: 'is required' }]);
  return file;
}

export function registerContent(r: Router<Ctx>): void {
  // ---- notes ----
  r.get('/api/v2/notes', async (ctx) => {
    const me = await ctx.user();
    const perPage = ctx.intQuery('per_page', { def: 20, min: 1, max: 50, unboundedBy: 'page-size-unbounded' });
    const page = ctx.intQuery('page', { def: 1, min: 1 });
    const rows = ctx.t.db
      .prepare<[number, number, number], NoteRow>('SELECT * FROM notes WHERE owner_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT ? OFFSET ?')
      .all(me.id, perPage, (page - 1) * perPage);
    const total = (ctx.t.db.prepare('SELECT COUNT(*) AS n FROM notes WHERE owner_id = ? AND deleted_at IS NULL').get(me.id) as { n: number }).n;
    return json(200, { items: rows.map(noteView), total, page, perPage });
  });

  r.post('/api/v2/notes', async (ctx) => {
    const me = await ctx.user();
    const readonlyFlaw = ctx.has('mass-assign-readonly');
    const now = new Date().toISOString();
    const id = newId();
    if (ctx.has('leak-on-failed-create')) {
      // Insert first, validate after: a rejected body still leaves its row behind.
      const raw = ctx.body();
      const b = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Row;
      ctx.t.db
        .prepare('INSERT INTO notes (id, owner_id, title, body, tags_json, priority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, me.id, String(b.title ?? ''), String(b.body ?? ''), JSON.stringify(Array.isArray(b.tags) ? b.tags : []), Number.isInteger(b.priority) ? b.priority : 3, now, now);
    }
    const input = ctx.input<Row>(SCHEMAS.Note, { rejectUnknown: !readonlyFlaw, dropReadOnly: !readonlyFlaw });
    let owner = me.id;
    let createdAt = now;
    if (readonlyFlaw) {
      const ownerIn = input.ownerId ?? input.owner_id;
      if (ownerIn !== undefined && Number.isSafeInteger(Number(ownerIn))) owner = Number(ownerIn);
      if (typeof input.createdAt === 'string') createdAt = input.createdAt;
    }
    ctx.t.db
      .prepare('INSERT OR REPLACE INTO notes (id, owner_id, title, body, tags_json, priority, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, owner, input.title, input.body ?? '', JSON.stringify(input.tags ?? []), input.priority ?? 3, createdAt, now);
    return json(ctx.has('undeclared-status') ? 200 : 201, noteView(getNote(ctx, id)!), { location: `/api/v2/notes/${id}` });
  });

  r.get('/api/v2/notes/{noteId}', async (ctx) => {
    const caller = await ctx.objectCaller();
    const note = getNote(ctx, ctx.params.noteId!);
    if (!note || (note.deleted_at && !ctx.has('use-after-delete'))) throw notFound('Note');
    if (caller && note.owner_id !== caller.id && !ctx.has('bola-create-read')) throw notFound('Note');
    return json(200, noteView(note));
  });

  r.put('/api/v2/notes/{noteId}', async (ctx) => {
    const me = await ctx.user();
    const note = getNote(ctx, ctx.params.noteId!);
    if (!note || note.deleted_at) throw notFound('Note');
    if (note.owner_id !== me.id && !ctx.has('bola-create-update')) throw notFound('Note');
    const readonlyFlaw = ctx.has('mass-assign-readonly');
    const input = ctx.input<Row>(SCHEMAS.Note, { rejectUnknown: !readonlyFlaw, dropReadOnly: !readonlyFlaw });
    let owner = note.owner_id;
    let createdAt = note.created_at;
    if (readonlyFlaw) {
      const ownerIn = input.ownerId ?? input.owner_id;
      if (ownerIn !== undefined && Number.isSafeInteger(Number(ownerIn))) owner = Number(ownerIn);
      if (typeof input.createdAt === 'string') createdAt = input.createdAt;
    }
    ctx.t.db
      .prepare('UPDATE notes SET title = ?, body = ?, tags_json = ?, priority = ?, owner_id = ?, created_at = ?, updated_at = ? WHERE id = ?')
      .run(input.title, input.body ?? '', JSON.stringify(input.tags ?? []), input.priority ?? 3, owner, createdAt, new Date().toISOString(), note.id);
    return json(200, noteView(getNote(ctx, note.id)!));
  });

  r.delete('/api/v2/notes/{noteId}', async (ctx) => {
    const me = await ctx.user();
    const note = getNote(ctx, ctx.params.noteId!);
    if (!note || note.deleted_at) throw notFound('Note');
    if (note.owner_id !== me.id && !ctx.has('bola-create-delete')) throw notFound('Note');
    // Soft delete in both modes; the read path decides whether a deleted row is still served.
    ctx.t.db.prepare('UPDATE notes SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), note.id);
    return { status: 204 };
  });

  // ---- documents ----
  r.get('/api/v2/documents', async (ctx) => {
    const me = await ctx.user();
    const rows = ctx.t.db.prepare('SELECT id, title, file_name, created_at FROM documents WHERE owner_id = ? ORDER BY created_at').all(me.id) as Row[];
    return json(200, rows.map((d) => ({ id: d.id, title: d.title, fileName: d.file_name, createdAt: d.created_at })));
  });

  r.get('/api/v2/documents/download', async (ctx) => {
    const caller = await ctx.objectCaller();
    const id = ctx.query.get('documentId');
    if (!id) throw new ValidationError([{ field: 'documentId', message: 'is required' }]);
    const d = ctx.t.db.prepare('SELECT * FROM documents WHERE id = ?').get(id) as Row | undefined;
    if (!d) throw notFound('Document');
    if (caller && d.owner_id !== caller.id && !isAdmin(caller) && !ctx.has('bola-query')) throw notFound('Document');
    return json(200, { id: d.id, title: d.title, fileName: d.file_name, content: d.content });
  });

  // ---- activity and integrations ----
  r.get('/api/v2/activity', async (ctx) => {
    const me = await ctx.user();
    const perPage = ctx.intQuery('per_page', { def: 20, min: 1, max: 50, unboundedBy: 'page-size-unbounded' });
    const page = ctx.intQuery('page', { def: 1, min: 1 });
    const rows = ctx.t.db.prepare('SELECT id, type, detail, created_at FROM activity WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(me.id, perPage, (page - 1) * perPage) as Row[];
    const total = (ctx.t.db.prepare('SELECT COUNT(*) AS n FROM activity WHERE user_id = ?').get(me.id) as { n: number }).n;
    return json(200, { items: rows.map((a) => ({ id: a.id, type: a.type, detail: a.detail, createdAt: a.created_at })), total, page, perPage });
  });

  r.get('/api/v2/integrations', async (ctx) => {
    const me = await ctx.user();
    const rows = ctx.t.db.prepare('SELECT * FROM integrations WHERE user_id = ? ORDER BY id').all(me.id) as Row[];
    return json(
      200,
      rows.map((i) => {
        const der = crypto.createPublicKey(String(i.public_key)).export({ type: 'spki', format: 'der' });
        return {
          id: i.id,
          provider: i.provider,
          publicKey: i.public_key,
          keyFingerprint: crypto.createHash('sha256').update(der).digest('hex'),
          createdAt: i.created_at,
          ...(ctx.has('exposure-private-key') ? { privateKey: i.private_key } : {}),
        };
      }),
    );
  });

  // ---- downloads ----
  r.get('/api/v2/downloads', async (ctx) => {
    await ctx.user();
    return json(
      200,
      Object.entries(DOWNLOADS).map(([file, d]) => ({ file, title: d.title, size: Buffer.byteLength(d.content) })),
    );
  });

  r.get('/api/v2/downloads/content', async (ctx) => {
    await ctx.user();
    const file = fileParam(ctx);
    let full: string;
    if (ctx.has('path-traversal')) {
      full = path.join(ctx.t.downloadsDir, file);
    } else {
      if (!Object.hasOwn(DOWNLOADS, file)) throw notFound('File');
      full = path.join(ctx.t.downloadsDir, path.basename(file));
    }
    let body: Buffer;
    try {
      body = await fs.readFile(full);
    } catch {
      throw notFound('File');
    }
    return {
      status: 200,
      body,
      contentType: 'text/plain; charset=utf-8',
      headers: { 'content-disposition': `attachment; filename="${path.basename(full).replace(/[^\w.-]/g, '_')}"` },
    };
  });

  r.get('/api/v2/downloads/checksum', async (ctx) => {
    await ctx.user();
    const file = fileParam(ctx);
    if (ctx.has('cmd-injection')) {
      // Shells out with the value pasted into the command line.
      const stdout = await new Promise<string>((resolve) => {
        exec(`sha256sum ${ctx.t.downloadsDir}/${file}`, { timeout: 15_000, shell: '/bin/sh' }, (_err, out) => resolve(String(out)));
      });
      const m = /^([0-9a-f]{64})\s/.exec(stdout);
      if (!m) throw notFound('File');
      return json(200, { file, sha256: m[1] });
    }
    if (!Object.hasOwn(DOWNLOADS, file)) throw notFound('File');
    const data = await fs.readFile(path.join(ctx.t.downloadsDir, file));
    return json(200, { file, sha256: crypto.createHash('sha256').update(data).digest('hex') });
  });
}

