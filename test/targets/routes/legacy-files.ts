// Routes the spec does not document, as an older release leaves them behind: a file-upload route whose
// XML import was "retired" but still parses XML (with an entity-expanding parser, as libxml2 with NOENT
// does), and an avatar import from a URL. Nothing links to them: a scanner finds them only by guessing
// common paths. Each exists only while one of its flaws is on (404 like any unknown route otherwise).

import { type Ctx } from '../context';
import { FetchRefused } from '../fetcher';
import { json, type Router } from '../http';

interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/** The first part with a file name of a multipart/form-data body. */
export function filePart(ctx: Ctx): FilePart | null {
  const type = ctx.header('content-type') ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!/^multipart\/form-data/i.test(type) || !boundary) return null;
  const raw = ctx.rawBody.toString('latin1');
  for (const part of raw.split(`--${boundary[1] ?? boundary[2]}`)) {
    const head = part.indexOf('\r\n\r\n');
    if (head < 0) continue;
    const headers = part.slice(0, head);
    const disposition = /content-disposition:[^\r\n]*name="([^"]*)"[^\r\n]*filename="([^"]*)"/i.exec(headers);
    if (!disposition) continue;
    const content = part.slice(head + 4).replace(/\r\n$/, '');
    return {
      field: disposition[1]!,
      filename: disposition[2]!,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream',
      content: Buffer.from(content, 'latin1'),
    };
  }
  return null;
}

/** What an entity-expanding XML parser makes of a document: DTD entities (internal, and external over http) substituted, then the text. */
async function parseExpandingEntities(ctx: Ctx, xml: string): Promise<string> {
  const entities = new Map<string, string>();
  const dtd = /<!DOCTYPE\s+[\w.-]+\s*\[([\s\S]*?)\]\s*>/.exec(xml);
  for (const m of (dtd?.[1] ?? '').matchAll(/<!ENTITY\s+([\w.-]+)\s+(?:"([^"]*)"|SYSTEM\s+"([^"]*)")\s*>/g)) {
    if (m[2] !== undefined) entities.set(m[1]!, m[2]);
    else {
      try {
        const got = await ctx.t.fetcher.fetch(m[3]!, 'legacy XML import', { internal: true });
        entities.set(m[1]!, got.body.toString('utf8').slice(0, 2_000));
      } catch (e) {
        if (!(e instanceof Error)) throw e;
        entities.set(m[1]!, '');
      }
    }
  }
  const body = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<!DOCTYPE[\s\S]*?\]\s*>/, '');
  const expanded = body.replace(/&([\w.-]+);/g, (all, name: string) => entities.get(name) ?? all);
  return expanded.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

const ACCEPTED = new Set(['pdf', 'png', 'jpg', 'jpeg']);

export function registerLegacyFiles(r: Router<Ctx>, has: (flaw: 'legacy-xml-upload' | 'upload-type-unchecked' | 'avatar-url-ssrf') => boolean): void {
  const stored: { name: string; size: number }[] = [];

  r.post(
    '/api/v2/file-upload',
    async (ctx) => {
      const file = filePart(ctx);
      if (!file) return json(400, { error: 'No file was sent: attach one in the form field "file".' });
      const ext = file.filename.slice(file.filename.lastIndexOf('.') + 1).toLowerCase();
      if (ext === 'xml') {
        if (!ctx.has('legacy-xml-upload')) return json(415, { error: 'XML complaints are no longer accepted: attach a PDF.' });
        const text = await parseExpandingEntities(ctx, file.content.toString('utf8'));
        return json(410, { error: `XML complaint imports are deprecated: ${text.slice(0, 400)} (${file.filename})` });
      }
      if (!ctx.has('upload-type-unchecked') && !ACCEPTED.has(ext)) return json(415, { error: 'Only PDF, PNG and JPEG files are accepted.' });
      stored.push({ name: file.filename, size: file.content.length });
      if (stored.length > 200) stored.shift();
      return json(201, { name: file.filename, size: file.content.length });
    },
    { enabled: () => has('legacy-xml-upload') || has('upload-type-unchecked') },
  );

  r.post(
    '/api/v2/avatar/url',
    async (ctx) => {
      await ctx.user();
      // The page's form posts it; the client library sends JSON: both are read, as a framework's body parsers do.
      const form = /x-www-form-urlencoded/i.test(ctx.header('content-type') ?? '');
      const b = (form ? Object.fromEntries(new URLSearchParams(ctx.rawBody.toString('utf8'))) : ctx.body()) as { avatarUrl?: unknown } | undefined;
      if (typeof b?.avatarUrl !== 'string') return json(400, { error: 'avatarUrl is required.' });
      try {
        const got = await ctx.t.fetcher.fetch(b.avatarUrl, 'avatar import', { internal: true });
        return json(200, { avatar: b.avatarUrl, bytes: got.body.length });
      } catch (e) {
        if (e instanceof FetchRefused) return json(400, { error: e.message });
        return json(400, { error: 'The image could not be fetched.' });
      }
    },
    { enabled: () => has('avatar-url-ssrf') },
  );
}
