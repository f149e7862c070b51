// Answers a browser renders or runs: the printable page of a note (HTML built from stored fields),
// JSONP wrapping of JSON answers, and the "internal network" trust of the admin routes.

import type { UserRow } from '../auth';
import { type Ctx, notFound } from '../context';
import type { FlawId } from '../flaws';
import type { Reply, Router } from '../http';

interface NoteRow {
  id: string;
  owner_id: number;
  title: string;
  body: string;
  deleted_at: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function registerViews(r: Router<Ctx>): void {
  // A print view: the note's own fields in an HTML page.
  r.get('/api/v2/notes/{noteId}/print', async (ctx) => {
    const me: UserRow = await ctx.user();
    const note = ctx.t.db.prepare<[string], NoteRow>('SELECT id, owner_id, title, body, deleted_at FROM notes WHERE id = ?').get(ctx.params.noteId!);
    if (!note || note.deleted_at || note.owner_id !== me.id) throw notFound('Note');
    const raw = ctx.has('stored-html');
    const field = (s: string) => (raw ? s : escapeHtml(s));
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${field(note.title)}</title></head>
<body><h1>${field(note.title)}</h1><div class="note">${field(note.body)}</div></body></html>`;
    // The flawed page relaxed the API's strict policy so that its inline print script could run.
    const headers = raw ? { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'" } : undefined;
    return { status: 200, text: html, contentType: 'text/html; charset=utf-8', headers };
  });
}

const CALLBACK_PARAMS = ['callback', 'jsonp', 'cb'];

/** With the jsonp-callback flaw, a GET's JSON answer wrapped in the function a callback parameter names (as JSONP middleware does). */
export function jsonpReply(has: (id: FlawId) => boolean, method: string, url: URL, reply: Reply): Reply {
  if (!has('jsonp-callback') || method !== 'GET' || reply.json === undefined || reply.status < 200 || reply.status >= 300) return reply;
  const name = CALLBACK_PARAMS.map((p) => url.searchParams.get(p)).find((v) => v && /^[\w$.]{1,64}$/.test(v));
  if (!name) return reply;
  const text = `/**/ typeof ${name} === 'function' && ${name}(${JSON.stringify(reply.json)});`;
  return { ...reply, json: undefined, text, contentType: 'text/javascript; charset=utf-8' };
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/i;

/** With the trusted-client-ip flaw: the client address a proxy header claims is loopback (the "internal network"). */
export function claimsInternalClient(ctx: Ctx): boolean {
  if (!ctx.has('trusted-client-ip')) return false;
  const forwarded = ctx.header('x-forwarded-for')?.split(',')[0]?.trim();
  const real = ctx.header('x-real-ip')?.trim();
  return [forwarded, real].some((ip) => !!ip && LOOPBACK.test(ip));
}
